import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN } from './support/constants';
import { baseURL, launchBrowser, newVisitor, registerMember, screenshot } from './support/browser';
import { makeClip, makeJpeg } from './support/media';

interface Dashboard {
  totals: { views: number; members: number };
  daily: { day: string; views: number; likes: number; members: number }[];
  rankings: { period: string; videos: { id: number; title: string }[] }[];
}

interface VideoJson {
  id: number;
  title: string;
  thumbnail: string;
  featured: number;
  categories: { id: string; name: string }[];
}

const api = async <T>(path: string, token?: string, init: RequestInit = {}): Promise<{ status: number; body: T }> => {
  const res = await fetch(`${baseURL()}${path}`, {
    ...init,
    headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
  });
  return { status: res.status, body: (await res.json().catch(() => null)) as T };
};

const tokenFor = async (email: string, password: string) =>
  (await api<{ accessToken: string }>('/api/auth/login', undefined, { method: 'POST', body: JSON.stringify({ email, password }) }))
    .body.accessToken;

async function logIn(page: Page, email: string, password: string) {
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.locator('.user-menu__name').waitFor();
}

/** Answers the next window.alert / prompt with `answer` and resolves with its message. */
const nextDialog = (page: Page, answer?: string) =>
  new Promise<string>((resolve) => {
    page.once('dialog', (dialog) => {
      resolve(dialog.message());
      void (dialog.type() === 'prompt' ? dialog.accept(answer) : dialog.accept());
    });
  });

