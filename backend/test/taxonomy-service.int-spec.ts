import type { DataSource } from 'typeorm';
import { ConflictError, InvalidInputError, NotFoundError } from '../src/common/errors/domain-errors';
import { TaxonomyService } from '../src/taxonomy/taxonomy.service';
import { CatalogueCache } from '../src/videos/catalogue-cache';
import { insertVideo } from './helpers/factories';
import { catalogueOn, refusal } from './helpers/services';
import { createTestDatabase } from './helpers/test-app';

/**
 * TaxonomyService built by hand on the real database (PGlite and, with TEST_DATABASE_URL, the server) with the real
 * catalogue cache and change bus: the category and performer lists with their counts, how long they are kept, and
 * the admins' creation and renaming.
 */
describe('TaxonomyService (integration)', () => {
  let db: DataSource;
  let close: () => Promise<void>;
  let cache: CatalogueCache;
  let taxonomy: TaxonomyService;

  beforeAll(async () => {
    ({ db, close } = await createTestDatabase());
    const parts = catalogueOn(db);
    ({ cache } = parts);
    taxonomy = new TaxonomyService(parts.taxa, cache, parts.catalogue, parts.bus);
  });
  afterAll(async () => {
    cache?.onModuleDestroy();
    await close?.();
  });


  describe.each([
    ['categories', 'category', 'Category'],
    ['performers', 'performer', 'Performer'],
  ] as const)('on %s', (kind, lower, title) => {
    const names = async () => (await taxonomy.list(kind)).map((t) => t.name);

    beforeAll(async () => {
      const carry = (names: string[]) => (kind === 'categories' ? { categories: names } : { performers: names });
      await insertVideo(db, carry(['Bears', 'outdoor']));
      await insertVideo(db, carry(['Bears']));
      await insertVideo(db, { ...carry(['Bears', 'Zed']), status: 'processing' });
      await db.query(`INSERT INTO ${kind} (id, name) VALUES ('alpha', 'alpha')`);
    });

    it('lists every one by name whatever its case, with its number of published videos', async () => {
      expect(await taxonomy.list(kind)).toEqual([
        { id: 'alpha', name: 'alpha', video_count: 0 },
        { id: 'bears', name: 'Bears', video_count: 2 },
        { id: 'outdoor', name: 'outdoor', video_count: 1 },
        { id: 'zed', name: 'Zed', video_count: 0 },
      ]);
    });

    it('keeps the list while nothing is announced, and answers the new one at once after a create or a rename', async () => {
      await taxonomy.list(kind);
      // Written behind the catalogue's back: no change event, so the kept list stands.
      await insertVideo(db, kind === 'categories' ? { categories: ['Zed'] } : { performers: ['Zed'] });
      expect((await taxonomy.list(kind)).find((t) => t.id === 'zed')?.video_count).toBe(0);
      await taxonomy.create(kind, 'Kept Fresh');
      const afterCreate = await taxonomy.list(kind);
      expect(afterCreate.find((t) => t.id === 'zed')?.video_count).toBe(1);
      expect(afterCreate.map((t) => t.id)).toContain('kept-fresh');
      await taxonomy.rename(kind, 'kept-fresh', 'Kept Fresher');
      expect(await names()).toContain('Kept Fresher');
    });

    describe('create', () => {
      it('derives the id from the trimmed name, accents stripped, and answers both', async () => {
        expect(await taxonomy.create(kind, '  Locker Room! ')).toEqual({ id: 'locker-room', name: 'Locker Room!' });
        expect(await taxonomy.create(kind, 'Café Crème')).toEqual({ id: 'cafe-creme', name: 'Café Crème' });
        const [row] = await db.query<{ name: string }[]>(`SELECT name FROM ${kind} WHERE id = 'cafe-creme'`);
        expect(row.name).toBe('Café Crème');
      });

      it('refuses a name whose id exists, however it is spelt, keeping the first name', async () => {
        await taxonomy.create(kind, 'Pool Side');
        for (const name of ['Pool Side', 'POOL-SIDE', ' pool  side ']) {
          const error = await refusal(taxonomy.create(kind, name));
          expect(error).toBeInstanceOf(ConflictError);
          expect(error.message).toBe(`${title} already exists: pool-side`);
        }
        expect((await taxonomy.list(kind)).filter((t) => t.id === 'pool-side')).toEqual([{ id: 'pool-side', name: 'Pool Side', video_count: 0 }]);
      });

      it.each(['!!!', '   ', '—'])('refuses %j, a name with no letter or digit', async (name) => {
        const error = await refusal(taxonomy.create(kind, name));
        expect(error).toBeInstanceOf(InvalidInputError);
        expect(error.message).toBe('name must contain a letter or a digit');
      });

      it(`refuses a name another ${lower} already has since a rename, whatever its case`, async () => {
        await taxonomy.create(kind, 'Original Name');
        await taxonomy.rename(kind, 'original-name', 'Renamed Twin');
        const error = await refusal(taxonomy.create(kind, 'renamed twin'));
        expect(error).toBeInstanceOf(ConflictError);
        expect((await names()).filter((name) => name.toLowerCase() === 'renamed twin')).toHaveLength(1);
      });
    });

    describe('rename', () => {
      it('gives a new trimmed name, keeping the id and the videos carrying it', async () => {
        await taxonomy.create(kind, 'Old Name');
        expect(await taxonomy.rename(kind, 'old-name', '  Brand New  ')).toEqual({ id: 'old-name', name: 'Brand New' });
        expect((await taxonomy.list(kind)).find((t) => t.id === 'old-name')).toEqual({ id: 'old-name', name: 'Brand New', video_count: 0 });
        expect(await taxonomy.rename(kind, 'bears', 'The Bears')).toEqual({ id: 'bears', name: 'The Bears' });
        expect((await taxonomy.list(kind)).find((t) => t.id === 'bears')).toEqual({ id: 'bears', name: 'The Bears', video_count: 2 });
        // A change of case of its own name is no conflict.
        expect(await taxonomy.rename(kind, 'bears', 'THE BEARS')).toEqual({ id: 'bears', name: 'THE BEARS' });
      });

      it(`refuses a name another ${lower} has, whatever its case, an unknown id, and a name with no letter or digit`, async () => {
        const taken = await refusal(taxonomy.rename(kind, 'alpha', ' OUTDOOR '));
        expect(taken).toBeInstanceOf(ConflictError);
        expect(taken.message).toBe(`Another ${lower} is already named OUTDOOR`);
        const missing = await refusal(taxonomy.rename(kind, 'nobody', 'Nobody'));
        expect(missing).toBeInstanceOf(NotFoundError);
        expect(missing.message).toBe(`${title} not found`);
        const blank = await refusal(taxonomy.rename(kind, 'alpha', '?!'));
        expect(blank).toBeInstanceOf(InvalidInputError);
        expect(blank.message).toBe('name must contain a letter or a digit');
        expect((await taxonomy.list(kind)).find((t) => t.id === 'alpha')?.name).toBe('alpha');
      });
    });
  });
});
