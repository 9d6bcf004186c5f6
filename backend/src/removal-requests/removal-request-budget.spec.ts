import { RemovalBudgetExceededError, removalBudgetsFor, reporterKey } from './removal-request-budget';

describe('removal request budgets', () => {
  it('counts an anonymous sender by their key (their network, hashed): 3 an hour', () => {
    expect(removalBudgetsFor('0123456789abcdef', undefined)).toEqual([{ kind: 'anonymous', key: 'anonymous:0123456789abcdef', limit: 3 }]);
    expect(removalBudgetsFor('0123456789abcdef', null)).toEqual([{ kind: 'anonymous', key: 'anonymous:0123456789abcdef', limit: 3 }]);
  });

  it('counts a member by account (10) and every member on the network together (30)', () => {
    expect(removalBudgetsFor('0123456789abcdef', { id: 'u-1', roleId: 'member' })).toEqual([
      { kind: 'member', key: 'member:u-1', limit: 10 },
      { kind: 'membersPerNetwork', key: 'members:0123456789abcdef', limit: 30 },
    ]);
    expect(removalBudgetsFor('0123456789abcdef', { id: 'u-2', roleId: null }).map((b) => b.kind)).toEqual(['member', 'membersPerNetwork']);
  });

  it('does not count an admin', () => {
    expect(removalBudgetsFor('0123456789abcdef', { id: 'a-1', roleId: 'admin' })).toEqual([]);
  });

  it('names the budget spent and when to come back, in whole minutes', () => {
    expect(new RemovalBudgetExceededError('anonymous', 3600).message).toBe(
      'Too many removal requests from your address: at most 3 an hour without signing in. Try again in 60 minutes, or sign in to send more',
    );
    expect(new RemovalBudgetExceededError('member', 61).message).toBe('Too many removal requests from your account: at most 10 an hour. Try again in 2 minutes');
    expect(new RemovalBudgetExceededError('membersPerNetwork', 1).message).toMatch(/at most 30 an hour from all accounts on it\. Try again in 1 minute$/);
  });
});

describe('reporterKey', () => {
  it('is 16 hex digits, the same for one network and secret, and says nothing of the address', () => {
    const key = reporterKey('203.0.113.9', 'secret-a');
    expect(key).toMatch(/^[0-9a-f]{16}$/);
    expect(reporterKey('203.0.113.9', 'secret-a')).toBe(key);
    expect(key).not.toContain('203');
  });

  it('differs between networks, and between installs (secrets) for one network', () => {
    expect(reporterKey('203.0.113.10', 'secret-a')).not.toBe(reporterKey('203.0.113.9', 'secret-a'));
    expect(reporterKey('203.0.113.9', 'secret-b')).not.toBe(reporterKey('203.0.113.9', 'secret-a'));
  });
});
