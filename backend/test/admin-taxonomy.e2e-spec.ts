import request from 'supertest';
import { insertVideo } from './helpers/factories';
import { bearer, createTestApp, registerAdmin, registerUser, TestApp, TestUser } from './helpers/test-app';

describe.each([
  { kind: 'categories', singular: 'Category' },
  { kind: 'performers', singular: 'Performer' },
] as const)('POST /api/$kind (e2e)', ({ kind, singular }) => {
  let t: TestApp;
  let admin: TestUser;
  let member: TestUser;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await registerAdmin(t);
    member = await registerUser(t.http);
  });
  afterAll(() => t.close());

  const create = (body: unknown, user: TestUser = admin) => request(t.http).post(`/api/${kind}`).set(bearer(user)).send(body as object);
  const stored = async (id: string) => t.db.query<{ id: string; name: string }[]>(`SELECT id, name FROM ${kind} WHERE id = $1`, [id]);

  it('creates it with the id derived from the trimmed name, ignoring a differing client id', async () => {
    const res = await create({ name: '  Big Muscle Men!  ', id: 'something-else' }).expect(201);
    expect(res.body).toEqual({ id: 'big-muscle-men', name: 'Big Muscle Men!' });
    expect(await stored('big-muscle-men')).toEqual([{ id: 'big-muscle-men', name: 'Big Muscle Men!' }]);
    expect(await stored('something-else')).toEqual([]);
  });

  it('strips accents for the id and keeps them in the name', async () => {
    const res = await create({ name: 'Café Crème' }).expect(201);
    expect(res.body).toEqual({ id: 'cafe-creme', name: 'Café Crème' });
  });

  it('shows the new entry in the public list at once, though the list is cached', async () => {
    const before = (await request(t.http).get(`/api/${kind}`).expect(200)).body.data as { id: string }[];
    expect(before.map((x) => x.id)).not.toContain('pool-party');
    await create({ name: 'Pool Party' }).expect(201);
    const after = (await request(t.http).get(`/api/${kind}`).expect(200)).body.data;
    expect(after).toContainEqual({ id: 'pool-party', name: 'Pool Party', video_count: 0 });
  });

  it('answers 409 when the derived id exists, whatever the spelling, and keeps the first name', async () => {
    await create({ name: 'Locker Room' }).expect(201);
    const res = await create({ name: 'LOCKER   room' }).expect(409);
    expect(res.body).toEqual({ error: `${singular} already exists: locker-room`, statusCode: 409 });
    expect(await stored('locker-room')).toEqual([{ id: 'locker-room', name: 'Locker Room' }]);
  });

  it('answers 409 for one that videos already carry', async () => {
    await insertVideo(t.db, kind === 'categories' ? { categories: ['Outdoor'] } : { performers: ['Outdoor'] });
    await create({ name: 'outdoor' }).expect(409);
  });

  it.each([
    ['a missing name', {}],
    ['an empty name', { name: '' }],
    ['a whitespace name', { name: '   ' }],
    ['a name without a letter or digit', { name: '!!!' }],
    ['a name over 100 characters', { name: 'x'.repeat(101) }],
    ['a name that is not a string', { name: 42 }],
    ['a null name', { name: null }],
    ['an id that is not a string', { name: 'Fine Name', id: 7 }],
    ['an unknown field', { name: 'Fine Name', video_count: 3 }],
  ])('answers 400 for %s and creates nothing', async (_case, body) => {
    const before = await t.db.query(`SELECT count(*)::int AS n FROM ${kind}`);
    const res = await create(body).expect(400);
    expect(res.body).toEqual({ error: expect.any(String), statusCode: 400 });
    expect(await t.db.query(`SELECT count(*)::int AS n FROM ${kind}`)).toEqual(before);
  });

  it('names the problem in the 400', async () => {
    expect((await create({ name: '   ' }).expect(400)).body.error).toBe('name must not be empty');
    expect((await create({ name: '!!!' }).expect(400)).body.error).toBe('name must contain a letter or a digit');
    expect((await create({ name: 'x'.repeat(101) }).expect(400)).body.error).toBe('name must be at most 100 characters long');
  });

  it('accepts a name of exactly 100 characters, counted after trimming', async () => {
    const name = `${'y'.repeat(100)}`;
    const res = await create({ name: `  ${name}  ` }).expect(201);
    expect(res.body).toEqual({ id: name, name });
  });

  it('creates nothing for a member or an anonymous caller', async () => {
    await request(t.http).post(`/api/${kind}`).send({ name: 'Sneaky One' }).expect(401);
    await create({ name: 'Sneaky One' }, member).expect(403);
    expect(await stored('sneaky-one')).toEqual([]);
  });
});

