import { describe, expect, it } from 'vitest';
import { commonPasswords } from './common-passwords.js';
import { passwordProblem } from './password-rule.js';

describe('commonPasswords', () => {
  it('holds at least 10,000 passwords, lower case', () => {
    const list = commonPasswords();
    expect(list.size).toBeGreaterThanOrEqual(10_000);
    expect(list.has('password')).toBe(true);
    expect(list.has('Password')).toBe(false);
  });

  it.each(['password123', 'qwertyuiop', '1234567890', 'iloveyou12', 'Password1234', 'basketball'])(
    'makes the rule refuse %j, a common password of 10 characters or more',
    (password) => {
      expect(passwordProblem(password, { email: 'member@example.com', displayName: 'Member' }, commonPasswords())?.rule).toBe('common');
    },
  );

  // The passwords the tests, benches and test servers register or create admins with: none may be common.
  it.each([
    // backend/test: registerUser's default, the admins of auth, backup and process, the rule's own cases
    'correct horse battery',
    'admin-password-1',
    'new-admin-password',
    'a-new-password-for-them',
    'keeper of the keys 1',
    'a restored account passphrase',
    'signed up after the restore',
    'k7#vq2!zwm',
    'captain hook rules the seas',
    'mister bigshot 4ever',
    // scripts/test-app-server.mjs and frontend/e2e
    'the e2e keeper of the keys',
    'a member password',
    // backend/bench
    'bench member password',
    'bench keeper of the keys',
    'soak-password-1',
    'soak-admin-password',
    // frontend/src tests
    'a long password',
    'short and now long enough',
  ])('does not hold %j, a password the tests use', (password) => {
    expect(commonPasswords().has(password.toLowerCase())).toBe(false);
    expect(passwordProblem(password, { email: 'member@example.com' }, commonPasswords())?.rule).not.toBe('common');
  });
});
