import request from 'supertest';
import { generateCatalog } from '../src/database/seeds/catalog-generator';
import { writeCatalog } from '../src/database/seeds/catalog-writer';
import { createTestApp, TestApp } from './helpers/test-app';

describe('Catalogue seeding (e2e)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it("writes videos with their taxonomy, recent views and trending scores so that every listing sees them", async () => {
    const catalog = generateCatalog({ videos: 6000, seed: 3, slugTag: 'a' });
    const { videos } = await writeCatalog(t.db, catalog);
    expect(videos).toBe(6000);
    const list = await request(t.http).get('/api/videos?limit=1').expect(200);
    expect(list.body.total).toBe(6000);
    const expectedJoins = catalog.videos.reduce((n, v) => n + v.categoryIds.length, 0);
    const [{ n }] = await t.db.query('SELECT count(*)::int AS n FROM video_categories');
    expect(n).toBe(expectedJoins);
    const watched = catalog.videos.filter((v) => v.recentDailyViews.some((d) => d > 0)).length;
    const [{ scored }] = await t.db.query('SELECT count(*)::int AS scored FROM videos WHERE trending_score > 0');
    expect(scored).toBe(watched);
    const trending = await request(t.http).get('/api/videos?sort=trending&limit=5').expect(200);
    const scores = await t.db.query('SELECT trending_score AS s FROM videos WHERE id = ANY($1) ORDER BY s DESC', [trending.body.data.map((v: { id: number }) => v.id)]);
    const [{ top }] = await t.db.query('SELECT max(trending_score) AS top FROM videos');
    expect(scores[0].s).toBe(top);
    const categories = await request(t.http).get('/api/categories').expect(200);
    expect(categories.body.data.reduce((s: number, c: { video_count: number }) => s + c.video_count, 0)).toBe(expectedJoins);
  });

  it('adds to an existing catalogue without touching it', async () => {
    const { videos } = await writeCatalog(t.db, generateCatalog({ videos: 10, seed: 3, slugTag: 'b' }));
    expect(videos).toBe(10);
    const again = await writeCatalog(t.db, generateCatalog({ videos: 10, seed: 3, slugTag: 'b' }));
    expect(again.videos).toBe(0);
    await t.clearCaches();
    const list = await request(t.http).get('/api/videos?limit=1').expect(200);
    expect(list.body.total).toBe(6010);
  });
});
