import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newVisitor, registerMember, screenshot } from './support/browser';

const PLAYLIST = 'Gym favourites';

async function openVideo(page: Page, index: number): Promise<{ path: string; title: string }> {
  await page.goto('/');
  const card = page.locator('.video-grid .video-card__link').nth(index);
  await card.waitFor();
  await card.click();
  await page.waitForURL(/\/video\/\d+$/);
  const title = (await page.locator('.watch-details__title').textContent()) ?? '';
  return { path: new URL(page.url()).pathname, title };
}

async function addToPlaylist(page: Page, pick: 'new' | 'existing') {
  await page.getByRole('button', { name: 'Add to playlist' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add to playlist' });
  await dialog.waitFor();
  if (pick === 'new') {
    await dialog.getByLabel('Find a playlist or name a new one').fill(PLAYLIST);
    await dialog.getByRole('button', { name: 'New playlist' }).click();
  } else {
    await dialog.getByRole('list', { name: 'Your playlists' }).getByRole('button', { name: PLAYLIST }).click();
  }
  await dialog.getByRole('status').filter({ hasText: `Video added to playlist ${PLAYLIST}` }).waitFor();
  await dialog.getByRole('button', { name: 'Close' }).click();
}

describe('a member', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('registers, bookmarks, queues, makes a playlist and plays it in playlist context', async () => {
    const { page, context, errors } = await newVisitor(browser);
    await registerMember(page, 'Playlist Pete');

    const first = await openVideo(page, 0);
    const bookmark = page.getByRole('button', { name: 'Bookmark' });
    await bookmark.click();
    await expect.poll(() => bookmark.getAttribute('aria-pressed')).toBe('true');
    await page.getByRole('button', { name: 'Watch later' }).click();
    await page.getByRole('button', { name: 'Added' }).waitFor();
    await addToPlaylist(page, 'new');

    const second = await openVideo(page, 1);
    expect(second.path).not.toBe(first.path);
    await addToPlaylist(page, 'existing');

    // The lists show what was done on the watch page.
    await page.goto('/me/bookmarks');
    await page.getByRole('link', { name: first.title }).waitFor();
    await page.goto('/me/watch-later');
    const queued = page.getByRole('link', { name: first.title });
    await queued.waitFor();
    expect(await queued.getAttribute('href')).toBe(`${first.path}?context=watch-later`);

    await page.goto('/playlists');
    await page.getByRole('link', { name: PLAYLIST }).click();
    await page.waitForURL(/\/playlists\/\d+$/);
    const playlistId = new URL(page.url()).pathname.split('/').pop();
    await page.getByRole('link', { name: second.title }).waitFor();
    await screenshot(page, 'playlist-desktop');
    await page.setViewportSize({ width: 390, height: 844 });
    await screenshot(page, 'playlist-phone');
    await page.setViewportSize({ width: 1440, height: 900 });

    await page.getByRole('link', { name: 'Play all' }).click();
    await page.waitForURL((url) => url.pathname === first.path && url.searchParams.get('context') === 'playlist');
    expect(new URL(page.url()).searchParams.get('playlist')).toBe(playlistId);
    // Playlist context: a smaller title, no upload age line, the playlist as the up-next list.
    await page.locator('.watch-details__title--small').waitFor();
    expect(await page.locator('.watch-details__age').count()).toBe(0);
    await page.getByRole('navigation', { name: PLAYLIST }).waitFor();

    await page.getByRole('button', { name: 'Next video' }).click();
    await page.waitForURL((url) => url.pathname === second.path && url.searchParams.get('playlist') === playlistId);
    await page.getByRole('heading', { level: 1, name: second.title }).waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  it('likes a video and takes the like back, on its page and from the liked list; the count follows', async () => {
    const { page, context, errors } = await newVisitor(browser);
    await registerMember(page, 'Fickle Fred');
    const { path, title } = await openVideo(page, 1);
    const heart = page.locator('.stat--like');
    const count = async () => Number((await heart.locator('span:not(.visually-hidden)').textContent())?.replace(/\D/g, ''));
    const before = await count();

    await heart.click();
    await expect.poll(() => heart.getAttribute('aria-pressed')).toBe('true');
    expect(await count()).toBe(before + 1);
    // Taken back on the video's page: the heart empties and the count goes back, after a reload too.
    await heart.click();
    await expect.poll(() => heart.getAttribute('aria-pressed')).toBe('false');
    expect(await count()).toBe(before);
    await page.reload();
    await page.locator('.watch-details__title').waitFor();
    expect(await heart.getAttribute('aria-pressed')).toBe('false');
    expect(await count()).toBe(before);

    // Liked again, then taken back from the liked list.
    await heart.click();
    await expect.poll(() => heart.getAttribute('aria-pressed')).toBe('true');
    await page.goto('/me/likes');
    await page.getByRole('button', { name: `Remove ${title} from liked videos` }).click();
    await page.getByText('Videos you like show up here.', { exact: false }).waitFor();
    await page.goto(path);
    await page.locator('.watch-details__title').waitFor();
    expect(await heart.getAttribute('aria-pressed')).toBe('false');
    expect(await count()).toBe(before);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('finds the site usable at phone width: the account menu opens and leads to the lists', async () => {
    const { page, context } = await newVisitor(browser, { viewport: 'phone' });
    await registerMember(page, 'Phone Phil');
    await page.locator('.user-menu__toggle').click();
    await page.getByRole('navigation', { name: 'Your account' }).getByRole('link', { name: 'History' }).click();
    await page.waitForURL(/\/me\/history$/);
    await page.getByRole('heading', { level: 1 }).waitFor();
    await context.close();
  });

  it('follows a performer from a video, finds their videos in the feed and on the home page, and unfollows', async () => {
    const { page, context, errors } = await newVisitor(browser);
    await registerMember(page, 'Follower');
    const video = await openVideo(page, 0);
    const performers = page.getByRole('list', { name: 'Performers' });
    await performers.waitFor();
    const name = ((await performers.getByRole('link').first().textContent()) ?? '').trim();
    const performerPath = await performers.getByRole('link').first().getAttribute('href');
    // The button turns at once (optimistic): wait for the API's answer before reading the feed.
    const followed = page.waitForResponse((response) => response.request().method() === 'PUT' && response.url().includes('/api/me/following/'));
    await performers.getByRole('button', { name: `Follow ${name}`, exact: true }).click();
    await performers.getByRole('button', { name: `Following ${name}`, exact: true }).waitFor();
    expect((await followed).status()).toBe(200);

    // The feed has the video it was followed from, as the performer's page lists their videos.
    await page.goto('/me/following/videos');
    await page.getByRole('heading', { level: 1, name: 'New from performers you follow' }).waitFor();
    // The member's pages are drawn in the browser: the heading comes before the feed's cards.
    await page.locator('.video-grid .video-card__link').first().waitFor();
    const feedLinks = await page.locator('.video-grid .video-card__link').evaluateAll((links) => links.map((l) => l.getAttribute('href')));
    expect(feedLinks).toContain(video.path);
    await page.goto(performerPath ?? '/performers');
    await page.locator('.video-grid .video-card__link').first().waitFor();
    const performerLinks = await page.locator('.video-grid .video-card__link').evaluateAll((links) => links.map((l) => l.getAttribute('href')));
    expect(feedLinks.slice(0, performerLinks.length).sort()).toEqual([...performerLinks].sort());
    await page.getByRole('button', { name: `Following ${name}`, exact: true }).waitFor();

    // Home offers the row; Following lists the performer; Unfollow empties both.
    await page.goto('/');
    const row = page.getByRole('region', { name: 'New from performers you follow' });
    await row.waitFor();
    expect(await row.locator('.video-card__link').count()).toBeGreaterThan(0);
    await page.goto('/me/following');
    const list = page.getByRole('list', { name: 'Performers you follow' });
    await list.getByRole('link', { name }).waitFor();
    const unfollowed = page.waitForResponse((response) => response.request().method() === 'DELETE' && response.url().includes('/api/me/following/'));
    await list.getByRole('button', { name: `Unfollow ${name}` }).click();
    expect((await unfollowed).status()).toBe(200);
    await page.getByText('Follow performers from their page or from a video they are in: their new videos gather here.').waitFor();
    await page.goto('/');
    await page.locator('.video-grid').waitFor();
    expect(await page.getByRole('region', { name: 'New from performers you follow' }).count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('finds a video started on the home page’s Continue watching, resumes it there, and takes it out', async () => {
    const { page, context, errors } = await newVisitor(browser);
    await registerMember(page, 'Resumer');
    const video = await openVideo(page, 1);
    await page.getByRole('button', { name: 'Play', exact: true }).click();
    const time = () => page.locator('video').first().evaluate((element: HTMLVideoElement) => element.currentTime);
    await expect.poll(time, { timeout: 30_000 }).toBeGreaterThan(3);
    const saved = page.waitForResponse((response) => response.request().method() === 'PUT' && /\/api\/me\/history\/\d+\/position$/.test(response.url()));
    await page.getByRole('button', { name: 'Pause', exact: true }).click();
    const stopped = Math.floor(await time());
    expect(await (await saved).json()).toEqual({ recorded: true, position: stopped });

    await page.goto('/');
    const row = page.getByRole('region', { name: 'Continue watching' });
    const card = row.getByRole('link', { name: video.title, exact: true });
    await card.waitFor();
    expect(await card.getAttribute('href')).toBe(`${video.path}?t=${stopped}`);
    expect(await card.locator('progress').getAttribute('value')).toBe(String(stopped));
    // The history has it too, as watched.
    await card.click();
    await page.waitForURL(`**${video.path}?t=${stopped}`);
    await expect.poll(time, { timeout: 30_000 }).toBeGreaterThanOrEqual(stopped - 1);

    await page.goto('/');
    await row.getByRole('button', { name: `Remove ${video.title} from Continue watching` }).click();
    await expect.poll(() => row.count()).toBe(0);
    await page.reload();
    await page.locator('.video-grid').waitFor();
    expect(await page.getByRole('region', { name: 'Continue watching' }).count()).toBe(0);
    await page.goto('/me/history');
    await page.getByRole('link', { name: video.title }).first().waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  it('downloads their data, then deletes the account: nothing of it is left, and the counts stay', async () => {
    const { page, context, errors } = await newVisitor(browser);
    const { email, password } = await registerMember(page, 'Leaver');
    // Of the three demo videos, the admins' tests may have deleted one already (the files run in any order).
    const video = await openVideo(page, 1);
    const bookmark = page.getByRole('button', { name: 'Bookmark' });
    await bookmark.click();
    await expect.poll(() => bookmark.getAttribute('aria-pressed')).toBe('true');
    const like = page.getByRole('button', { name: /^Like,/ });
    const liked = page.waitForResponse((response) => response.url().endsWith('/api/video/increment-likes'));
    await like.click();
    expect((await liked).status()).toBe(200);
    const id = Number(video.path.split('/').pop());
    const likesBefore = ((await (await page.request.get(`/api/videos/${id}`)).json()) as { likes: number }).likes;

    await page.locator('.user-menu__toggle').click();
    await page.getByRole('link', { name: 'Your account' }).click();
    await page.getByRole('heading', { level: 2, name: 'Your data' }).waitFor();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download my data' }).click()]);
    expect(download.suggestedFilename()).toMatch(/-data-\d{4}-\d\d-\d\d\.json$/);
    const file = await download.path();
    const data = JSON.parse(readFileSync(file, 'utf8')) as { account: { email: string }; bookmarks: { video_id: number; title: string }[]; likes: { video_id: number }[] };
    expect(data.account.email).toBe(email);
    expect(data.bookmarks).toEqual([expect.objectContaining({ video_id: id, title: video.title })]);
    expect(data.likes.map((entry) => entry.video_id)).toEqual([id]);

    await page.getByRole('button', { name: 'Delete my account' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete your account?' });
    await dialog.getByLabel('Your password').fill(password);
    await dialog.getByRole('button', { name: 'Delete my account' }).click();
    await page.getByRole('heading', { level: 1, name: 'Your account has been deleted' }).waitFor();
    // Signed out here and everywhere: the session and the password open nothing any more.
    expect((await page.request.get('/api/auth/me')).status()).toBe(401);
    expect((await page.request.post('/api/auth/login', { data: { email, password } })).status()).toBe(401);
    expect(await page.evaluate(() => window.localStorage.length)).toBe(0);
    // The like it gave stays counted.
    expect(((await (await page.request.get(`/api/videos/${id}`)).json()) as { likes: number }).likes).toBe(likesBefore);
    expect(errors).toEqual([]);
    await context.close();
  });
});
