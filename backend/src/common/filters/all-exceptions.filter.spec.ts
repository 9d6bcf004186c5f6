import type { ArgumentsHost } from '@nestjs/common';
import { QueryFailedError } from 'typeorm';
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
  ])('answers %s with 400, never 500', (_name, code) => {
    expect(answer(sqlError(code))).toMatchObject({ status: 400, body: { error: 'Invalid value', errorCode: code, statusCode: 400 } });
  });

  it('answers a dependency that is down with 503 and Retry-After', () => {
    const sent = answer(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }));
    expect(sent).toMatchObject({ status: 503, body: { error: expect.stringMatching(/unavailable/), statusCode: 503 } });
    expect(Number(sent.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('answers anything unexpected with 500 and a plain message', () => {
    expect(answer(new TypeError('x is not a function'))).toMatchObject({ status: 500, body: { error: 'Internal server error', statusCode: 500 } });
  });
});
