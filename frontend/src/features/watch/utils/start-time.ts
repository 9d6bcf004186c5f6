// Its own module, importing only the shared rule, because a watch page's first script reads it before the app
// (src/early.ts). The server reads `?t=` with the same rule, to preload the segment the player starts with.
export { parseStartTime } from '@hunktube/shared';
