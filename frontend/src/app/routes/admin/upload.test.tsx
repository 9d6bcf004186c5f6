import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Job } from '@/lib/api/types';
import { makeSite, makeUser } from '@/testing/data';
import { json, mockFetch, requestedUrls } from '@/testing/mock-fetch';
import { renderRoute } from '@/testing/render-route';

type Routes = Parameters<typeof mockFetch>[0];

const admin = makeUser({}, { role_id: 'admin' });

/**
 * Stands in for XMLHttpRequest: records what the page sends, and lets a test play the browser's part (upload
 * progress events, the answer, a network failure).
 */
class FakeXhr {
  static sent: FakeXhr[] = [];

  method = '';
  url = '';
  withCredentials = false;
  headers: Record<string, string> = {};
  body: FormData | null = null;
  aborted = false;
  status = 0;
  statusText = '';
  responseText = '';
  upload: { onprogress: ((event: ProgressEvent) => void) | null } = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;

  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name] = value;
  }
  send(body: FormData) {
    this.body = body;
    FakeXhr.sent.push(this);
  }
  abort() {
    this.aborted = true;
    act(() => this.onabort?.());
  }

  progress(loaded: number, total: number) {
    act(() => this.upload.onprogress?.({ loaded, total, lengthComputable: true } as ProgressEvent));
  }
  respond(status: number, body: unknown, statusText = '') {
    this.status = status;
    this.statusText = statusText;
    this.responseText = typeof body === 'string' ? body : JSON.stringify(body);
    act(() => this.onload?.());
  }
  fail() {
    act(() => this.onerror?.());
  }
}

const lastXhr = () => {
  const xhr = FakeXhr.sent.at(-1);
  if (!xhr) throw new Error('nothing was uploaded');
  return xhr;
};

const job = (overrides: Partial<Job> = {}): Job => ({
  id: 55,
  video_id: 42,
  kind: 'ingest',
  state: 'queued',
  progress: 0,
  error: null,
  ...overrides,
});

function setup(routes: Routes = {}) {
  return mockFetch({
    '/api/site': () => makeSite(),
    '/api/auth/me': () => ({ user: admin }),
    '/api/categories': () => ({
      data: [
        { id: 'gym', name: 'Gym', video_count: 3 },
        { id: 'pool', name: 'Pool', video_count: 1 },
        { id: 'beach', name: 'Beach', video_count: 0 },
      ],
    }),
    '/api/performers': () => ({ data: [{ id: 'alex', name: 'Alex', video_count: 2 }] }),
    '/api/tags': () => ({ data: [{ id: 'muscle', name: 'Muscle', video_count: 4 }] }),
    '/api/admin/jobs/55': () => ({ data: job({ state: 'done', progress: 100 }) }),
    ...routes,
  });
}

const clip = () => new File(['x'.repeat(1000)], 'pool-party.mp4', { type: 'video/mp4' });

/** Fills the form with a file and a title, then sends it. */
async function upload(title = 'Pool party', user = userEvent.setup()) {
  await screen.findByRole('heading', { level: 1, name: 'Upload a video' });
  await user.upload(screen.getByLabelText('Video file'), clip());
  await user.type(screen.getByRole('textbox', { name: 'Title' }), title);
  await user.click(screen.getByRole('button', { name: 'Upload' }));
  return user;
}

beforeEach(() => {
  FakeXhr.sent = [];
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
});

afterEach(() => {
  vi.useRealTimers();
});

