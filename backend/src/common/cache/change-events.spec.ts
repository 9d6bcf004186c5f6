import { isChangeEvent, touches } from './change-events';

describe('change events', () => {
  it('reads every event of this version from another process', () => {
    for (const event of [
      { type: 'VideoChanged', ids: [1], fields: ['title'] },
      { type: 'CountsFlushed', deltas: [[1, 2, 0]] },
      { type: 'RankingRecomputed' },
      { type: 'TaxaChanged' },
      { type: 'CachesCleared', reason: 'asked' },
      { type: 'CachesCleared', reason: 'missed' },
    ]) {
      expect(isChangeEvent(event)).toBe(true);
    }
  });

  it("refuses what it cannot read (an older version's announcements during a rolling deploy), which the bus turns into CachesCleared", () => {
    for (const message of [
      { kind: 'videos', ids: [1] },
      { kind: 'all' },
      { type: 'VideoChanged', ids: [1] },
      { type: 'CountsFlushed' },
      { type: 'CachesCleared' },
      { type: 'SomethingNew' },
      null,
      'VideoChanged',
    ]) {
      expect(isChangeEvent(message)).toBe(false);
    }
  });

  it('tells which fields a video change wrote', () => {
    expect(touches({ fields: ['title', 'slug'] }, 'url', 'slug')).toBe(true);
    expect(touches({ fields: ['thumbnail'] }, 'url', 'status')).toBe(false);
  });
});