describe('an admin', () => {
  let browser: Browser;
  let page: Page;
  let token: string;
  let videos: VideoJson[];

  beforeAll(async () => {
    browser = await launchBrowser();
    ({ page } = await newVisitor(browser));
    await logIn(page, ADMIN.email, ADMIN.password);
    token = await tokenFor(ADMIN.email, ADMIN.password);
    await api('/api/admin/clear-cache', token, { method: 'POST' });
    const list = await api<{ data: { id: number }[] }>('/api/videos?limit=60', token);
    videos = await Promise.all(list.body.data.map(async ({ id }) => (await api<VideoJson>(`/api/videos/${id}`)).body));
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('edits a video from its watch page, adds a new category, and the watch page shows the change', async () => {
    const video = videos[0];
    await page.goto(`/video/${video.id}`);
    await page.getByRole('link', { name: 'Edit video' }).click();
    await page.waitForURL(`**/admin/videos/${video.id}`);
    await page.getByRole('heading', { name: 'Admin Mode - Edit Video' }).waitFor();

    await page.getByLabel('Title', { exact: true }).fill('Edited by the admin');
    const prompt = nextDialog(page, 'Poolside E2E');
    await page.getByRole('button', { name: 'Create new category' }).click();
    expect(await prompt).toMatch(/name/i);
    await expect.poll(() => page.getByLabel('Categories', { exact: true }).inputValue()).toContain('Poolside E2E');
    await screenshot(page, 'admin-edit-desktop');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await page.getByText('Changes saved.').waitFor();

    await page.goto(`/video/${video.id}`);
    await page.getByRole('heading', { level: 1, name: 'Edited by the admin' }).waitFor();
    const saved = (await api<VideoJson>(`/api/videos/${video.id}`)).body;
    expect(saved.categories).toContainEqual({ id: 'poolside-e2e', name: 'Poolside E2E' });
  });

  it('adds a new tag in the edit panel, saves, and the watch page shows it under the player', async () => {
    const video = videos[videos.length - 1];
    await page.goto(`/admin/videos/${video.id}`);
    await page.getByRole('heading', { name: 'Admin Mode - Edit Video' }).waitFor();

    const box = page.getByRole('combobox', { name: 'Add a tag' });
    await box.fill('Admin E2E Tag');
    // Enter adds the chip; it does not save the form.
    await box.press('Enter');
    await page.getByRole('list', { name: 'Tags of this video' }).getByText('Admin E2E Tag').waitFor();
    expect(await box.inputValue()).toBe('');
    await screenshot(page, 'admin-edit-tags');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await page.getByText('Changes saved.').waitFor();
    expect((await api<{ tags: unknown }>(`/api/videos/${video.id}`)).body.tags).toContainEqual({ id: 'admin-e2e-tag', name: 'Admin E2E Tag' });

    const { page: visitor, context } = await newVisitor(browser);
    await visitor.goto(`/video/${video.id}`);
    const link = visitor.getByRole('list', { name: 'Tags' }).getByRole('link', { name: 'Admin E2E Tag' });
    await link.waitFor();
    expect(await link.getAttribute('href')).toBe('/tags/admin-e2e-tag');
    await screenshot(visitor, 'watch-tags-desktop');
    await context.close();

    // The taxonomy page lists it with its count, to rename or delete.
    await page.goto('/admin/taxonomy');
    const row = page.getByRole('region', { name: 'Tags' }).getByRole('row', { name: /Admin E2E Tag/ });
    await row.getByRole('button', { name: 'Delete Admin E2E Tag' }).waitFor();
    expect(await row.getByRole('cell').nth(2).textContent()).toBe('1');
    await screenshot(page, 'admin-taxonomy');
  });

  it('marks chapters from the edit panel’s player, and a visitor jumps by chapter on the watch page', async () => {
    const video = videos[1];
    await page.goto(`/admin/videos/${video.id}`);
    await page.getByRole('heading', { name: 'Admin Mode - Edit Video' }).waitFor();
    // The preview is the video's embed, same origin: played to 3 s and paused, Mark here reads it.
    const preview = page.frameLocator('iframe[title="Video preview"]');
    await preview.locator('video').waitFor();
    await preview.locator('video').evaluate(async (element: HTMLVideoElement) => {
      element.muted = true;
      await new Promise<void>((resolve) => (element.readyState >= 1 ? resolve() : element.addEventListener('loadedmetadata', () => resolve(), { once: true })));
      element.currentTime = 3;
      await new Promise<void>((resolve) => element.addEventListener('seeked', () => resolve(), { once: true }));
    });
    await page.getByRole('button', { name: 'Add chapter' }).click();
    await page.getByLabel('Chapter title').first().fill('Opening');
    await page.getByRole('button', { name: 'Mark here' }).click();
    await expect.poll(() => page.getByLabel('Chapter start (seconds)').nth(1).inputValue()).toBe('3');
    await page.getByLabel('Chapter title').nth(1).fill('The pose');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await page.getByText('Changes saved.').waitFor();
    expect((await api<{ chapters: unknown }>(`/api/videos/${video.id}`)).body.chapters).toEqual([{ start: 0, title: 'Opening' }, { start: 3, title: 'The pose' }]);

    // A visitor: the server's page carries the chapters as Clip parts, the seek bar marks them, the list jumps.
    const { page: visitor, context } = await newVisitor(browser);
    await visitor.goto(`/video/${video.id}`);
    const jsonLd = await visitor.locator('script[type="application/ld+json"]').allTextContents();
    const videoObject = jsonLd.map((text) => JSON.parse(text) as { '@type': string; hasPart?: { name: string; startOffset: number }[] }).find((data) => data['@type'] === 'VideoObject');
    expect(videoObject?.hasPart?.map((part) => [part.name, part.startOffset])).toEqual([['Opening', 0], ['The pose', 3]]);
    const chapters = visitor.getByRole('navigation', { name: 'Chapters' });
    await chapters.getByRole('link', { name: /The pose/ }).click();
    const player = visitor.locator('video.player__video');
    await expect.poll(() => player.evaluate((element: HTMLVideoElement) => element.currentTime), { timeout: 15_000 }).toBeGreaterThanOrEqual(3);
    expect(new URL(visitor.url()).search).toBe('');
    await expect.poll(() => chapters.getByRole('link', { name: /The pose/ }).getAttribute('aria-current')).toBe('true');
    expect(await visitor.locator('.seek-bar__mark').count()).toBe(1);
    await context.close();
  });

  it('uploads SRT captions, and a visitor switches them on from the CC menu, sees the cue, and turns them off with C', async () => {
    const video = videos[2];
    const form = new FormData();
    form.set('lang', 'en');
    form.set('file', new Blob(['1\r\n00:00:00,500 --> 00:00:09,000\r\nHello from the <b>captions</b>\r\n'], { type: 'application/x-subrip' }), 'english.srt');
    const uploaded = await fetch(`${baseURL()}/api/admin/videos/${video.id}/captions`, { method: 'POST', headers: { Authorization: `Bearer ${token}` }, body: form });
    expect(uploaded.status).toBe(201);
    expect(await uploaded.json()).toMatchObject({ lang: 'en', label: 'English' });

    const { page: visitor, context, errors } = await newVisitor(browser);
    // The CC menu answers once the app has hydrated the server's page (before, a choice is the browser's alone).
    await context.addInitScript(() => document.addEventListener('hunktube:hydrated', () => ((window as unknown as { hydrated: boolean }).hydrated = true)));
    await visitor.goto(`/video/${video.id}?t=2`);
    await visitor.waitForFunction(() => (window as unknown as { hydrated?: boolean }).hydrated === true);
    const player = visitor.locator('video.player__video');
    await expect.poll(() => player.evaluate((element: HTMLVideoElement) => element.readyState), { timeout: 30_000 }).toBeGreaterThanOrEqual(1);
    await visitor.getByRole('combobox', { name: 'Captions' }).selectOption('en');
    const track = () =>
      player.evaluate((element: HTMLVideoElement) => {
        const english = Array.from(element.textTracks).find((t) => t.language === 'en');
        return { mode: english?.mode, cue: (english?.activeCues?.[0] as VTTCue | undefined)?.text ?? null };
      });
    // Its cue shows at 2 s (the WebVTT the API made of the SRT, markup kept).
    await expect.poll(track, { timeout: 15_000 }).toEqual({ mode: 'showing', cue: 'Hello from the <b>captions</b>' });
    await visitor.locator('body').press('c');
    await expect.poll(async () => (await track()).mode).toBe('disabled');
    expect(await visitor.getByRole('combobox', { name: 'Captions' }).inputValue()).toBe('');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('reads a video’s statistics in its panel: the figures the API has, a chart walked with the keyboard, its table', async () => {
    const video = videos[1];
    // A view counted now, and written, so that today has one.
    await api('/api/video/increment-views', undefined, { method: 'POST', body: JSON.stringify({ videoId: video.id }) });
    await api('/api/admin/refresh-views', token, { method: 'POST' });
    const answer = await api<{ lifetime: { views: number; likes: number }; daily: { day: string; views: number; likes: number }[] }>(
      `/api/admin/videos/${video.id}/stats?days=30`,
      token,
    );
    expect({ status: answer.status, body: answer.body }).toMatchObject({ status: 200 });
    const stats = answer.body;
    const today = stats.daily[stats.daily.length - 1];
    expect(today.views).toBeGreaterThan(0);

    await page.goto(`/admin/videos/${video.id}`);
    const section = page.locator('section', { has: page.getByRole('heading', { level: 2, name: 'Statistics' }) });
    await section.getByText(`${stats.lifetime.views.toLocaleString('en')} view`).first().waitFor();
    // The chart is drawn (uPlot's canvas), loaded with this panel only.
    await section.locator('.daily-chart__plot canvas').first().waitFor();
    const chart = section.getByRole('group', { name: 'Views and likes per day, last 30 days' });
    await chart.focus();
    await page.keyboard.press('End');
    const day = new Date(`${today.day}T00:00:00Z`).toLocaleDateString('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });
    const plural = (n: number, one: string, other: string) => `${n} ${n === 1 ? one : other}`;
    await expect.poll(() => section.locator('.daily-chart__reading').textContent()).toBe(
      `${day}: ${plural(today.views, 'view', 'views')}, ${plural(today.likes, 'like', 'likes')}`,
    );
    await page.keyboard.press('ArrowLeft');
    const yesterday = stats.daily[stats.daily.length - 2];
    await expect.poll(() => section.locator('.daily-chart__reading').textContent()).toContain(plural(yesterday.views, 'view', 'views'));
    // The text alternative holds the same figures.
    await section.getByText('The numbers, day by day').click();
    const lastRow = section.getByRole('table').getByRole('row').last();
    expect(await lastRow.getByRole('cell').allTextContents()).toEqual([String(today.views), String(today.likes)]);
    await screenshot(page, 'admin-video-statistics');
  });

  it('reads the site dashboard at /admin: the figures the API has, charts walked with the keyboard, their tables', async () => {
    // A view today (one per viewer: the previous test's may be the one), written, with the rankings computed again.
    await api('/api/video/increment-views', undefined, { method: 'POST', body: JSON.stringify({ videoId: videos[1].id }) });
    await api('/api/admin/refresh-views', token, { method: 'POST' });
    const answer = await api<Dashboard>('/api/admin/dashboard?days=30', token);
    expect(answer.status).toBe(200);
    const data = answer.body;
    const today = data.daily[data.daily.length - 1];
    expect(today.views).toBeGreaterThan(0);
    const topToday = data.rankings.find((r) => r.period === 'day')!.videos;
    expect(topToday.map((v) => v.id)).toContain(videos[1].id);

    await page.goto('/admin');
    await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
    const totals = page.locator('.dashboard__totals');
    await totals.waitFor();
    expect(await totals.locator('dt').allTextContents()).toEqual(['Views', 'Likes', 'New members', 'Uploads', 'Ingests']);
    expect(await totals.locator('dd').first().textContent()).toBe(data.totals.views.toLocaleString('en'));
    expect(await totals.locator('dd').nth(2).textContent()).toBe(data.totals.members.toLocaleString('en'));

    // Three charts, drawn; the first walked with the keyboard to today.
    await page.locator('.daily-chart__plot canvas').nth(2).waitFor();
    const traffic = page.locator('section.dashboard__panel', { has: page.getByRole('heading', { level: 2, name: 'Views and likes' }) });
    await traffic.getByRole('group', { name: 'Views and likes per day, last 30 days' }).focus();
    await page.keyboard.press('End');
    const day = new Date(`${today.day}T00:00:00Z`).toLocaleDateString('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });
    const plural = (n: number, one: string, other: string) => `${n.toLocaleString('en')} ${n === 1 ? one : other}`;
    await expect.poll(() => traffic.locator('.daily-chart__reading').textContent()).toBe(
      `${day}: ${plural(today.views, 'view', 'views')}, ${plural(today.likes, 'like', 'likes')}`,
    );
    const members = page.locator('section.dashboard__panel', { has: page.getByRole('heading', { level: 2, name: 'New members' }) });
    await members.getByRole('group', { name: 'New members per day, last 30 days' }).focus();
    await page.keyboard.press('End');
    await expect.poll(() => members.locator('.daily-chart__reading').textContent()).toBe(
      `${day}: ${plural(today.members, 'new member', 'new members')}`,
    );
    // The text alternatives hold the same figures.
    await traffic.getByText('The numbers, day by day').click();
    const lastRow = traffic.getByRole('table', { name: 'Views and likes per day, last 30 days' }).getByRole('row').last();
    expect(await lastRow.getByRole('cell').allTextContents()).toEqual([today.views.toLocaleString('en'), today.likes.toLocaleString('en')]);
    const ranking = page.getByRole('table', { name: 'Top videos, today' });
    expect(await ranking.getByRole('link').allTextContents()).toEqual(topToday.map((v) => v.title));
    const byReason = page.getByRole('table', { name: 'Open removal requests by reason' });
    expect(await byReason.getByRole('rowheader').allTextContents()).toEqual(['Under 18', 'No consent', 'Illegal acts', 'Copyright', 'Other']);
    await screenshot(page, 'admin-dashboard-desktop');

    await page.getByRole('button', { name: '7 days' }).click();
    await traffic.getByRole('table', { name: 'Views and likes per day, last 7 days' }).waitFor({ state: 'attached' });
    expect(await traffic.getByRole('table', { name: 'Views and likes per day, last 7 days' }).getByRole('row').count()).toBe(8);
  });

  it('loads the chart library on admin pages only', async () => {
    const { page: visitor, context } = await newVisitor(browser);
    try {
      const scripts: string[] = [];
      visitor.on('request', (request) => {
        if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
      });
      await visitor.goto('/');
      await visitor.locator('.video-grid .video-card__link').first().waitFor();
      await visitor.goto(`/video/${videos[1].id}`);
      await visitor.getByRole('heading', { level: 1 }).waitFor();
      expect(scripts.length).toBeGreaterThan(0);
      expect(scripts.filter((name) => /daily-chart|uplot/i.test(name))).toEqual([]);
    } finally {
      await context.close();
    }
    const adminScripts: string[] = [];
    const onRequest = (request: { url(): string; resourceType(): string }) => {
      if (request.resourceType() === 'script') adminScripts.push(new URL(request.url()).pathname);
    };
    page.on('request', onRequest);
    try {
      await page.goto('/admin');
      await page.locator('.daily-chart__plot canvas').first().waitFor();
    } finally {
      page.off('request', onRequest);
    }
    expect(adminScripts.filter((name) => /daily-chart/i.test(name))).toHaveLength(1);
  });

  it('uploads a new thumbnail, and the new image is served', async () => {
    const video = videos[1];
    const jpeg = makeJpeg('orange');
    await page.goto(`/admin/videos/${video.id}`);
    await page.getByLabel('New thumbnail image').setInputFiles(jpeg.file);
    await page.getByRole('img', { name: 'Preview of the new thumbnail' }).waitFor();
    const alert = nextDialog(page);
    await page.getByRole('button', { name: 'Save Thumbnail' }).click();
    expect(await alert).toBe('Thumbnail uploaded successfully.');

    const served = await fetch(new URL(video.thumbnail, baseURL()));
    expect(served.status).toBe(200);
    expect(Buffer.from(await served.arrayBuffer()).equals(jpeg.bytes)).toBe(true);
  });

  it('uploads a clip, follows its job to done, and the video plays', async () => {
    await page.goto('/admin/upload');
    await page.getByLabel('Video file').setInputFiles(makeClip(4));
    await page.getByLabel('Title', { exact: true }).fill('Fresh upload from the e2e run');
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    const progress = page.getByRole('progressbar', { name: 'Processing progress' });
    await progress.waitFor({ timeout: 30_000 });
    const watch = page.getByRole('link', { name: 'Watch the video' });
    await watch.waitFor({ timeout: 180_000 });
    await watch.click();
    await page.getByRole('heading', { level: 1, name: 'Fresh upload from the e2e run' }).waitFor();
    await page.getByRole('button', { name: 'Play', exact: true }).click();
    await expect
      .poll(() => page.locator('video').first().evaluate((video: HTMLVideoElement) => video.currentTime), { timeout: 30_000 })
      .toBeGreaterThan(1);
  }, 240_000);

  it('features two videos at once from the table', async () => {
    // As they are now: an earlier test renamed one.
    const current = await Promise.all(videos.map(async ({ id }) => (await api<VideoJson>(`/api/videos/${id}`)).body));
    const [a, b] = current.filter((video) => video.featured === 0).slice(0, 2);
    expect(b).toBeDefined();
    await page.goto('/admin/videos');
    await page.getByRole('checkbox', { name: `Select ${a.title}` }).check();
    await page.getByRole('checkbox', { name: `Select ${b.title}` }).check();
    await page.getByText('2 selected').waitFor();
    await page.getByRole('button', { name: 'Set featured' }).click();
    await page.getByText('Updated 2 videos').waitFor();
    await screenshot(page, 'admin-table-desktop');
    for (const video of [a, b]) expect((await api<VideoJson>(`/api/videos/${video.id}`)).body.featured).toBeGreaterThan(0);
  });

  it('deletes a video through the Confirm Deletion dialog', async () => {
    const video = videos[2];
    await page.goto(`/admin/videos/${video.id}`);
    await page.getByRole('button', { name: 'Delete Video' }).click();
    const dialog = page.getByRole('dialog', { name: 'Confirm Deletion' });
    await dialog.getByText('Are you sure you want to delete this video?').waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect(await dialog.count()).toBe(0);
    await page.getByRole('button', { name: 'Delete Video' }).click();
    await dialog.getByRole('button', { name: 'Delete', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/admin/videos');
    expect((await api(`/api/videos/${video.id}`)).status).toBe(404);
  });

  it('takes a visitor\u2019s removal request into the queue, deletes the video from there and resolves it', async () => {
    const fresh = await api<{ data: { id: number; title: string }[] }>(`/api/videos?q=${encodeURIComponent('Fresh upload')}`);
    const reported = fresh.body.data.find((video) => video.title === 'Fresh upload from the e2e run');
    expect(reported).toBeDefined();

    const { page: visitor, context } = await newVisitor(browser);
    try {
      // Reported from the video's own page: its Report link opens the form with the video already named.
      await visitor.goto(`/video/${reported!.id}`);
      await visitor.getByRole('link', { name: 'Report' }).click();
      await visitor.waitForURL(`**/content-removal?video=${reported!.id}`);
      expect(await visitor.getByLabel('Video address(es), one per line').inputValue()).toBe(`${baseURL()}/video/${reported!.id}`);
      await visitor.getByLabel('Reason').selectOption({ label: 'I appear in this video and did not consent to its publication' });
      await visitor.getByLabel('Details (optional)').fill('Filmed at a party, never agreed to this.');
      await visitor.getByLabel('How to reach you').fill('reporter@e2e.test');
      await visitor.getByRole('checkbox', { name: /in good faith/ }).check();
      await visitor.getByRole('button', { name: 'Send the request' }).click();
      await visitor.getByRole('status').getByText(/Your request number is \d+\./).waitFor();
    } finally {
      await context.close();
    }

    await page.goto('/admin');
    await page.getByRole('link', { name: /^Removals, 1 open/ }).click();
    await page.waitForURL('**/admin/removals');
    const request = page.getByRole('article').filter({ hasText: 'reporter@e2e.test' });
    await request.getByText('Urgent').waitFor();
    await request.getByText('Filmed at a party, never agreed to this.').waitFor();
    await screenshot(page, 'admin-removals-desktop');

    await request.getByRole('button', { name: /Delete video/ }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete', exact: true }).click();
    await request.getByText(`Video ${reported!.id} (deleted)`).waitFor();
    expect((await api(`/api/videos/${reported!.id}`)).status).toBe(404);

    await request.getByRole('button', { name: 'Resolve' }).click();
    await page.getByText('No open removal requests.').waitFor();
    await page.getByRole('link', { name: 'Closed' }).click();
    await page.getByRole('article').filter({ hasText: 'reporter@e2e.test' }).getByText('Resolved').waitFor();
  });
});

describe('a member', () => {
  it('is refused /admin by the client and every admin call by the API', async () => {
    const browser = await launchBrowser();
    try {
      const { page } = await newVisitor(browser);
      const adminCalls: string[] = [];
      page.on('request', (request) => {
        if (new URL(request.url()).pathname.startsWith('/api/admin')) adminCalls.push(request.url());
      });
      const member = await registerMember(page, 'Curious Carl');
      await page.goto('/admin');
      await page.getByRole('heading', { level: 1, name: 'Not allowed' }).waitFor();
      expect(adminCalls).toEqual([]);

      const token = await tokenFor(member.email, member.password);
      const calls: [string, string, unknown][] = [
        ['GET', '/api/admin/jobs', undefined],
        ['GET', '/api/admin/dashboard', undefined],
        ['POST', '/api/admin/update-video', { id: 1, title: 'Hacked' }],
        ['POST', '/api/admin/delete-video', { id: 1 }],
        ['POST', '/api/admin/refresh-views', {}],
        ['POST', '/api/admin/clear-cache', {}],
        ['POST', '/api/categories', { name: 'Hacked', id: 'hacked' }],
        ['PATCH', '/api/admin/categories/poolside-e2e', { name: 'Hacked' }],
        ['GET', '/api/admin/removal-requests', undefined],
        ['POST', '/api/admin/removal-requests/1/close', { state: 'dismissed' }],
      ];
      for (const [method, path, body] of calls) {
        const res = await api(path, token, { method, body: body === undefined ? undefined : JSON.stringify(body) });
        expect({ path, status: res.status }).toEqual({ path, status: 403 });
      }
    } finally {
      await browser.close();
    }
  });
});
