/** Every `errorCode` the member's lists send. */
export const ListsErrorCode = {
  /** Following one more performer than FOLLOW_CAP (409). */
  FollowLimit: 'FOLLOW_LIMIT',
} as const;
export type ListsErrorCode = (typeof ListsErrorCode)[keyof typeof ListsErrorCode];
