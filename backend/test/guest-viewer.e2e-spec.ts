import request from 'supertest';
import { insertVideo } from './helpers/factories';
import { bearer, createTestApp, registerUser, TestApp } from './helpers/test-app';

/**
 * Who a guest is when views, trending signals and likes are counted: their network (the IPv4 address, the IPv6
 * /64), whatever the user agent says, as the contract has it. The old rule (hashed IP + user agent, the
 * GUEST_VIEWER setting's default) let one address count 25 views and 25 likes in a second by varying its
 * User-Agent. Clients are told apart by X-Forwarded-For from the loopback proxy (TRUST_PROXY=loopback).
 */
const from = (address: string, agent: string) => ({ 'X-Forwarded-For': address, 'User-Agent': agent });

async function countFromOneAddress(t: TestApp, videoId: number, address: string): Promise<{ views: number; likes: number; refused: number }> {
  let views = 0;
  let likes = 0;
  let refused = 0;
  for (let n = 0; n < 25; n++) {
    const headers = from(address, `agent-${n}`);
    views = (await request(t.http).post('/api/video/increment-views').set(headers).send({ videoId }).expect(200)).body.views;
    const like = await request(t.http).post('/api/video/increment-likes').set(headers).send({ videoId });
    if (like.status === 200) likes = like.body.likes;
    else {
      expect(like.status).toBe(409);
      expect(like.body.errorCode).toBe('ALREADY_LIKED');
      refused++;
    }
  }
  return { views, likes, refused };
}

describe('a guest viewer is their network (e2e)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ TRUST_PROXY: 'loopback', COUNTER_FLUSH_MS: '3600000' });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('counts one view and one like per address, whatever the User-Agent', async () => {
    const id = await insertVideo(t.db, { views: 100, likes: 10 });
    expect(await countFromOneAddress(t, id, '203.0.113.7')).toEqual({ views: 101, likes: 11, refused: 24 });
    // Another address is another viewer.
    const other = await request(t.http).post('/api/video/increment-views').set(from('203.0.113.8', 'agent-0')).send({ videoId: id }).expect(200);
    expect(other.body.views).toBe(102);
  });

  it('counts an IPv6 client by its /64: another address of the same /64 is the same viewer, another /64 is not', async () => {
    const id = await insertVideo(t.db, { views: 0 });
    const view = async (address: string) =>
      (await request(t.http).post('/api/video/increment-views').set(from(address, `ua-${address}`)).send({ videoId: id }).expect(200)).body.views;
    expect(await view('2001:db8:1:2::1')).toBe(1);
    expect(await view('2001:db8:1:2:ffff::9')).toBe(1);
    expect(await view('2001:db8:1:3::1')).toBe(2);
  });

  it('counts members by their account as before: two members on one address are two viewers', async () => {
    const id = await insertVideo(t.db, { views: 0, likes: 0 });
    for (const agent of ['member-a', 'member-b']) {
      const member = await registerUser(t.http);
      await request(t.http).post('/api/video/increment-views').set(bearer(member)).set(from('198.51.100.1', agent)).send({ videoId: id }).expect(200);
      await request(t.http).post('/api/video/increment-likes').set(bearer(member)).set(from('198.51.100.1', agent)).send({ videoId: id }).expect(200);
    }
    const detail = (await request(t.http).get(`/api/videos/${id}`).expect(200)).body;
    expect({ views: detail.views, likes: detail.likes }).toEqual({ views: 2, likes: 2 });
  });
});

describe('GUEST_VIEWER, the old opt-out (e2e)', () => {
  it('is refused with a message naming it, unless it asks for the rule in force', async () => {
    await expect(createTestApp({ GUEST_VIEWER: 'address-and-agent' })).rejects.toThrow(/GUEST_VIEWER: no longer a setting/);
    const t = await createTestApp({ GUEST_VIEWER: 'network', TRUST_PROXY: 'loopback', COUNTER_FLUSH_MS: '3600000' });
    try {
      const id = await insertVideo(t.db, { views: 100, likes: 10 });
      expect(await countFromOneAddress(t, id, '203.0.113.9')).toEqual({ views: 101, likes: 11, refused: 24 });
    } finally {
      await t.close();
    }
  });
});
