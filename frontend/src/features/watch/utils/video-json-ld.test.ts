import { describe, expect, it } from 'vitest';
import { isoDuration, serializeJsonLd, videoJsonLd } from './video-json-ld';

describe('isoDuration', () => {
  it.each([
    [0, 'PT0S'],
    [5, 'PT5S'],
    [60, 'PT1M'],
    [754, 'PT12M34S'],
    [3600, 'PT1H'],
    [3725.9, 'PT1H2M5S'],
  ])('writes %d seconds as %s', (seconds, expected) => {
    expect(isoDuration(seconds)).toBe(expected);
  });
});

describe('videoJsonLd', () => {
  const video = { id: 7, upload_date: '2026-11-18T12:00:00.000Z', duration: 754 };
  const page = { title: 'Pool party', thumbnailUrl: 'https://img.example.com/p.jpg', pageUrl: 'https://x.test/video/7' };

  it('describes the video as a VideoObject that is not family friendly', () => {
    expect(videoJsonLd(video, page)).toEqual({
      '@context': 'https://schema.org',
      '@type': 'VideoObject',
      name: 'Pool party',
      description: 'Pool party',
      thumbnailUrl: ['https://img.example.com/p.jpg'],
      uploadDate: '2026-11-18T12:00:00.000Z',
      duration: 'PT12M34S',
      url: 'https://x.test/video/7',
      embedUrl: 'https://x.test/embed/7',
      isFamilyFriendly: false,
    });
  });

  it('describes it as the server does: title, performers, categories, and counts its views', () => {
    const data = videoJsonLd(
      { ...video, views: 12, performers: [{ id: 'rex', name: 'Rex' }], categories: [{ id: 'bears', name: 'Bears' }] },
      page,
    );
    expect(data.description).toBe('Pool party With Rex. Categories: Bears.');
    expect(data.interactionStatistic).toEqual({
      '@type': 'InteractionCounter',
      interactionType: { '@type': 'WatchAction' },
      userInteractionCount: 12,
    });
  });

  it('leaves out what is unknown', () => {
    const data = videoJsonLd({ ...video, duration: null }, { ...page, thumbnailUrl: null });
    expect(data).not.toHaveProperty('duration');
    expect(data).not.toHaveProperty('thumbnailUrl');
  });

  it('cannot be closed early by a title', () => {
    expect(serializeJsonLd({ name: '</script><script>alert(1)</script>' })).not.toContain('</script>');
  });
});
