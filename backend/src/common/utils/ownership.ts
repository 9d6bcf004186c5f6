import { ForbiddenError } from '../errors/domain-errors';

export const NOT_YOUR_ACCOUNT = 'You can only change your own lists';

/**
 * The user always comes from the token. Bodies of the specification's client also carry `userId`,
 * `user_id` or `playlistUserId`: each one sent must name the caller, else 403 and nothing changes.
 */
export function assertOwnUser(callerId: string, ...claimed: unknown[]): void {
  for (const id of claimed) {
    if (id !== undefined && id !== null && id !== callerId) throw new ForbiddenError(NOT_YOUR_ACCOUNT);
  }
}
