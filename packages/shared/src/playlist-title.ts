/*
 * The playlist title rule, applied by the API and by the web client before it sends a title.
 *
 * A title is trimmed, then must be 4 to 40 characters (Unicode code points, as PostgreSQL's varchar(40)
 * counts them) of letters of any script (with their combining marks), digits, spaces and - _ ' . , ! ? & ( ).
 * A title over 40 characters gets the same message as a short one: one rule, one message, whatever the
 * client's input field lets through.
 */

export const PLAYLIST_TITLE_MIN_LENGTH = 4;
export const PLAYLIST_TITLE_MAX_LENGTH = 40;

export const PLAYLIST_TITLE_REQUIRED = 'You need to give your new playlist a title';
export const PLAYLIST_TITLE_INVALID = 'Title contains invalid characters or is too short (must be at least 4 characters)';

const ALLOWED = /^[\p{L}\p{M}\p{Nd} \-_'.,!?&()]+$/u;

/** The title as it is stored. */
export function normalizePlaylistTitle(title: string): string {
  return title.trim();
}

/** null when the title is valid, else the message to show. */
export function validatePlaylistTitle(title: string): string | null {
  const trimmed = normalizePlaylistTitle(title);
  if (trimmed.length === 0) return PLAYLIST_TITLE_REQUIRED;
  const length = Array.from(trimmed).length;
  if (length < PLAYLIST_TITLE_MIN_LENGTH || length > PLAYLIST_TITLE_MAX_LENGTH || !ALLOWED.test(trimmed)) {
    return PLAYLIST_TITLE_INVALID;
  }
  return null;
}
