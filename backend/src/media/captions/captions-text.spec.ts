import { CaptionsFileError, srtToVtt, toWebVtt } from './captions-text';

const vtt = (text: string) => toWebVtt(Buffer.from(text, 'utf8'));

describe('caption files', () => {
  it('turns SRT into WebVTT, cue for cue, whatever its line ends, BOM and id lines', () => {
    const srt = '\uFEFF1\r\n00:00:01,000 --> 00:00:04,250\r\nHello there\r\nsecond line\r\n\r\n2\r\n00:01:05,5 --> 01:00:07,000\r\n<i>Italic</i> <font color="red">red</font>\r\n';
    expect(vtt(srt)).toBe('WEBVTT\n\n00:00:01.000 --> 00:00:04.250\nHello there\nsecond line\n\n00:01:05.500 --> 01:00:07.000\n<i>Italic</i> red\n');
  });

  it('keeps a WebVTT file’s cues and their settings, dropping notes, styles, ids and tags WebVTT does not define', () => {
    const file = 'WEBVTT - a title\n\nNOTE a note\n\nSTYLE\n::cue { color: red }\n\nintro\n00:01.000 --> 00:04.000 align:start line:0\nHi <b>x</b> <script>alert(1)</script>\n\n00:05.000 --> 00:06.000\n<v Bob>Yo\n';
    expect(vtt(file)).toBe('WEBVTT\n\n00:00:01.000 --> 00:00:04.000 align:start line:0\nHi <b>x</b> alert(1)\n\n00:00:05.000 --> 00:00:06.000\n<v Bob>Yo</v>\n');
  });

  it.each([
    ['no cue at all', 'just some text\nwith lines'],
    ['an SRT with no timing', '1\nHello\n'],
    ['an empty WebVTT', 'WEBVTT\n'],
    ['cues that end before they start', 'WEBVTT\n\n00:05.000 --> 00:01.000\nBackwards\n'],
  ])('refuses %s', (_case, text) => {
    expect(() => vtt(text)).toThrow(new CaptionsFileError('The file holds no WebVTT or SRT captions'));
  });

  it('refuses bytes that are not UTF-8 text', () => {
    expect(() => toWebVtt(Buffer.from([0xff, 0xfe, 0x00, 0x41]))).toThrow('The captions must be UTF-8 text');
    expect(() => vtt('WEBVTT\n\n00:01.000 --> 00:02.000\na\u0000b\n')).toThrow('The captions must be UTF-8 text');
  });

  it('drops a line with an arrow inside a cue’s text, which WebVTT would read as a new cue', () => {
    expect(srtToVtt('1\n00:00:01,000 --> 00:00:02,000\nA\n00:00:03,000 --> 00:00:04,000\nB\n')).toBe('WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nA\nB\n');
  });
});
