import { PASSWORD_CONTAINS_EMAIL_NAME, PASSWORD_TOO_COMMON } from '@hunktube/shared';
import { commonPasswords } from '@hunktube/shared/common-passwords';
import { ADMIN_CREATE_USAGE, parseAdminCreateArgs } from './admin-create-args';

describe('the admin:create command line', () => {
  const parse = (...argv: string[]) => parseAdminCreateArgs(argv, commonPasswords());

  it('takes an e-mail address and a password that the password rule takes', () => {
    expect(parse('boss@example.com', 'keeper of the keys 1')).toEqual({ ok: true, email: 'boss@example.com', password: 'keeper of the keys 1' });
  });

  it.each([
    ['a common password', ['boss@example.com', 'Password123'], PASSWORD_TOO_COMMON],
    ["a password with the e-mail address's name", ['big.boss@example.com', 'BigBoss2024!'], PASSWORD_CONTAINS_EMAIL_NAME],
  ])("refuses %s with the rule's message", (_case, argv, message) => {
    expect(parse(...argv)).toEqual({ ok: false, message });
  });

  it.each([
    ['nothing', []],
    ['no password', ['boss@example.com']],
    ['no e-mail address', ['boss', 'keeper of the keys 1']],
    ['a 9-character password', ['boss@example.com', 'k7#vq2!zw']],
    ['a password split by the shell', ['boss@example.com', 'keeper', 'of', 'the', 'keys']],
  ])('answers the usage for %s', (_case, argv) => {
    expect(parse(...argv)).toEqual({ ok: false, message: ADMIN_CREATE_USAGE });
  });

  it('states the rule in its usage', () => {
    expect(ADMIN_CREATE_USAGE).toMatch(/10 to 128 characters, not a common one, not containing the e-mail address’s name/);
  });
});
