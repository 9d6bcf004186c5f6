/*
 * Field limits that the API enforces and the web client's forms apply before sending: one number each, so the
 * two cannot drift apart. Lengths count characters as class-validator and PostgreSQL's varchar do.
 */

/** A video's title, and its per-brand titles (admin edit, upload, import). */
export const VIDEO_TITLE_MIN_LENGTH = 1;
export const VIDEO_TITLE_MAX_LENGTH = 300;

/** A category's or a performer's name (its id is the slug of the name, at most as long). */
export const TAXON_NAME_MAX_LENGTH = 100;

/** How many tags a video carries (free-form keywords; names as long as a category's, ids by the same rule). */
export const TAGS_PER_VIDEO_MAX = 30;

/** The catalogue search text (`q`). */
export const SEARCH_QUERY_MAX_LENGTH = 200;

/** A member's display name. */
export const DISPLAY_NAME_MIN_LENGTH = 2;
export const DISPLAY_NAME_MAX_LENGTH = 40;

/** A password, at registration and at admin creation (the rest of its rule: password-rule.ts). */
export const PASSWORD_MIN_LENGTH = 10;
export const PASSWORD_MAX_LENGTH = 128;

/** A content removal request. */
export const MAX_REMOVAL_URLS = 20;
export const REMOVAL_URL_MAX_LENGTH = 500;
export const REMOVAL_DETAILS_MAX_LENGTH = 4000;
export const REMOVAL_CONTACT_MIN_LENGTH = 3;
export const REMOVAL_CONTACT_MAX_LENGTH = 200;
