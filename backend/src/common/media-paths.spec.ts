import { posterPathOf, previewPathOf, redactPaths, stemOf, storyboardPathOf, streamPathOf } from './media-paths';

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

  it('keeps server paths out of error texts shown to admins', () => {
    expect(redactPaths('ffmpeg failed (exit 1): /srv/media/sources/2024/06/x.mp4: Invalid data found', '/srv/media')).toBe(
      'ffmpeg failed (exit 1): sources/2024/06/x.mp4: Invalid data found',
    );
    expect(redactPaths('ffmpeg could not run: spawn /opt/app/node_modules/@ffmpeg-installer/linux-x64/ffmpeg ENOENT', '/srv/media')).toBe(
      'ffmpeg could not run: spawn ffmpeg ENOENT',
    );
    expect(redactPaths("ENOENT: no such file or directory, open '/tmp/x/y.mp4'", '/srv/media')).toBe("ENOENT: no such file or directory, open 'y.mp4'");
    expect(redactPaths('Not a playable video: exit 1', '/srv/media')).toBe('Not a playable video: exit 1');
  });
});
