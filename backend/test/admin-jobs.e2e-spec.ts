import request from 'supertest';
import { insertVideo } from './helpers/factories';
import { bearer, createTestApp, registerAdmin, registerUser, TestApp, TestUser } from './helpers/test-app';

interface JobFields {
  videoId: number | null;
  kind: string;
  state: 'queued' | 'running' | 'done' | 'failed';
  progress: number;
  error: string | null;
  attempts: number;
  createdAt: string;
}

describe('Admin jobs (e2e)', () => {
  let t: TestApp;
  let admin: TestUser;
  let member: TestUser;
  let videoId: number;

  beforeAll(async () => {
    // No worker: the jobs stay as inserted.
    t = await createTestApp({ INGEST_WORKER: 'false' });
    admin = await registerAdmin(t);
    member = await registerUser(t.http);
    videoId = await insertVideo(t.db, { status: 'processing' });
  });
  afterAll(() => t.close());

  const insertJob = async (fields: Partial<JobFields> = {}): Promise<number> => {
    const [{ id }] = await t.db.query<{ id: number }[]>(
      `INSERT INTO ingest_jobs (video_id, kind, state, progress, error, attempts, created_at, locked_by, locked_at, started_at, finished_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) RETURNING id`,
      [
        fields.videoId === undefined ? videoId : fields.videoId, fields.kind ?? 'ingest', fields.state ?? 'queued',
        fields.progress ?? 0, fields.error ?? null, fields.attempts ?? 0, fields.createdAt ?? new Date().toISOString(),
        fields.state === 'running' ? 'worker-1' : null, fields.state === 'running' ? new Date().toISOString() : null,
        fields.state && fields.state !== 'queued' ? new Date().toISOString() : null,
        fields.state === 'done' || fields.state === 'failed' ? new Date().toISOString() : null,
      ],
    );
    return Number(id);
  };
  const get = (url: string, user: TestUser = admin) => request(t.http).get(url).set(bearer(user));
  const retry = (id: number | string, user: TestUser = admin) => request(t.http).post(`/api/admin/jobs/${id}/retry`).set(bearer(user));

  describe('GET /api/admin/jobs', () => {
    it('lists jobs newest first, in the Job shape', async () => {
      await t.db.query('DELETE FROM ingest_jobs');
      const older = await insertJob({ createdAt: '2024-01-01T00:00:00Z', state: 'done', progress: 100 });
      const newest = await insertJob({ createdAt: '2024-03-01T00:00:00Z', state: 'running', progress: 42 });
      const middle = await insertJob({ createdAt: '2024-02-01T00:00:00Z', state: 'failed', progress: 30, error: 'ffmpeg exited with 1', videoId: null, kind: 'thumbnail' });
      const res = await get('/api/admin/jobs').expect(200);
      expect(res.body).toEqual({
        data: [
          { id: newest, video_id: videoId, kind: 'ingest', state: 'running', progress: 42, error: null },
          { id: middle, video_id: null, kind: 'thumbnail', state: 'failed', progress: 30, error: 'ffmpeg exited with 1' },
          { id: older, video_id: videoId, kind: 'ingest', state: 'done', progress: 100, error: null },
        ],
      });
    });

    it('breaks ties of the same time by id, newest first', async () => {
      await t.db.query('DELETE FROM ingest_jobs');
      const at = '2024-05-05T05:05:05Z';
      const first = await insertJob({ createdAt: at });
      const second = await insertJob({ createdAt: at });
      const res = await get('/api/admin/jobs').expect(200);
      expect(res.body.data.map((j: { id: number }) => j.id)).toEqual([second, first]);
    });

    it('answers at most the 200 newest', async () => {
      await t.db.query('DELETE FROM ingest_jobs');
      await t.db.query(
        `INSERT INTO ingest_jobs (video_id, kind, created_at)
         SELECT NULL, 'ingest', timestamptz '2024-01-01' + make_interval(mins => n) FROM generate_series(1, 205) AS n`,
      );
      const res = await get('/api/admin/jobs').expect(200);
      expect(res.body.data).toHaveLength(200);
      const [newest] = await t.db.query<{ id: number }[]>(`SELECT id FROM ingest_jobs ORDER BY created_at DESC LIMIT 1`);
      expect(res.body.data[0].id).toBe(Number(newest.id));
    });

    it('answers an empty list when there are no jobs', async () => {
      await t.db.query('DELETE FROM ingest_jobs');
      expect((await get('/api/admin/jobs').expect(200)).body).toEqual({ data: [] });
    });
  });

  describe('GET /api/admin/jobs/{id}', () => {
    it('answers the job', async () => {
      const id = await insertJob({ state: 'running', progress: 7 });
      expect((await get(`/api/admin/jobs/${id}`).expect(200)).body).toEqual({
        data: { id, video_id: videoId, kind: 'ingest', state: 'running', progress: 7, error: null },
      });
    });

    it('answers 404 for an unknown job and 400 for an id that is not one', async () => {
      expect((await get('/api/admin/jobs/999999').expect(404)).body).toEqual({ error: 'Job not found', statusCode: 404 });
      for (const id of ['abc', '0', '-1', '1.5', '1e3', '99999999999']) {
        const res = await get(`/api/admin/jobs/${id}`).expect(400);
        expect(res.body).toEqual({ error: 'id must be a positive integer', statusCode: 400 });
      }
    });
  });

  describe('POST /api/admin/jobs/{id}/retry', () => {
    it('queues a failed job again from the start and answers 202', async () => {
      const id = await insertJob({ state: 'failed', progress: 63, error: 'ffmpeg exited with 1', attempts: 3 });
      const res = await retry(id).expect(202);
      expect(res.body).toEqual({ error: null });
      const [row] = await t.db.query(
        `SELECT state, progress, error, attempts, locked_by, started_at, finished_at FROM ingest_jobs WHERE id = $1`,
        [id],
      );
      expect({ ...row, progress: Number(row.progress), attempts: Number(row.attempts) }).toEqual({
        state: 'queued',
        progress: 0,
        error: null,
        attempts: 0,
        locked_by: null,
        started_at: null,
        finished_at: null,
      });
      expect((await get(`/api/admin/jobs/${id}`).expect(200)).body.data).toMatchObject({ state: 'queued', progress: 0, error: null });
    });

    it.each(['queued', 'running', 'done'] as const)('answers 409 for a %s job and leaves it alone', async (state) => {
      const id = await insertJob({ state, progress: 50, attempts: 1 });
      const res = await retry(id).expect(409);
      expect(res.body).toEqual({ error: 'Only failed jobs can be retried', statusCode: 409 });
      const [row] = await t.db.query(`SELECT state, progress, attempts FROM ingest_jobs WHERE id = $1`, [id]);
      expect({ state: row.state, progress: Number(row.progress), attempts: Number(row.attempts) }).toEqual({ state, progress: 50, attempts: 1 });
    });

    it('answers 404 for an unknown job and 400 for a bad id', async () => {
      expect((await retry(999999).expect(404)).body).toEqual({ error: 'Job not found', statusCode: 404 });
      await retry('abc').expect(400);
    });

    it('takes no body: an empty one is fine, any field is a 400 that retries nothing', async () => {
      const id = await insertJob({ state: 'failed' });
      await retry(id).send({ force: true }).expect(400);
      expect((await get(`/api/admin/jobs/${id}`).expect(200)).body.data.state).toBe('failed');
      await retry(id).send({}).expect(202);
    });

    it('retries nothing for a member or an anonymous caller', async () => {
      const id = await insertJob({ state: 'failed', error: 'boom' });
      await retry(id, member).expect(403);
      await request(t.http).post(`/api/admin/jobs/${id}/retry`).expect(401);
      const [row] = await t.db.query(`SELECT state, error FROM ingest_jobs WHERE id = $1`, [id]);
      expect(row).toEqual({ state: 'failed', error: 'boom' });
    });
  });

  it('shows no job to a member or an anonymous caller', async () => {
    const id = await insertJob();
    await get('/api/admin/jobs', member).expect(403);
    await get(`/api/admin/jobs/${id}`, member).expect(403);
    await request(t.http).get('/api/admin/jobs').expect(401);
    await request(t.http).get(`/api/admin/jobs/${id}`).expect(401);
  });
});
