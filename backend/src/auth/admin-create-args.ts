import { type CommonPasswordList, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, passwordProblem } from '@hunktube/shared';

export const ADMIN_CREATE_USAGE =
  `Usage: npm run admin:create -- <email> <password>   (password: ${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters, ` +
  'not a common one, not containing the e-mail address’s name)';

export type AdminCreateArgs = { ok: true; email: string; password: string } | { ok: false; message: string };

/**
 * The command line of `npm run admin:create`: an e-mail address and a password that the password rule takes, as
 * far as it can be told before the database is opened (an existing account's display name is checked by
 * AuthService.ensureAdmin). A refused password gets the rule's message, other mistakes the usage.
 */
export function parseAdminCreateArgs(argv: string[], commonPasswords: CommonPasswordList): AdminCreateArgs {
  const [email, password, ...rest] = argv;
  if (!email || !/^[^\s@]+@[^\s@]+$/.test(email) || !password || rest.length > 0) return { ok: false, message: ADMIN_CREATE_USAGE };
  const problem = passwordProblem(password, { email }, commonPasswords);
  if (problem?.rule === 'length') return { ok: false, message: ADMIN_CREATE_USAGE };
  if (problem) return { ok: false, message: problem.message };
  return { ok: true, email, password };
}
