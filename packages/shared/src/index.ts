// Rules that the API and the web client both apply. Pure functions and constants only: no imports from
// either workspace, nothing that needs Node or the DOM. The list of common passwords is an entry of its own
// (`@hunktube/shared/common-passwords`), so that the web client does not ship it.
export * from './ad-zones.js';
export * from './age-gate.js';
export * from './brand-title.js';
export * from './chapters.js';
export * from './continue-watching.js';
export * from './edit-version.js';
export * from './format-duration.js';
export * from './image-variants.js';
export * from './limits.js';
export * from './listing-filters.js';
export * from './password-rule.js';
export * from './playlist-title.js';
export * from './slugify.js';
export * from './start-time.js';
export * from './video-description.js';
