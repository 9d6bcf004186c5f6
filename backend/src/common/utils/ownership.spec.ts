import { ForbiddenError } from '../errors/domain-errors';
import { assertOwnUser, NOT_YOUR_ACCOUNT } from './ownership';

describe('assertOwnUser', () => {
  const me = '6f1c2f0e-8a43-4c55-9d43-3a4f0e0b2a11';

  it('accepts absent ids and the caller’s own', () => {
    expect(() => assertOwnUser(me)).not.toThrow();
    expect(() => assertOwnUser(me, undefined, null, me)).not.toThrow();
  });

  it('refuses any other id with 403', () => {
    expect(() => assertOwnUser(me, me, 'someone-else')).toThrow(new ForbiddenError(NOT_YOUR_ACCOUNT));
    expect(() => assertOwnUser(me, me, 'someone-else')).toThrow(expect.objectContaining({ status: 403 }));
    expect(() => assertOwnUser(me, 42)).toThrow(ForbiddenError);
    expect(() => assertOwnUser(me, '')).toThrow(ForbiddenError);
  });
});
