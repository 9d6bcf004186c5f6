import { describe, expect, it } from 'vitest';
import { editPrecondition, editVersion, parseEditPrecondition, type EditableVideo } from './edit-version';

const video: EditableVideo & { views: number; likes: number } = {
  slug: 'pool-party',
  title: 'Pool Party',
  atg_title: '',
  jtg_title: 'Poolside 🌴',
  featured: 0,
  upload_date: '2024-06-01T12:00:00.000Z',
  thumbnail: '/thumbs/2024/06/pool-party/poster.jpg',
  url: '/2024/06/pool-party.mp4',
  categories: [{ id: 'outdoor' }, { id: 'amateur' }],
  performers: [{ id: 'sam' }],
  views: 120,
  likes: 7,
};

describe('editVersion', () => {
  it('is 16 hex digits, the same for the same fields', () => {
    expect(editVersion(video)).toMatch(/^[0-9a-f]{16}$/);
    expect(editVersion({ ...video })).toBe(editVersion(video));
  });

  it('ignores the counts and the order of categories and performers', () => {
    expect(editVersion({ ...video, categories: [{ id: 'amateur' }, { id: 'outdoor' }] })).toBe(editVersion(video));
    expect(editPrecondition({ ...video, views: 999 })).not.toBe(editPrecondition(video));
    expect(parseEditPrecondition(editPrecondition({ ...video, views: 999 }))?.version).toBe(editVersion(video));
  });

  it('reads no tags as it read a video before tags existed, and ignores their order', () => {
    expect(editVersion({ ...video, tags: [] })).toBe(editVersion(video));
    const tagged = { ...video, tags: [{ id: 'muscle' }, { id: 'beach' }] };
    expect(editVersion({ ...tagged, tags: [{ id: 'beach' }, { id: 'muscle' }] })).toBe(editVersion(tagged));
  });

  it('reads the same instant written two ways as one date', () => {
    expect(editVersion({ ...video, upload_date: '2024-06-01T14:00:00+02:00' })).toBe(editVersion(video));
  });

  it.each([
    ['slug', { slug: 'pool-party-2' }],
    ['a title', { atg_title: 'x' }],
    ['featured', { featured: 1 }],
    ['the date', { upload_date: '2024-06-02T12:00:00.000Z' }],
    ['the thumbnail', { thumbnail: '/thumbs/x.jpg' }],
    ['the url', { url: '/2024/06/other.mp4' }],
    ['a category', { categories: [{ id: 'outdoor' }] }],
    ['a performer', { performers: [] }],
    ['a tag', { tags: [{ id: 'muscle' }] }],
  ])('changes with %s', (_what, change) => {
    expect(editVersion({ ...video, ...change })).not.toBe(editVersion(video));
  });
});

describe('editPrecondition', () => {
  it('round-trips the version and the counts read', () => {
    expect(parseEditPrecondition(editPrecondition(video))).toEqual({ version: editVersion(video), views: 120, likes: 7 });
  });

  it.each([undefined, '', '*', 'W/"abc"', '"zz"', `"${'a'.repeat(16)}-1"`, `"${'a'.repeat(16)}--1-2"`])('does not read %j', (header) => {
    expect(parseEditPrecondition(header)).toBeNull();
  });
});
