/**
 * A member's likes, which the counters record as they count a like (or take one back): the rows of `likes`, which
 * the lists module owns (a member's list of liked videos). The counters depend on this port, not on the lists,
 * so that the catalogue stays below the members' lists; the lists module provides it (ListsStoreModule).
 */
export interface MemberLikes {
  /** Records the member's like; false when they already like the video. */
  add(userId: string, videoId: number): Promise<boolean>;
  /** Takes the member's like back; false when there was none. */
  remove(userId: string, videoId: number): Promise<boolean>;
}

export const MEMBER_LIKES = Symbol('MemberLikes');
