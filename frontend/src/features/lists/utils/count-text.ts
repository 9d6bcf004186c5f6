/** A count with its noun: "1 video", "3 videos", "0 playlists", "2 performers". */
export const countText = (count: number, noun: 'video' | 'playlist' | 'performer') => `${count} ${noun}${count === 1 ? '' : 's'}`;
