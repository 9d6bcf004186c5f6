import { describe, expect, it } from 'vitest';
import { makeWatchVideo } from '@/testing/data';
import { applyBulkEdit, runPool } from './bulk-edit-videos';

const gym = { id: 'gym', name: 'Gym' };

describe('runPool', () => {
  it('runs every item with at most the given number at once, keeping the order of the outcome', async () => {
    let running = 0;
    let most = 0;
    const finished: number[] = [];
    const { done, failed } = await runPool(
      [1, 2, 3, 4, 5, 6, 7],
      3,
      async (n) => {
        running += 1;
        most = Math.max(most, running);
        await new Promise((resolve) => setTimeout(resolve, 8 - n));
        running -= 1;
        if (n % 3 === 0) throw new Error(`no ${n}`);
      },
      (count) => finished.push(count),
    );

    expect(most).toBe(3);
    expect(done).toEqual([1, 2, 4, 5, 7]);
    expect(failed.map(({ item, error }) => [item, (error as Error).message])).toEqual([
      [3, 'no 3'],
      [6, 'no 6'],
    ]);
    expect(finished).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it('settles at once for no items', async () => {
    expect(await runPool([], 4, () => Promise.reject(new Error('never')))).toEqual({ done: [], failed: [] });
  });
});

describe('applyBulkEdit', () => {
  const video = makeWatchVideo({ id: 5, featured: 0, categories: [gym] });

  it('changes only the field the edit is about', () => {
    expect(applyBulkEdit(video, { type: 'set-featured', featured: 2 })).toEqual({ ...video, featured: 2 });
    expect(applyBulkEdit(video, { type: 'add-taxon', kind: 'performers', taxon: { id: 'alex', name: 'Alex' } })).toEqual({
      ...video,
      performers: [{ id: 'alex', name: 'Alex' }],
    });
    expect(applyBulkEdit(video, { type: 'remove-taxon', kind: 'categories', id: 'gym' })).toEqual({ ...video, categories: [] });
  });

  it('adds a tag by its name, with the id the slug rule gives it, and removes one by its id', () => {
    const tagged = { ...video, tags: [{ id: 'muscle', name: 'Muscle' }] };
    expect(applyBulkEdit(tagged, { type: 'add-tag', name: ' Sunset Glow ' })).toEqual({
      ...tagged,
      tags: [{ id: 'muscle', name: 'Muscle' }, { id: 'sunset-glow', name: 'Sunset Glow' }],
    });
    expect(applyBulkEdit(tagged, { type: 'remove-tag', id: 'muscle' })).toEqual({ ...tagged, tags: [] });
    // Already there by the slug rule, or not there to remove: nothing to write.
    expect(applyBulkEdit(tagged, { type: 'add-tag', name: 'MUSCLE!' })).toBeNull();
    expect(applyBulkEdit(tagged, { type: 'remove-tag', id: 'beach' })).toBeNull();
  });

  it('says there is nothing to write when the video already is that way', () => {
    expect(applyBulkEdit(video, { type: 'set-featured', featured: 0 })).toBeNull();
    expect(applyBulkEdit(video, { type: 'add-taxon', kind: 'categories', taxon: gym })).toBeNull();
    expect(applyBulkEdit(video, { type: 'remove-taxon', kind: 'performers', id: 'alex' })).toBeNull();
  });
});
