import { describe, expect, it } from 'vitest';
import { embedCode } from './embed-code';

describe('embedCode', () => {
  it('frames the embeddable player of the video at 640×360, full screen and picture-in-picture allowed', () => {
    expect(embedCode({ origin: 'https://hunk.example', videoId: 7, title: 'Pool party' })).toBe(
      '<iframe src="https://hunk.example/embed/7" width="640" height="360" frameborder="0" ' +
        'allow="autoplay; fullscreen; picture-in-picture" allowfullscreen title="Pool party"></iframe>',
    );
  });

  it('escapes the title so that it cannot close the attribute or the tag', () => {
    const code = embedCode({ origin: 'https://hunk.example', videoId: 7, title: `"><script>alert('x')</script> & co` });
    expect(code).toContain('title="&quot;&gt;&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; co"');
    expect(code).not.toContain('<script>');
    // Parsed as HTML, it is one frame whose title is the video's title as it was.
    const parsed = new DOMParser().parseFromString(code, 'text/html').body;
    expect(parsed.children).toHaveLength(1);
    expect(parsed.querySelector('iframe')?.getAttribute('title')).toBe(`"><script>alert('x')</script> & co`);
  });
});
