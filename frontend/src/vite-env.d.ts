// Merged into vite/client's declaration.
interface ImportMetaEnv {
  /** Origin of the API when it is not the page's own (default: same origin). */
  readonly VITE_API_URL?: string;
}
