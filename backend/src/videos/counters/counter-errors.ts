/** Every `errorCode` the counters send (ALREADY_LIKED is api-contract.md's). */
export const CountersErrorCode = {
  /** A member, or a guest network today, already likes the video (409). */
  AlreadyLiked: 'ALREADY_LIKED',
  /** Taking back a like the member did not give (409). */
  NotLiked: 'NOT_LIKED',
} as const;
export type CountersErrorCode = (typeof CountersErrorCode)[keyof typeof CountersErrorCode];