describe.each([
  { kind: 'categories', singular: 'Category', lower: 'category' },
  { kind: 'performers', singular: 'Performer', lower: 'performer' },
] as const)('PATCH /api/admin/$kind/{id} (e2e)', ({ kind, singular, lower }) => {
  let t: TestApp;
  let admin: TestUser;
  let member: TestUser;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await registerAdmin(t);
    member = await registerUser(t.http);
    await request(t.http).post(`/api/${kind}`).set(bearer(admin)).send({ name: 'Keep Me' }).expect(201);
  });
  afterAll(() => t.close());

  const create = (name: string) => request(t.http).post(`/api/${kind}`).set(bearer(admin)).send({ name }).expect(201);
  const rename = (id: string, body: unknown, user: TestUser = admin) =>
    request(t.http).patch(`/api/admin/${kind}/${id}`).set(bearer(user)).send(body as object);
  const names = async () => t.db.query<{ id: string; name: string }[]>(`SELECT id, name FROM ${kind} ORDER BY id`);

  it('renames it, keeping its id, its videos and its place in the public list', async () => {
    await create('Gym Buddies');
    const video = await insertVideo(t.db, kind === 'categories' ? { categories: ['Gym Buddies'] } : { performers: ['Gym Buddies'] });
    const res = await rename('gym-buddies', { name: '  Gym Bros ' }).expect(200);
    expect(res.body).toEqual({ id: 'gym-buddies', name: 'Gym Bros' });
    const list = (await request(t.http).get(`/api/${kind}`).expect(200)).body.data;
    expect(list).toContainEqual({ id: 'gym-buddies', name: 'Gym Bros', video_count: 1 });
    const detail = (await request(t.http).get(`/api/videos/${video}`).expect(200)).body;
    expect(detail[kind]).toEqual([{ id: 'gym-buddies', name: 'Gym Bros' }]);
  });

  it('allows a change of case or spelling of its own name', async () => {
    await create('Beach Day');
    expect((await rename('beach-day', { name: 'BEACH DAY' }).expect(200)).body).toEqual({ id: 'beach-day', name: 'BEACH DAY' });
  });

  it('answers 409 when another one already has the name, case-insensitively, and changes nothing', async () => {
    await create('Sauna');
    await create('Steam Room');
    const before = await names();
    const res = await rename('steam-room', { name: 'sauna' }).expect(409);
    expect(res.body).toEqual({ error: `Another ${lower} is already named sauna`, statusCode: 409 });
    expect(await names()).toEqual(before);
  });

  it('answers 404 for an unknown id', async () => {
    const res = await rename('no-such-thing', { name: 'Anything' }).expect(404);
    expect(res.body).toEqual({ error: `${singular} not found`, statusCode: 404 });
  });

  it.each([
    ['a missing name', {}],
    ['an empty name', { name: '' }],
    ['a whitespace name', { name: '   ' }],
    ['a name without a letter or digit', { name: '!!!' }],
    ['a name over 100 characters', { name: 'x'.repeat(101) }],
    ['a name that is not a string', { name: 42 }],
    ['an unknown field', { name: 'Fine Name', id: 'other' }],
  ])('answers 400 for %s and changes nothing', async (_case, body) => {
    const before = await names();
    const res = await rename('keep-me', body).expect(400);
    expect(res.body).toEqual({ error: expect.any(String), statusCode: 400 });
    expect(await names()).toEqual(before);
  });

  it('changes nothing for a member or an anonymous caller', async () => {
    await create('Private Room');
    await request(t.http).patch(`/api/admin/${kind}/private-room`).send({ name: 'Hacked' }).expect(401);
    await rename('private-room', { name: 'Hacked' }, member).expect(403);
    expect((await names()).find((row) => row.id === 'private-room')?.name).toBe('Private Room');
  });
});
