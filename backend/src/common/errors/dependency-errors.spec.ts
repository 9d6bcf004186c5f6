import { QueryFailedError } from 'typeorm';
import { isDependencyDown, readOrRecall } from './dependency-errors';

const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });
const queryFailed = (driverError: Error) => new QueryFailedError('SELECT 1', [], driverError);

describe('isDependencyDown', () => {
  it.each([
    ['a refused connection', withCode('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED')],
    ['a reset socket', withCode('read ECONNRESET', 'ECONNRESET')],
    ['pg losing its connection mid-query', queryFailed(new Error('Connection terminated unexpectedly'))],
    ['the pool timing out', new Error('timeout exceeded when trying to connect')],
    ['an administrator shutdown', queryFailed(withCode('terminating connection due to administrator command', '57P01'))],
    ['a connection failure class', withCode('connection failure', '08006')],
    ['too many connections', queryFailed(withCode('sorry, too many clients already', '53300'))],
    ['ioredis closed', new Error('Connection is closed.')],
    ['TypeORM with the database closed', new Error('Driver not Connected')],
    ['ioredis offline', new Error("Stream isn't writeable and enableOfflineQueue options is false")],
    ['Redis reading its snapshot after a restart', Object.assign(new Error('LOADING Redis is loading the dataset in memory'), { name: 'ReplyError' })],
    ['node-redis offline', Object.assign(new Error('The client is offline'), { name: 'ClientOfflineError' })],
    ['several refused addresses', Object.assign(new AggregateError([withCode('x', 'ECONNREFUSED')]), {})],
    ['a refusal as the cause', new Error('wrapped', { cause: withCode('x', 'ECONNREFUSED') })],
  ])('recognises %s', (_name, error) => {
    expect(isDependencyDown(error)).toBe(true);
  });

  it.each([
    ['a unique violation', queryFailed(withCode('duplicate key', '23505'))],
    ['a syntax error', queryFailed(withCode('syntax error', '42601'))],
    ['a bad value', queryFailed(withCode('invalid input syntax', '22P02'))],
    ['a plain bug', new TypeError('x is not a function')],
    ['a Redis key of the wrong type', Object.assign(new Error('WRONGTYPE Operation against a key holding the wrong kind of value'), { name: 'ReplyError' })],
    ['nothing', undefined],
  ])('leaves %s alone', (_name, error) => {
    expect(isDependencyDown(error)).toBe(false);
  });
});

describe('readOrRecall', () => {
  const down = () => Promise.reject(withCode('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED'));

  it('answers the read when it succeeds, without recalling', async () => {
    expect(await readOrRecall(async () => 'fresh', () => { throw new Error('not to be called'); })).toBe('fresh');
  });

  it('answers what it remembers while the dependency is down', async () => {
    expect(await readOrRecall(down, () => 'remembered')).toBe('remembered');
  });

  it('keeps the error when it remembers nothing, or when the read failed for another reason', async () => {
    await expect(readOrRecall(down, () => undefined)).rejects.toThrow('ECONNREFUSED');
    await expect(readOrRecall(() => Promise.reject(queryFailed(withCode('syntax error', '42601'))), () => 'remembered')).rejects.toThrow('syntax error');
  });
});
