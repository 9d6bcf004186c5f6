// The binary packages ship no type declarations; each exports where its executable is.
declare module 'ffprobe-static' {
  export const path: string;
}
