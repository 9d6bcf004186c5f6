import request from 'supertest';
import { SearchIndex } from '../src/videos/catalogue/search-index';
import { VideosRepository } from '../src/videos/videos.repository';
import { insertVideo } from './helpers/factories';
import { createTestApp, type TestApp } from './helpers/test-app';

/**
 * The listings' filters (issue #34, api-contract.md › Discovery): duration, quality and upload time, alone and
 * combined with each other, with the sorts, taxa and search, with exact totals; and 400 for every value the
 * contract does not name. Run against both catalogue readers: the database, and the in-memory index
 * (SEARCH_INDEX_MIN_VIDEOS=0). The catalogue cache is off, so every answer is the reader's own.
 */

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const ago = (ms: number) => new Date(Date.now() - ms);

type Listing = { total: number; data: { id: number }[] };

describe.each([
  ['the database', { SEARCH_INDEX_MIN_VIDEOS: '1000000' }],
  ['the in-memory index', { SEARCH_INDEX_MIN_VIDEOS: '0' }],
])('Listing filters, read from %s (e2e)', (_reader, env) => {
  let t: TestApp;
  const v: Record<string, number> = {};
  const list = async (query: string): Promise<Listing> => (await request(t.http).get(`/api/videos?${query}`).expect(200)).body as Listing;
  const ids = async (query: string) => (await list(query)).data.map((card) => card.id);

  beforeAll(async () => {
    t = await createTestApp({ CATALOGUE_CACHE: 'off', ...env });
    v.short = await insertVideo(t.db, { title: 'Hotel Short', duration: 300, rendition_height: 480, upload_date: ago(2 * HOUR), categories: ['Bears'], performers: ['Ace'], views: 50 });
    v.ten = await insertVideo(t.db, { title: 'Pool Ten', duration: 600, rendition_height: 720, upload_date: ago(6 * DAY), views: 10 });
    v.mid = await insertVideo(t.db, { title: 'Hotel Pool', duration: 900, rendition_height: 720, upload_date: ago(3 * DAY), categories: ['Bears'], views: 30 });
    v.edge = await insertVideo(t.db, { title: 'Gym Edge', duration: 1199, rendition_height: 1080, upload_date: ago(40 * DAY), performers: ['Ace'], views: 5 });
    v.long = await insertVideo(t.db, { title: 'Hotel Gym', duration: 1500, rendition_height: 1080, upload_date: ago(20 * DAY), performers: ['Ace'], views: 70 });
    v.uhd = await insertVideo(t.db, { title: 'Beach 4K', duration: 2400, rendition_height: 2160, upload_date: ago(200 * DAY), categories: ['Bears'], views: 20 });
    v.unknown = await insertVideo(t.db, { title: 'Hotel Archive', duration: null, upload_date: ago(800 * DAY), categories: ['Bears'], views: 90 });
    // Never listed, whatever it matches.
    v.processing = await insertVideo(t.db, { title: 'Hotel Soon', status: 'processing', duration: 900, rendition_height: 2160, upload_date: ago(HOUR) });
    await t.app.get(SearchIndex).load(); // the fixtures were written behind the API's back
  }, 120_000);
  afterAll(() => t?.close());

  it('filters by duration, inclusive bounds, leaving unknown durations out', async () => {
    expect(await ids('maxDuration=599')).toEqual([v.short]);
    expect(await ids('minDuration=600&maxDuration=1199')).toEqual([v.mid, v.ten, v.edge]);
    expect(await ids('minDuration=1200')).toEqual([v.long, v.uhd]);
    expect(await ids('minDuration=0')).not.toContain(v.unknown);
    expect(await ids('maxDuration=86400')).not.toContain(v.unknown);
    expect(await ids('minDuration=900&maxDuration=900')).toEqual([v.mid]);
  });

  it('filters by quality: the tallest rendition at least 720 lines (hd) or 2160 (4k)', async () => {
    expect(await ids('quality=hd')).toEqual([v.mid, v.ten, v.long, v.edge, v.uhd]);
    expect(await ids('quality=4k')).toEqual([v.uhd]);
  });

  it('filters by upload time: the last 24 hours, 7, 30 and 365 days', async () => {
    expect(await ids('uploaded=today')).toEqual([v.short]);
    expect(await ids('uploaded=week')).toEqual([v.short, v.mid, v.ten]);
    expect(await ids('uploaded=month')).toEqual([v.short, v.mid, v.ten, v.long]);
    expect(await ids('uploaded=year')).toEqual([v.short, v.mid, v.ten, v.long, v.edge, v.uhd]);
  });

  it('combines the filters with each other and with sort, category, performer and search, totals exact', async () => {
    expect(await list('quality=hd&uploaded=month&sort=most-viewed')).toMatchObject({ total: 3, data: [{ id: v.long }, { id: v.mid }, { id: v.ten }] });
    expect(await list('category=bears&minDuration=600')).toMatchObject({ total: 2, data: [{ id: v.mid }, { id: v.uhd }] });
    expect(await list('performer=ace&quality=hd&sort=longest')).toMatchObject({ total: 2, data: [{ id: v.long }, { id: v.edge }] });
    expect(await list('q=hotel&maxDuration=1199')).toMatchObject({ total: 2, data: [{ id: v.short }, { id: v.mid }] });
    expect(await list('q=hotel&category=bears&quality=hd&uploaded=week&minDuration=600&maxDuration=1199&sort=top-rated')).toMatchObject({ total: 1, data: [{ id: v.mid }] });
    expect(await list('quality=4k&uploaded=week')).toEqual({ data: [], page: 1, limit: 24, total: 0 });
  });

  it('pages a filtered listing with its exact total', async () => {
    const first = await list('quality=hd&limit=2');
    const third = await list('quality=hd&limit=2&page=3');
    expect(first).toMatchObject({ total: 5, data: [{ id: v.mid }, { id: v.ten }] });
    expect(third).toMatchObject({ total: 5, page: 3, data: [{ id: v.uhd }] });
  });

  it('lists a video under quality once the ingest has published it with its renditions', async () => {
    const id = await insertVideo(t.db, { title: 'Fresh Upload', status: 'processing', upload_date: ago(HOUR) });
    await t.app.get(VideosRepository).publish(id, `2026/11/fresh-${id}`, { durationSeconds: 700.4, width: 1920, height: 1080, renditionHeight: 1080 });
    expect(await ids('quality=hd&uploaded=today')).toEqual([id]);
    expect(await ids('minDuration=700&maxDuration=700')).toEqual([id]);
    // Deleted behind the API's back: the index is read again for the tests after this one.
    await t.db.query('DELETE FROM videos WHERE id = $1', [id]);
    await t.app.get(SearchIndex).load();
  });

  it('leaves out the videos of excluded categories and performers, with every other filter; unknown ids exclude nothing', async () => {
    expect(await list('exclude=category:bears')).toMatchObject({ total: 3, data: [{ id: v.ten }, { id: v.long }, { id: v.edge }] });
    expect(await ids('exclude=category:bears,performer:ace')).toEqual([v.ten]);
    expect(await list('exclude=performer:ace&quality=hd&sort=most-viewed')).toMatchObject({ total: 3, data: [{ id: v.mid }, { id: v.uhd }, { id: v.ten }] });
    expect(await ids('q=hotel&exclude=performer:ace')).toEqual([v.mid, v.unknown]);
    expect(await ids('category=bears&exclude=performer:ace')).toEqual([v.mid, v.uhd, v.unknown]);
    expect((await list('exclude=category:no-such-one,tag:leather')).total).toBe(7);
    expect((await list('exclude=')).total).toBe(7);
  });

  it.each([
    ['exclude=bears', /exclude must be a comma-separated list of category:ID, performer:ID or tag:ID/],
    ['exclude=colour:red', /exclude must be a comma-separated list/],
    ['exclude=category:Bears', /exclude must be a comma-separated list/],
    [`exclude=${Array.from({ length: 101 }, (_, i) => `category:c${i}`).join(',')}`, /at most 100/],
    ['minDuration=-1', /minDuration must not be less than 0/],
    ['maxDuration=86401', /maxDuration must not be greater than 86400/],
    ['minDuration=1.5', /minDuration must be a whole number of seconds/],
    ['maxDuration=ten', /maxDuration must be a whole number of seconds/],
    ['minDuration=1200&maxDuration=600', /maxDuration must not be below minDuration/],
    ['quality=8k', /quality must be one of: hd, 4k/],
    ['quality=HD', /quality must be one of: hd, 4k/],
    ['uploaded=decade', /uploaded must be one of: today, week, month, year/],
    ['uploaded=today&uploaded=week', /uploaded must be one of/],
    ['duration=short', /property duration should not exist/],
  ])('answers 400 in the error shape for %s', async (query, message) => {
    const res = await request(t.http).get(`/api/videos?${query}`).expect(400);
    expect(res.body).toEqual({ error: expect.stringMatching(message), statusCode: 400 });
  });
});
