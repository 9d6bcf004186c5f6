/** A member's playlists under ['playlists', userId]; one playlist and its videos under ['playlist', id]. */
export const playlistKeys = {
  list: (userId: string) => ['playlists', userId] as const,
  detail: (id: number) => ['playlist', id] as const,
};
