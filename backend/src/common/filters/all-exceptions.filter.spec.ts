import { type ArgumentsHost, Logger } from '@nestjs/common';
import { QueryFailedError } from 'typeorm';
import { InvalidInputError, OverBudgetError } from '../errors/domain-errors';
import { AllExceptionsFilter } from './all-exceptions.filter';

/** What the filter answers for `exception`: status, headers and body, through a minimal Express response. */
function answer(exception: unknown) {
  const sent: { status?: number; body?: unknown; headers: Record<string, string> } = { headers: {} };
  const res = {
    headersSent: false,
    setHeader: (name: string, value: string) => void (sent.headers[name.toLowerCase()] = value),
    getHeader: (name: string) => sent.headers[name.toLowerCase()],
    status(code: number) {
      sent.status = code;
      return this;
    },
    json: (body: unknown) => void (sent.body = body),
  };
  const host = { switchToHttp: () => ({ getResponse: () => res, getRequest: () => ({ requestId: 'req-7' }) }) } as unknown as ArgumentsHost;
  new AllExceptionsFilter().catch(exception, host);
  return sent;
}

const sqlError = (code: string) => new QueryFailedError('UPDATE videos SET x = $1', [], Object.assign(new Error('refused'), { code }));

describe('AllExceptionsFilter', () => {
  it.each([
    ['a NOT NULL violation', '23502'],
    ['a CHECK violation', '23514'],
    ['a bad value', '22P02'],
    ['a NUL character in text', '22021'],
  ])('answers %s with 400, never 500, and never the database\'s code', (_name, code) => {
    expect(answer(sqlError(code))).toEqual({ status: 400, body: { error: 'Invalid value', statusCode: 400 }, headers: {} });
  });

  it("answers the database's unique and foreign-key refusals without their codes", () => {
    expect(answer(sqlError('23505')).body).toEqual({ error: 'Already exists', statusCode: 409 });
    expect(answer(sqlError('23503')).body).toEqual({ error: 'Not found', statusCode: 404 });
  });

  it('answers a dependency that is down with 503 and Retry-After', () => {
    const sent = answer(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }));
    expect(sent).toMatchObject({ status: 503, body: { error: expect.stringMatching(/unavailable/), statusCode: 503 } });
    expect(Number(sent.headers['retry-after'])).toBeGreaterThan(0);
  });

  it("answers a domain error with its status and message, and its code as errorCode when it has one", () => {
    class CodedError extends InvalidInputError {
      override readonly code = 'SOME_RULE';
    }
    expect(answer(new CodedError('Broke some rule'))).toMatchObject({ status: 400, body: { error: 'Broke some rule', errorCode: 'SOME_RULE', statusCode: 400 } });
    const plain = answer(new OverBudgetError('Slow down', 60));
    expect(plain).toMatchObject({ status: 429, body: { error: 'Slow down', statusCode: 429 } });
    expect(plain.body).not.toHaveProperty('errorCode');
    expect(plain.headers['retry-after']).toBe('60');
  });

  it('logs no error for a client that went away mid-answer, yet does for the same error while it is there', () => {
    const logged = vi.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    try {
      const catchWith = (socketGone: boolean) => {
        const res = { headersSent: true, destroyed: socketGone, setHeader: () => undefined, getHeader: () => undefined, status: () => res, json: () => undefined };
        const host = { switchToHttp: () => ({ getResponse: () => res, getRequest: () => ({ socket: { destroyed: socketGone } }) }) } as unknown as ArgumentsHost;
        new AllExceptionsFilter().catch(Object.assign(new Error('Request aborted'), { code: 'ECONNABORTED' }), host);
      };
      catchWith(true);
      expect(logged).not.toHaveBeenCalled();
      catchWith(false);
      expect(logged).toHaveBeenCalledTimes(1);
    } finally {
      logged.mockRestore();
    }
  });

  it('answers anything unexpected with 500 and a plain message', () => {
    expect(answer(new TypeError('x is not a function'))).toMatchObject({ status: 500, body: { error: 'Internal server error', statusCode: 500 } });
  });
});
