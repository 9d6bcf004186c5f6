import { describe, expect, it } from 'vitest';
import { brandTitle, mediaUrl, resolveImageUrl } from './site';

describe('brandTitle', () => {
  const video = { title: 'Main title', atg_title: 'ATG title', jtg_title: 'JTG title' };

  it('shows the main title on the default brand', () => {
    expect(brandTitle(video, 'default')).toBe('Main title');
  });

  it("shows the brand's own title when it has one", () => {
    expect(brandTitle(video, 'atg')).toBe('ATG title');
    expect(brandTitle(video, 'jtg')).toBe('JTG title');
  });

  it('falls back to the main title when the brand title is empty, blank or null', () => {
    expect(brandTitle({ ...video, atg_title: '' }, 'atg')).toBe('Main title');
    expect(brandTitle({ ...video, jtg_title: '   ' }, 'jtg')).toBe('Main title');
    expect(brandTitle({ ...video, jtg_title: null }, 'jtg')).toBe('Main title');
  });

  it('shows the main title while the brand is not known yet', () => {
    expect(brandTitle(video, undefined)).toBe('Main title');
  });
});

describe('resolveImageUrl', () => {
  it('joins a path with the image host, whatever the slashes', () => {
    expect(resolveImageUrl('/thumbs/a/poster.jpg', 'https://img.example.com')).toBe(
      'https://img.example.com/thumbs/a/poster.jpg',
    );
    expect(resolveImageUrl('thumbs/a/poster.jpg', 'https://img.example.com/')).toBe(
      'https://img.example.com/thumbs/a/poster.jpg',
    );
  });

  it('keeps a path relative to this origin when there is no image host', () => {
    expect(resolveImageUrl('/thumbs/a/poster.jpg', '')).toBe('/thumbs/a/poster.jpg');
  });

  it('keeps absolute and protocol-relative URLs as they are', () => {
    expect(resolveImageUrl('https://cdn.example.net/p.jpg', 'https://img.example.com')).toBe(
      'https://cdn.example.net/p.jpg',
    );
    expect(resolveImageUrl('//cdn.example.net/p.jpg', 'https://img.example.com')).toBe('//cdn.example.net/p.jpg');
  });

  it('gives null for an empty thumbnail', () => {
    expect(resolveImageUrl('', 'https://img.example.com')).toBeNull();
    expect(resolveImageUrl('  ', 'https://img.example.com')).toBeNull();
    expect(resolveImageUrl(null, 'https://img.example.com')).toBeNull();
  });
});

describe('mediaUrl', () => {
  const hosts = { '1': 'https://media1.example.com/', '2': 'https://media2.example.com', default: 'https://media.example.com' };
  const signed = '/s/abc,123/videos/2024/06/pool-party/index.m3u8';

  it("joins a signed path with the host of the video's cdn", () => {
    expect(mediaUrl(signed, 1, hosts)).toBe(`https://media1.example.com${signed}`);
    expect(mediaUrl(signed, 2, hosts)).toBe(`https://media2.example.com${signed}`);
  });

  it('uses the default host for any other cdn', () => {
    expect(mediaUrl(signed, 7, hosts)).toBe(`https://media.example.com${signed}`);
    expect(mediaUrl(signed, null, hosts)).toBe(`https://media.example.com${signed}`);
  });

  it('keeps the path relative to this site when the host is empty', () => {
    expect(mediaUrl(signed, 1, { '1': '', default: '' })).toBe(signed);
  });
});
