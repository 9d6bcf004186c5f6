/** Every `errorCode` the playlists send (api-contract.md names 23505, PostgreSQL's unique violation). */
export const PlaylistsErrorCode = {
  /** The member already has a playlist of that title (whatever its case), or the video is already in the playlist (409). */
  AlreadyExists: '23505',
} as const;
export type PlaylistsErrorCode = (typeof PlaylistsErrorCode)[keyof typeof PlaylistsErrorCode];
