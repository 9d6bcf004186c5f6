import { describe, expect, it } from 'vitest';
import { bootstrapHtml, documentHtml, earlyTags, headHtml, htmlText, RTA_LABEL, scriptJson, shellTemplate, shorten } from './document';

describe("a page's document", () => {
  it('escapes text and attribute values', () => {
    expect(htmlText(`</title><b a="x" b='y'>&amp;`)).toBe('&lt;/title&gt;&lt;b a=&quot;x&quot; b=&#39;y&#39;&gt;&amp;amp;');
  });

  it('writes JSON that cannot close its script element and parses back exactly', () => {
    const value = { name: '</script><!-- <script> & \u2028\u2029 "q"' };
    const json = scriptJson(value);
    expect(json).not.toMatch(/[<>&\u2028\u2029]/);
    expect(JSON.parse(json)).toEqual(value);
    expect(bootstrapHtml({ user: null })).toBe('<script type="application/json" id="bootstrap">{"user":null}</script>');
  });

  it("marks every element that describes the page as the server's and derives the Twitter card from Open Graph", () => {
    const html = headHtml({
      title: 'T', description: 'D', canonical: 'https://x.example/a?b=1&c=2', noindex: true,
      openGraph: [['og:title', 'T']], jsonLd: [{ a: 1 }],
      image: { url: 'https://x.example/p.jpg', alt: 'The "poster"', width: 1280, height: 720 },
    });
    const elements = html.split('\n').map((line) => line.trim());
    expect(elements.every((e) => /^<\w+ data-server-head[ >]/.test(e))).toBe(true);
    expect(elements).toContain('<link data-server-head rel="canonical" href="https://x.example/a?b=1&amp;c=2">');
    expect(elements).toContain('<meta data-server-head name="twitter:card" content="summary_large_image">');
    // The picture's properties follow og:image, as Open Graph's structured properties must.
    const og = elements.filter((e) => e.includes('property="og:image'));
    expect(og).toEqual([
      '<meta data-server-head property="og:image" content="https://x.example/p.jpg">',
      '<meta data-server-head property="og:image:alt" content="The &quot;poster&quot;">',
      '<meta data-server-head property="og:image:width" content="1280">',
      '<meta data-server-head property="og:image:height" content="720">',
    ]);
    expect(elements).toContain('<meta data-server-head name="twitter:image" content="https://x.example/p.jpg">');
    expect(elements).toContain('<meta data-server-head name="twitter:image:alt" content="The &quot;poster&quot;">');
    expect(elements).toContain('<meta data-server-head name="robots" content="noindex">');
  });

  it("names the drawn route's style sheets and preloads the page's stream, escaped", () => {
    const html = headHtml({ title: 'T' }, { styles: ['/assets/watch-"b.css'], streams: ['/s/tok,1/videos/a&b/index.m3u8'], early: '' });
    const elements = html.split('\n').map((line) => line.trim());
    expect(elements).toContain('<link rel="stylesheet" crossorigin href="/assets/watch-&quot;b.css">');
    expect(elements).toContain('<link data-server-head rel="preload" as="fetch" crossorigin href="/s/tok,1/videos/a&amp;b/index.m3u8">');
  });

  it("puts a watch page's first script right after its poster and stream, hls.js first among its imports", () => {
    const early = { indexHtml: '', script: '/assets/early.js', imports: { stream: ['/assets/hls.js', '/assets/load.js'], still: ['/assets/load.js'] } };
    const tags = earlyTags(early, ['/assets/watch.js', '/assets/a&b.js'], true);
    expect(tags.split('\n').map((line) => line.trim())).toEqual([
      '<script type="module" async crossorigin src="/assets/early.js" data-route-scripts="/assets/watch.js /assets/a&amp;b.js"></script>',
      '<link rel="modulepreload" crossorigin href="/assets/hls.js">',
      '<link rel="modulepreload" crossorigin href="/assets/load.js">',
    ]);
    // A page without a stream (a listing) does not fetch hls.js.
    expect(earlyTags(early, [], false)).not.toContain('hls.js');
    const html = headHtml({ title: 'T', preloadImage: '/p.webp' }, { styles: [], streams: ['/s/tok,1/videos/a/index.m3u8'], early: tags });
    const order = ['/p.webp', 'index.m3u8', '/assets/early.js', '/assets/hls.js'].map((part) => html.indexOf(part));
    expect(order.every((at) => at >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
  });

  it('puts a drawn body in #root, and leaves the shell as it is without one', () => {
    const shell = shellTemplate('<head><title>Videos</title></head><body><div id="root"></div><p>$& $1</p></body>');
    const page = documentHtml(shell, headHtml({ title: 'T' }), {}, '<main>$& body</main>');
    expect(page).toContain('<div id="root"><main>$& body</main></div><p>$& $1</p>');
    expect(documentHtml(shell, headHtml({ title: 'T' }), {})).toContain('<div id="root"></div>');
  });

  it('cuts the shell where its title is, and adds the RTA label only to a shell without one', () => {
    const built = `<head><meta name="rating" content="${RTA_LABEL}"><title>Videos</title><script src="/a.js"></script></head>`;
    expect(shellTemplate(built)).toEqual({ before: `<head><meta name="rating" content="${RTA_LABEL}">`, after: '<script src="/a.js"></script></head>' });
    expect(shellTemplate('<!doctype html><div id="root"></div>')).toEqual({
      before: `<!doctype html><meta name="rating" content="${RTA_LABEL}">`,
      after: '<div id="root"></div>',
    });
  });

  it('cuts each shell once, though pages alternate between a build’s two (drawn pages and heads alone)', () => {
    const app = '<head><title>App</title></head><body><div id="root"></div></body>';
    const early = '<head><title>App</title><style>p{}</style></head><body><div id="root"></div></body>';
    const [appCut, earlyCut] = [shellTemplate(app), shellTemplate(early)];
    expect(shellTemplate(app)).toBe(appCut);
    expect(shellTemplate(early)).toBe(earlyCut);
    expect(earlyCut.after).toContain('<style>p{}</style>');
  });

  it('shortens long descriptions without splitting a surrogate pair', () => {
    expect(shorten('abcdef', 10)).toBe('abcdef');
    expect(shorten('abcdefghijkl', 6)).toBe('abcde…');
    expect(shorten('abcd\uD83D\uDE00fgh', 6)).toBe('abcd…');
  });
});
