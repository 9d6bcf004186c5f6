import { WEAK_PASSWORD } from '@hunktube/shared';
import { InvalidInputError } from '../common/errors/domain-errors';

/** Every `errorCode` the auth feature sends (WEAK_PASSWORD is api-contract.md's). */
export const AuthErrorCode = {
  WeakPassword: WEAK_PASSWORD,
  /** Deleting an account: not its password (403). */
  WrongPassword: 'WRONG_PASSWORD',
  /** Deleting an account: an admin's is not deleted from its profile (409). */
  AdminAccount: 'ADMIN_ACCOUNT',
} as const;
export type AuthErrorCode = (typeof AuthErrorCode)[keyof typeof AuthErrorCode];

/**
 * A password that the password rule (`@hunktube/shared`'s password-rule.ts) refuses for being common or for holding
 * the account's names: 400 with errorCode WEAK_PASSWORD and the rule's message.
 */
export class WeakPasswordError extends InvalidInputError {
  override readonly code = AuthErrorCode.WeakPassword;
}
