import { posterPathOf, previewPathOf, stemOf, storyboardPathOf, streamPathOf } from './media-paths';

describe('media paths', () => {
  it.each([
    ['/2024/06/pool-party.mp4', '2024/06/pool-party'],
    ['2024/06/pool-party.mp4', '2024/06/pool-party'],
    ['/clips/no-extension', 'clips/no-extension'],
    ['/a.b/c.d/file.name.mov', 'a.b/c.d/file.name'],
    ['https://cdn.example.com/2023/01/x.mp4?sig=1', '2023/01/x'],
    ['/dir/.hidden', 'dir/.hidden'],
  ])('the stem of %j is %j', (url, stem) => {
    expect(stemOf(url)).toBe(stem);
  });

  it('derives the stream and image paths from the stem', () => {
    const url = '/2024/06/pool-party.mp4';
    expect(streamPathOf(url)).toBe('/videos/2024/06/pool-party/index.m3u8');
    expect(posterPathOf(url)).toBe('/thumbs/2024/06/pool-party/poster.jpg');
    expect(storyboardPathOf(url)).toBe('/thumbs/2024/06/pool-party/storyboard.vtt');
    expect(previewPathOf(url)).toBe('/thumbs/2024/06/pool-party/preview.mp4');
  });
});
