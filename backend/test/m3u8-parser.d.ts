// m3u8-parser (video.js) ships no type declarations: what the HLS tests read of its manifests.
declare module 'm3u8-parser' {
  export interface VariantAttributes {
    BANDWIDTH?: number;
    'AVERAGE-BANDWIDTH'?: string;
    RESOLUTION?: { width: number; height: number };
    'FRAME-RATE'?: number;
    CODECS?: string;
    [name: string]: unknown;
  }

  export interface Segment {
    uri: string;
    duration: number;
    byterange?: { length: number; offset: number };
    map?: { uri: string };
    key?: { method: string; uri: string; iv?: Uint32Array };
  }

  export interface Manifest {
    version?: number;
    targetDuration?: number;
    endList?: boolean;
    independentSegments?: boolean;
    playlistType?: string;
    iFramesOnly?: boolean;
    segments: Segment[];
    playlists?: { uri: string; attributes: VariantAttributes }[];
  }

  export class Parser {
    manifest: Manifest;
    push(chunk: string): void;
    end(): void;
    on(event: 'warn' | 'info', listener: (event: { message: string }) => void): void;
  }
}
