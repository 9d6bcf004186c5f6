import { BAD_THUMBNAIL_EXTENSION, NO_THUMBNAIL_URL, NOT_IN_THUMBS, parseThumbnailPath } from './thumbnail-path';

describe('parseThumbnailPath', () => {
  it('takes a /thumbs/ path as it is', () => {
    expect(parseThumbnailPath('/thumbs/2024/06/pool-party/poster.jpg')).toEqual({
      ok: true,
      relative: '2024/06/pool-party/poster.jpg',
      url: '/thumbs/2024/06/pool-party/poster.jpg',
    });
  });

  it('takes the path of an http(s) URL, without its query or fragment', () => {
    expect(parseThumbnailPath(' https://img.example.com/thumbs/a/poster.webp?v=3#x ')).toMatchObject({ ok: true, relative: 'a/poster.webp' });
    expect(parseThumbnailPath('http://localhost:3000/thumbs/a/b.PNG')).toMatchObject({ ok: true, relative: 'a/b.PNG', url: '/thumbs/a/b.PNG' });
    expect(parseThumbnailPath('//img.example.com/thumbs/a/b.avif')).toMatchObject({ ok: true, relative: 'a/b.avif' });
    expect(parseThumbnailPath('/thumbs/a/b.jpeg?cache=1')).toMatchObject({ ok: true, relative: 'a/b.jpeg' });
  });

  it('decodes percent-encoding as the server serving the file does, and answers the encoded URL', () => {
    expect(parseThumbnailPath('/thumbs/a%20b/c%2Bd.jpg')).toEqual({ ok: true, relative: 'a b/c+d.jpg', url: '/thumbs/a%20b/c+d.jpg' });
    expect(parseThumbnailPath('/thumbs/a/b%23c.jpg')).toEqual({ ok: true, relative: 'a/b#c.jpg', url: '/thumbs/a/b%23c.jpg' });
  });

  it('asks for a URL when there is none', () => {
    expect(parseThumbnailPath('')).toEqual({ ok: false, error: NO_THUMBNAIL_URL });
    expect(parseThumbnailPath('   ')).toEqual({ ok: false, error: NO_THUMBNAIL_URL });
  });

  it.each([
    '/etc/passwd',
    '/etc/x.jpg',
    '/tmp/media/thumbs/x.jpg',
    'thumbs/x.jpg',
    '/thumbs/../../etc/x.jpg',
    '/thumbs/a/../../x.jpg',
    '/thumbs/%2e%2e/x.jpg',
    '/thumbs/%2E%2E/%2e%2e/x.jpg',
    '/thumbs/a/%2e%2e%2f%2e%2e%2fx.jpg',
    '/thumbs/..%5cx.jpg',
    '/thumbs/a\\..\\x.jpg',
    '/thumbs/./x.jpg',
    '/thumbs//etc/x.jpg',
    '/thumbs/a.jpg/',
    '/thumbs/a%00.jpg',
    '/thumbs/a%0a.jpg',
    '/thumbs/%zz.jpg',
    'https://img.example.com/thumbs/../etc/x.jpg',
    'https://img.example.com/etc/x.jpg',
    'file:///thumbs/x.jpg',
    'javascript:alert(1)//thumbs/x.jpg',
    `/thumbs/${'a'.repeat(256)}.jpg`,
  ])('refuses %j as outside the store', (uploadPath) => {
    expect(parseThumbnailPath(uploadPath)).toEqual({ ok: false, error: NOT_IN_THUMBS });
  });

  it.each(['/thumbs/a/poster', '/thumbs/a/poster.gif', '/thumbs/a/poster.jpg.html', '/thumbs/a/.jpg', '/thumbs/a/poster.svg'])(
    'refuses %j for its extension',
    (uploadPath) => {
      expect(parseThumbnailPath(uploadPath)).toEqual({ ok: false, error: BAD_THUMBNAIL_EXTENSION });
    },
  );
});
