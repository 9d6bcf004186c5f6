import { render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { Bootstrap } from '@/lib/bootstrap';
import { readBootstrap } from '@/lib/bootstrap';
import { makePage, makeSite, makeUser } from '@/testing/data';
import { json, mockFetch, requestedUrls } from '@/testing/mock-fetch';
import { App } from './app';

/** The page as the server sends it: its bootstrap block in the head (docs/web-client.md › "The bootstrap block"). */
function serverPage(bootstrap: Bootstrap | string) {
  const block = document.createElement('script');
  block.type = 'application/json';
  block.id = 'bootstrap';
  block.textContent = typeof bootstrap === 'string' ? bootstrap : JSON.stringify(bootstrap);
  document.head.append(block);
}

function setup() {
  return mockFetch({
    '/api/site': () => makeSite({ name: 'Hunk Tube' }),
    '/api/auth/me': () => json({ error: 'Unauthorized', statusCode: 401 }, 401),
    '/api/videos': () => makePage([]),
  });
}

afterEach(() => document.getElementById('bootstrap')?.remove());

describe('the bootstrap block', () => {
  it('lets a guest load a page without asking GET /api/auth/me (which answers a guest 401) or /api/site', async () => {
    serverPage({ site: makeSite({ name: 'Hunk Tube' }), user: null });
    const fetchMock = setup();
    render(<App />);

    expect(await screen.findByRole('link', { name: 'Log in' })).toBeInTheDocument();
    expect(screen.getAllByText('Hunk Tube').length).toBeGreaterThan(0);
    await waitFor(() => expect(requestedUrls(fetchMock, '/api/videos').length).toBeGreaterThan(0));
    expect(requestedUrls(fetchMock, '/api/auth/me')).toHaveLength(0);
    expect(requestedUrls(fetchMock, '/api/site')).toHaveLength(0);
  });

  it("shows the member the server named, without asking who is signed in", async () => {
    serverPage({ site: makeSite({ name: 'Hunk Tube' }), user: makeUser({}, { display_name: 'Sam' }) });
    const fetchMock = setup();
    render(<App />);

    expect(await screen.findByText('Sam')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Log in' })).not.toBeInTheDocument();
    expect(requestedUrls(fetchMock, '/api/auth/me')).toHaveLength(0);
  });

  it('asks the API when the page does not say who is signed in (no block, or the server could not tell)', async () => {
    for (const page of [null, { site: makeSite({ name: 'Hunk Tube' }) }]) {
      if (page) serverPage(page);
      const fetchMock = setup();
      const { unmount } = render(<App />);
      expect(await screen.findByRole('link', { name: 'Log in' })).toBeInTheDocument();
      expect(requestedUrls(fetchMock, '/api/auth/me')).toHaveLength(1);
      unmount();
      document.getElementById('bootstrap')?.remove();
    }
  });

  it('ignores a block that is not JSON, or not the data block', () => {
    serverPage('{"user": nul');
    expect(readBootstrap()).toEqual({});
    document.getElementById('bootstrap')?.remove();
    serverPage({ user: { id: 3 } as never, site: { name: 'x' } as never });
    expect(readBootstrap()).toEqual({});
    document.getElementById('bootstrap')?.setAttribute('type', 'text/javascript');
    expect(readBootstrap()).toEqual({});
  });
});
