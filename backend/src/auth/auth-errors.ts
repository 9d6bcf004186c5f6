import { WEAK_PASSWORD } from '@hunktube/shared';
import { InvalidInputError } from '../common/errors/domain-errors';

/**
 * A password that the password rule (`@hunktube/shared`'s password-rule.ts) refuses for being common or for holding
 * the account's names: 400 with errorCode WEAK_PASSWORD and the rule's message.
 */
export class WeakPasswordError extends InvalidInputError {
  override readonly code = WEAK_PASSWORD;
}
