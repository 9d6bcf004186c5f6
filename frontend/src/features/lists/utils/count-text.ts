/** A count with its noun: "1 video", "3 videos", "0 playlists". */
export const countText = (count: number, noun: 'video' | 'playlist') => `${count} ${noun}${count === 1 ? '' : 's'}`;
