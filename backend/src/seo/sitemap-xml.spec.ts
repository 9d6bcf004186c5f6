import { XMLParser, XMLValidator } from 'fast-xml-parser';
import {
  describeVideo, MAX_DESCRIPTION, MAX_TAGS, MAX_TITLE, robotsTxt, sitemapIndexXml, URLSET_CLOSE, URLSET_OPEN, videoUrlXml, xmlText,
} from './sitemap-xml';

const parser = new XMLParser({ parseTagValue: false, trimValues: false, isArray: (name) => name === 'video:tag' });
const entry = (fields: Partial<Parameters<typeof videoUrlXml>[0]> = {}) => ({
  loc: 'https://x.example/video/1',
  thumbnailLoc: 'https://x.example/thumbs/a/poster.jpg',
  title: 'Title',
  description: 'Description',
  playerLoc: 'https://x.example/embed/1',
  duration: 90,
  viewCount: 5,
  publicationDate: new Date('2025-01-02T03:04:05Z'),
  tags: [],
  ...fields,
});
const video = (xml: string) => {
  const doc = `${URLSET_OPEN}${xml}${URLSET_CLOSE}`;
  expect(XMLValidator.validate(doc)).toBe(true);
  return parser.parse(doc).urlset.url;
};

describe('sitemap XML', () => {
  it('escapes markup and leaves out what XML 1.0 cannot carry, lone surrogates included', () => {
    expect(xmlText('a & b < c > d " e \' f ]]>')).toBe('a &amp; b &lt; c &gt; d &quot; e &apos; f ]]&gt;');
    expect(xmlText('x\u0000\u0001\u0008\u000B\u000C\u000E\u001F\uFFFE\uFFFFy')).toBe('xy');
    expect(xmlText('tab\tnew\nline\r')).toBe('tab\tnew\nline\r');
    expect(xmlText('lone \uD800 and \uDC00 pair \uD83D\uDE00')).toBe('lone  and  pair \uD83D\uDE00');
  });

  it('gives a well-formed entry for any title, with the fields in the order of the schema', () => {
    const title = '\u0000<![CDATA[ ]]> & "\uD800 <b>';
    const [url] = [video(videoUrlXml(entry({ title, tags: ['A & B', 'a & b', '<c>'] })))];
    expect(url['video:video']['video:title']).toBe('<![CDATA[ ]]> & " <b>');
    expect(url['video:video']['video:tag']).toEqual(['A & B', '<c>']);
    expect(Object.keys(url['video:video'])).toEqual([
      'video:thumbnail_loc', 'video:title', 'video:description', 'video:player_loc', 'video:duration', 'video:view_count',
      'video:publication_date', 'video:tag', 'video:family_friendly',
    ]);
  });

  it("keeps within Google's limits: tags, title and description lengths, durations", () => {
    const tags = Array.from({ length: 40 }, (_, i) => `tag ${i}`);
    const title = `${'t'.repeat(MAX_TITLE - 1)}\uD83D\uDE00`;
    const url = video(videoUrlXml(entry({ tags, title, description: `${'d'.repeat(MAX_DESCRIPTION - 1)}\uD83D\uDE00`, duration: 28_801 })));
    expect(url['video:video']['video:title']).toBe('t'.repeat(MAX_TITLE - 1));
    expect(url['video:video']['video:tag']).toHaveLength(MAX_TAGS);
    expect(url['video:video']['video:description']).toBe('d'.repeat(MAX_DESCRIPTION - 1));
    expect(url['video:video']['video:duration']).toBeUndefined();
  });

  it('gives only the page of a video without an image', () => {
    expect(video(videoUrlXml(entry({ thumbnailLoc: null })))).toEqual({ loc: 'https://x.example/video/1' });
  });

  it('describes a video by its title, performers and categories', () => {
    expect(describeVideo('T', ['P1', 'P2'], ['C'])).toBe('T With P1, P2. Categories: C.');
    expect(describeVideo('T', [], [])).toBe('T');
  });

  it('escapes the index and names the sitemap in robots.txt', () => {
    expect(XMLValidator.validate(sitemapIndexXml(['https://x.example/a?b=1&c=2']))).toBe(true);
    expect(robotsTxt('https://x.example')).toContain('\nSitemap: https://x.example/sitemap.xml\n');
  });
});
