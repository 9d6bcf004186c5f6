// Merged into vite/client's declaration.
interface ImportMetaEnv {
  /** Origin of the API when it is not the page's own (default: same origin). */
  readonly VITE_API_URL?: string;
}

// hls.js ships no declarations for its light build, which has the same API minus features these streams do not use.
declare module 'hls.js/light' {
  export * from 'hls.js';
  export { default } from 'hls.js';
}
