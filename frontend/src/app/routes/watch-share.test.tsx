import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { makeSite, makeWatchVideo } from '@/testing/data';
import { json, mockFetch, noContent } from '@/testing/mock-fetch';
import { renderRoute } from '@/testing/render-route';

// hls.js needs Media Source Extensions, which jsdom lacks (see watch.test.tsx).
vi.mock('@/features/watch/hooks/use-hls', () => ({
  useHls: vi.fn(() => ({ levels: [], level: -1, setLevel: () => {} })),
}));

function setup(title: string) {
  const video = makeWatchVideo({ id: 7, title });
  mockFetch({
    '/api/site': () => makeSite({ name: 'Hunk Tube' }),
    '/api/auth/me': () => json({ error: 'Unauthorized', statusCode: 401 }, 401),
    '/api/videos/7': () => video,
    '/api/videos/7/related': () => ({ related: false, data: [] }),
    '/api/video/secure': () => ({ secureUrl: '/s/t,1900000000/videos/2024/06/video-7/index.m3u8', expiresAt: '2030-03-17T17:46:40.000Z' }),
    '/api/video/add-trending': noContent,
    '/api/video/increment-views': () => ({ views: 1 }),
  });
}

const TRICKY = `Tom & "Jerry" <b>'live'</b>`;
const ESCAPED = 'Tom &amp; &quot;Jerry&quot; &lt;b&gt;&#39;live&#39;&lt;/b&gt;';
// The site's configured origin (makeSite), which share links and embed codes are written with, not the page's.
const origin = () => 'https://test-tube.example';
const expectedCode = (title: string) =>
  `<iframe src="${origin()}/embed/7" width="640" height="360" frameborder="0" ` +
  `allow="autoplay; fullscreen; picture-in-picture" allowfullscreen title="${title}"></iframe>`;

async function openShare(title = TRICKY) {
  setup(title);
  const user = userEvent.setup();
  renderRoute('/video/7');
  await screen.findByRole('heading', { level: 1, name: title });
  const toggle = screen.getByRole('button', { name: 'Link & embed' });
  expect(toggle).toHaveAttribute('aria-expanded', 'false');
  expect(screen.queryByRole('button', { name: 'Copy embed code' })).not.toBeInTheDocument();
  await user.click(toggle);
  expect(toggle).toHaveAttribute('aria-expanded', 'true');
  return { user, toggle };
}

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
});

describe('watch page: Link & embed', () => {
  it('offers the public link and the embed code, each to copy (the post link is the Share link beside it)', async () => {
    await openShare('Pool party');

    expect(screen.getByRole('textbox', { name: 'Link' })).toHaveValue(`${origin()}/video/7`);
    expect(screen.getByRole('textbox', { name: 'Embed code' })).toHaveValue(expectedCode('Pool party'));
    expect(screen.getByRole('button', { name: 'Copy link' })).toBeInTheDocument();
    const share = screen.getByRole('link', { name: /^Share ?\(opens in a new tab\)$/ });
    expect(new URL(share.getAttribute('href') ?? '').searchParams.get('url')).toBe(`${origin()}/video/7`);
  });

  it('copies the embed code with the title escaped, so that another site gets one frame titled as the video', async () => {
    const { user } = await openShare();

    await user.click(screen.getByRole('button', { name: 'Copy embed code' }));

    const copied = await navigator.clipboard.readText();
    expect(copied).toBe(expectedCode(ESCAPED));
    expect(screen.getByRole('textbox', { name: 'Embed code' })).toHaveValue(copied);
    const frame = new DOMParser().parseFromString(copied, 'text/html').body;
    expect(frame.children).toHaveLength(1);
    expect(frame.querySelector('iframe')?.getAttribute('title')).toBe(TRICKY);
    expect(frame.querySelector('iframe')?.getAttribute('src')).toBe(`${origin()}/embed/7`);
    expect(screen.getByRole('status')).toHaveTextContent('Embed code copied');
  });

  it('copies the public link', async () => {
    const { user } = await openShare();

    await user.click(screen.getByRole('button', { name: 'Copy link' }));

    expect(await navigator.clipboard.readText()).toBe(`${origin()}/video/7`);
    expect(screen.getByRole('status')).toHaveTextContent('Link copied');
  });

  it('selects the code for a manual copy where the clipboard is refused', async () => {
    const { user } = await openShare();
    vi.spyOn(navigator.clipboard, 'writeText').mockRejectedValue(new DOMException('Denied', 'NotAllowedError'));

    await user.click(screen.getByRole('button', { name: 'Copy embed code' }));

    const field = screen.getByRole('textbox', { name: 'Embed code' }) as HTMLTextAreaElement;
    await waitFor(() => expect(field).toHaveFocus());
    expect(field.value.slice(field.selectionStart, field.selectionEnd)).toBe(expectedCode(ESCAPED));
    expect(screen.getByRole('status')).toHaveTextContent(/copy it with Ctrl\+C/);
  });

  it('closes on Escape, giving the focus back to its button', async () => {
    const { user, toggle } = await openShare();

    await user.keyboard('{Escape}');

    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByRole('button', { name: 'Copy embed code' })).not.toBeInTheDocument();
    expect(toggle).toHaveFocus();
  });
});