describe('admin upload: the form', () => {
  it('asks for a file and a title before sending anything', async () => {
    setup();
    const user = userEvent.setup();

    renderRoute('/admin/upload');
    await user.click(await screen.findByRole('button', { name: 'Upload' }));

    expect(screen.getByText('Choose a video file to upload.')).toBeInTheDocument();
    expect(screen.getByText('Enter a title.')).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Title' })).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByRole('button', { name: 'Choose a video' })).toHaveFocus();
    expect(FakeXhr.sent).toHaveLength(0);

    await user.upload(screen.getByLabelText('Video file'), clip());
    expect(screen.queryByText('Choose a video file to upload.')).not.toBeInTheDocument();
    await user.type(screen.getByRole('textbox', { name: 'Title' }), '   ');
    await user.click(screen.getByRole('button', { name: 'Upload' }));
    expect(screen.getByText('Enter a title.')).toBeInTheDocument();
    expect(FakeXhr.sent).toHaveLength(0);
  });

  it('limits the titles to 300 characters', async () => {
    setup();

    renderRoute('/admin/upload');

    expect(await screen.findByRole('textbox', { name: 'Title' })).toHaveAttribute('maxLength', '300');
    expect(screen.getByRole('textbox', { name: 'ATG title' })).toHaveAttribute('maxLength', '300');
    expect(screen.getByRole('textbox', { name: 'JTG title' })).toHaveAttribute('maxLength', '300');
  });

  it('takes a dropped video, shows the drag over the zone, and refuses a file that is not a video', async () => {
    setup();

    renderRoute('/admin/upload');
    await screen.findByRole('heading', { level: 1, name: 'Upload a video' });
    const zone = screen.getByTestId('upload-drop-zone');

    fireEvent.dragEnter(zone, { dataTransfer: { types: ['Files'], files: [] } });
    expect(zone).toHaveClass('upload-drop--active');
    expect(within(zone).getByText('Drop the video to choose it')).toBeInTheDocument();

    const text = new File(['hello'], 'notes.txt', { type: 'text/plain' });
    fireEvent.drop(zone, { dataTransfer: { types: ['Files'], files: [text] } });
    expect(zone).not.toHaveClass('upload-drop--active');
    expect(screen.getByRole('alert')).toHaveTextContent('“notes.txt” is not a video file.');

    fireEvent.drop(zone, { dataTransfer: { types: ['Files'], files: [clip()] } });
    expect(within(zone).getByText('pool-party.mp4')).toBeInTheDocument();
    expect(within(zone).getByText('(1.0 KB)')).toBeInTheDocument();
    expect(screen.queryByText(/is not a video file/)).not.toBeInTheDocument();
  });

  it('sends the file and the fields as multipart, with the ids as comma-separated lists', async () => {
    setup();
    const user = userEvent.setup();

    renderRoute('/admin/upload');
    await screen.findByRole('heading', { level: 1, name: 'Upload a video' });
    await user.upload(screen.getByLabelText('Video file'), clip());
    await user.type(screen.getByRole('textbox', { name: 'Title' }), '  Pool party  ');
    await user.type(screen.getByRole('textbox', { name: 'JTG title' }), 'Pool party JTG');
    const featured = screen.getByRole('spinbutton', { name: 'Featured' });
    await user.clear(featured);
    await user.type(featured, '2');
    const categories = within(screen.getByRole('group', { name: /^Categories/ }));
    await user.click(await categories.findByRole('checkbox', { name: 'Pool' }));
    await user.click(categories.getByRole('checkbox', { name: 'Gym' }));
    await user.click(await screen.findByRole('checkbox', { name: 'Alex' }));
    expect(screen.getByRole('group', { name: 'Categories (2 chosen)' })).toBeInTheDocument();
    // Tags by name: a known one as the site names it, a new one as typed.
    await user.type(screen.getByRole('combobox', { name: 'Add a tag' }), 'muscle, Poolside{Enter}');
    expect(screen.getByRole('button', { name: 'Remove tag Poolside' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Upload' }));

    const xhr = lastXhr();
    expect(xhr.method).toBe('POST');
    expect(xhr.url).toBe('/api/admin/videos');
    expect(xhr.withCredentials).toBe(true);
    const body = xhr.body as FormData;
    expect([...body.keys()].sort()).toEqual(['categories', 'featured', 'file', 'jtg_title', 'performers', 'tags', 'title']);
    expect(body.get('tags')).toBe('Muscle,Poolside');
    expect(body.get('title')).toBe('Pool party');
    expect(body.get('jtg_title')).toBe('Pool party JTG');
    expect(body.get('featured')).toBe('2');
    expect(body.get('categories')).toBe('pool,gym');
    expect(body.get('performers')).toBe('alex');
    expect((body.get('file') as File).name).toBe('pool-party.mp4');
  });
});

describe('admin upload: progress and answer', () => {
  it('shows the bytes sent, then follows the job until done with links to the video', async () => {
    // The page's clock is the test's: each read of the job is a step of the clock, not a second of waiting. The
    // clock still moves with real time too, for findBy* and waitFor.
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let reads = 0;
    const fetchMock = setup({
      '/api/admin/jobs/55': () => {
        reads += 1;
        return { data: reads === 1 ? job({ state: 'running', progress: 40 }) : job({ state: 'done', progress: 100 }) };
      },
    });

    renderRoute('/admin/upload');
    await upload(undefined, userEvent.setup({ advanceTimers: vi.advanceTimersByTime }));

    const xhr = lastXhr();
    xhr.progress(250, 1000);
    const bar = screen.getByRole('progressbar', { name: 'Upload progress' });
    expect(bar).toHaveAttribute('value', '25');
    expect(screen.getByText('25%')).toBeInTheDocument();
    expect(screen.getByText('Uploading: 250 bytes of 1.0 KB')).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Title' })).toBeDisabled();

    xhr.progress(1000, 1000);
    expect(screen.getByText('100%')).toBeInTheDocument();
    expect(screen.getByText('Sent. Waiting for the server to accept the file…')).toBeInTheDocument();

    xhr.respond(202, { id: 42, job_id: 55 });

    expect(await screen.findByText('Uploaded “Pool party” (video 42).')).toBeInTheDocument();
    expect(await screen.findByRole('progressbar', { name: 'Processing progress' })).toHaveAttribute('value', '40');
    expect(screen.getByText('Processing')).toBeInTheDocument();

    await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(await screen.findByRole('link', { name: 'Watch the video' })).toHaveAttribute('href', '/video/42');
    expect(screen.getByRole('link', { name: 'Edit' })).toHaveAttribute('href', '/admin/videos/42');
    expect(screen.getByText('The video is ready.')).toBeInTheDocument();
    // A settled job is not asked about again.
    const settled = requestedUrls(fetchMock, '/api/admin/jobs/55').length;
    await act(() => vi.advanceTimersByTimeAsync(3000));
    expect(requestedUrls(fetchMock, '/api/admin/jobs/55')).toHaveLength(settled);
  });

  it('shows the error of a failed job, and Retry queues it again and keeps following it', async () => {
    let retried = false;
    const fetchMock = setup({
      '/api/admin/jobs/55': () => ({
        data: retried
          ? job({ state: 'done', progress: 100 })
          : job({ state: 'failed', progress: 30, error: 'ffmpeg exited with code 1' }),
      }),
      '/api/admin/jobs/55/retry': () => {
        retried = true;
        return json({ error: null }, 202);
      },
    });

    renderRoute('/admin/upload');
    const user = await upload();
    lastXhr().respond(202, { id: 42, job_id: 55 });

    expect(await screen.findByText('ffmpeg exited with code 1')).toBeInTheDocument();
    expect(screen.getByText('Failed')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Retry' }));

    expect(await screen.findByRole('link', { name: 'Watch the video' })).toHaveAttribute('href', '/video/42');
    const retries = fetchMock.mock.calls.filter(([url]) => String(url) === '/api/admin/jobs/55/retry');
    expect(retries).toHaveLength(1);
    expect(retries[0][1]?.method).toBe('POST');
    expect(screen.queryByText('ffmpeg exited with code 1')).not.toBeInTheDocument();
  });

  it('offers another upload once the job is followed', async () => {
    setup();

    renderRoute('/admin/upload');
    const user = await upload();
    lastXhr().respond(202, { id: 42, job_id: 55 });
    await user.click(await screen.findByRole('button', { name: 'Upload another video' }));

    expect(screen.getByRole('textbox', { name: 'Title' })).toHaveValue('');
    expect(screen.getByRole('button', { name: 'Choose a video' })).toBeInTheDocument();
  });
});

describe('admin upload: failures keep the form', () => {
  it('cancels the upload', async () => {
    setup();

    renderRoute('/admin/upload');
    const user = await upload();
    lastXhr().progress(100, 1000);
    await user.click(screen.getByRole('button', { name: 'Cancel' }));

    expect(lastXhr().aborted).toBe(true);
    expect(await screen.findByText('Upload cancelled. The form is kept: upload again when ready.')).toBeInTheDocument();
    expect(screen.queryByRole('progressbar', { name: 'Upload progress' })).not.toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Title' })).toHaveValue('Pool party');
    expect(screen.getByText('pool-party.mp4')).toBeInTheDocument();
  });

  it('cancels the upload when the admin leaves the page', async () => {
    setup({ '/api/admin/jobs': () => ({ data: [] }) });

    const { router } = renderRoute('/admin/upload');
    const user = await upload();
    lastXhr().progress(100, 1000);
    await user.click(within(screen.getByRole('navigation', { name: 'Admin' })).getByRole('link', { name: 'Jobs' }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/jobs'));
    await waitFor(() => expect(lastXhr().aborted).toBe(true));
  });

  it.each([
    [413, '<html>413 Request Entity Too Large</html>', 'This file is too large for the server. Choose a smaller video.'],
    [
      415,
      { error: 'The file is not a video (MP4, MOV, MKV, WebM, AVI, MPEG-TS or FLV)', statusCode: 415 },
      'The server did not accept this file as a video. Choose an MP4, MOV, MKV, WebM, AVI, MPEG-TS or FLV file.',
    ],
    [400, { error: 'Unknown category: gym', statusCode: 400 }, 'Unknown category: gym'],
  ])('explains a %i answer', async (status, body, message) => {
    setup();

    renderRoute('/admin/upload');
    await upload();
    lastXhr().respond(status, body);

    expect(await screen.findByText(message)).toHaveAttribute('role', 'alert');
    expect(screen.getByRole('textbox', { name: 'Title' })).toHaveValue('Pool party');
    expect(screen.getByRole('textbox', { name: 'Title' })).toBeEnabled();
    expect(screen.getByText('pool-party.mp4')).toBeInTheDocument();
  });

  it('explains a network failure, and sends again on the next try', async () => {
    setup();

    renderRoute('/admin/upload');
    const user = await upload();
    lastXhr().fail();

    expect(
      await screen.findByText('The upload did not reach the server. Check the connection and try again.'),
    ).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Upload' }));
    expect(FakeXhr.sent).toHaveLength(2);
    expect(screen.queryByText(/did not reach the server/)).not.toBeInTheDocument();
  });
});
