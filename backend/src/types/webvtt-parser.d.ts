/** The W3C's WebVTT parser (w3c/webvtt.js), which ships no types: the parts the captions use. */
declare module 'webvtt-parser' {
  export interface WebVTTCue {
    id: string;
    startTime: number;
    endTime: number;
    text: string;
  }
  export class WebVTTParser {
    parse(input: string, mode?: 'subtitles' | 'chapters' | 'metadata'): { cues: WebVTTCue[]; errors: { message: string; line: number }[] };
  }
  export class WebVTTSerializer {
    serialize(cues: WebVTTCue[]): string;
  }
}
