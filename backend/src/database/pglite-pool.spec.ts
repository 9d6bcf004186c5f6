import { DataSource } from 'typeorm';
import { Mutex, pgliteDriver } from './pglite-pool';

describe('Mutex', () => {
  it('hands the lock out one at a time, in request order', async () => {
    const mutex = new Mutex();
    const order: string[] = [];
    const worker = async (name: string, ms: number) => {
      const release = await mutex.acquire();
      order.push(`${name}:in`);
      await new Promise((r) => setTimeout(r, ms));
      order.push(`${name}:out`);
      release();
    };
    await Promise.all([worker('a', 20), worker('b', 1), worker('c', 5)]);
    expect(order).toEqual(['a:in', 'a:out', 'b:in', 'b:out', 'c:in', 'c:out']);
  });
});

describe('PGlite pool under TypeORM', () => {
  let db: DataSource;

  beforeAll(async () => {
    db = new DataSource({ type: 'postgres', driver: pgliteDriver, extra: { pglite: {} } });
    await db.initialize();
    await db.query('CREATE TABLE counter (n int NOT NULL)');
    await db.query('INSERT INTO counter VALUES (0)');
  });
  afterAll(() => db.destroy());

  it('keeps a rolled-back transaction from taking queries of concurrent requests with it', async () => {
    const failing = db.transaction(async (tx) => {
      await tx.query('UPDATE counter SET n = n + 100');
      await new Promise((r) => setTimeout(r, 30));
      throw new Error('roll back');
    });
    // Started while the transaction is open: must not run inside it.
    const outside = db.query('UPDATE counter SET n = n + 1');
    await expect(failing).rejects.toThrow('roll back');
    await outside;
    expect(await db.query('SELECT n FROM counter')).toEqual([{ n: 1 }]);
  });

  it('reports affected rows and unique violations as PostgreSQL does', async () => {
    await db.query('CREATE TABLE uniq (k text PRIMARY KEY)');
    await db.query(`INSERT INTO uniq VALUES ('a'), ('b')`);
    const result = await db.createQueryBuilder().update('uniq').set({ k: () => `k || '!'` }).execute();
    expect(result.affected).toBe(2);
    await expect(db.query(`INSERT INTO uniq VALUES ('a!')`)).rejects.toMatchObject({ driverError: { code: '23505' } });
  });

  it('sends booleans as SQL booleans', async () => {
    expect(await db.query('SELECT $1::boolean AS t, $2::boolean AS f', [true, false])).toEqual([{ t: true, f: false }]);
  });
});
