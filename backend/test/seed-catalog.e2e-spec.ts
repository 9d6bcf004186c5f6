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

  it('writes videos with their taxonomy so that every listing sees them', async () => {
    const catalog = generateCatalog({ videos: 6000, seed: 3, slugTag: 'a' });
    const { videos } = await writeCatalog(t.db, catalog);
    expect(videos).toBe(6000);
    const list = await request(t.http).get('/api/videos?limit=1').expect(200);
    expect(list.body.total).toBe(6000);
    const expectedJoins = catalog.videos.reduce((n, v) => n + v.categoryIds.length, 0);
    const [{ n }] = await t.db.query('SELECT count(*)::int AS n FROM video_categories');
    expect(n).toBe(expectedJoins);
    const categories = await request(t.http).get('/api/categories').expect(200);
    expect(categories.body.data.reduce((s: number, c: { video_count: number }) => s + c.video_count, 0)).toBe(expectedJoins);
  });

  it('adds to an existing catalogue without touching it', async () => {
    const { videos } = await writeCatalog(t.db, generateCatalog({ videos: 10, seed: 3, slugTag: 'b' }));
    expect(videos).toBe(10);
    const again = await writeCatalog(t.db, generateCatalog({ videos: 10, seed: 3, slugTag: 'b' }));
    expect(again.videos).toBe(0);
    const list = await request(t.http).get('/api/videos?limit=1').expect(200);
    expect(list.body.total).toBe(6010);
  });
});
