import type { DataSource } from 'typeorm';
import { InvalidInputError } from '../src/common/errors/domain-errors';
import { isUniqueViolation } from '../src/common/utils/database-errors';
import { TaxaRepository } from '../src/taxa/taxa.repository';
import { createTestDatabase } from './helpers/test-app';

/**
 * The owner of `categories` and `performers`, against the real database without an app (PGlite and, with
 * TEST_DATABASE_URL, the server): what the taxonomy's routes and the uploads and edits rely on.
 */
describe.each(['categories', 'performers'] as const)('TaxaRepository on %s (integration)', (kind) => {
  let db: DataSource;
  let close: () => Promise<void>;
  let taxa: TaxaRepository;

  beforeAll(async () => {
    ({ db, close } = await createTestDatabase());
    taxa = new TaxaRepository(db);
    await taxa.insert(kind, 'bears', 'Bears');
    await taxa.insert(kind, 'alpha', 'alpha');
    await taxa.insert(kind, 'zed', 'Zed');
  });
  afterAll(() => close?.());

  it('lists every one by name whatever its case, then id', async () => {
    expect((await taxa.all(kind)).map((t) => t.id)).toEqual(['alpha', 'bears', 'zed']);
  });

  it('refuses a taken id with the unique violation, adding nothing', async () => {
    const error = await taxa.insert(kind, 'bears', 'Other Bears').catch((e: unknown) => e);
    expect(isUniqueViolation(error)).toBe(true);
    expect(await taxa.refs(kind, ['bears'])).toEqual([{ id: 'bears', name: 'Bears' }]);
  });

  it('renames one, keeping its id; says missing for an unknown id and taken for a name another has in any case', async () => {
    expect(await taxa.rename(kind, 'zed', 'Zed Prime')).toBe('renamed');
    expect(await taxa.refs(kind, ['zed'])).toEqual([{ id: 'zed', name: 'Zed Prime' }]);
    expect(await taxa.rename(kind, 'nobody', 'Nobody')).toBe('missing');
    expect(await taxa.rename(kind, 'zed', 'BEARS')).toBe('taken');
    expect(await taxa.refs(kind, ['zed'])).toEqual([{ id: 'zed', name: 'Zed Prime' }]);
    // Its own name in another case is not taken by another.
    expect(await taxa.rename(kind, 'zed', 'ZED PRIME')).toBe('renamed');
  });

  it('resolves references by id, else by name in any case, each once in the order given; an unknown one is a 400', async () => {
    expect(await taxa.resolve(kind, [{ name: 'BEARS' }, { id: 'alpha' }, { id: 'bears' }], db.manager)).toEqual(['bears', 'alpha']);
    expect(await taxa.resolve(kind, [{ id: 'nope', name: 'alpha' }], db.manager)).toEqual(['alpha']);
    const unknown = await taxa.resolve(kind, [{ name: 'Nobody' }], db.manager).catch((e: unknown) => e);
    expect(unknown).toBeInstanceOf(InvalidInputError);
    expect((unknown as Error).message).toBe(`Unknown ${kind === 'categories' ? 'category' : 'performer'}: Nobody`);
  });
});
