import { EDIT_CONFLICT, editPrecondition } from '@hunktube/shared';
import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { json, sentBodies, sentHeaders } from '@/testing/mock-fetch';
import { callsTo, deferred, panelVideo, renderPanel } from './edit-video-testing';

let consoleError: ReturnType<typeof vi.spyOn>;

beforeEach(() => {
  consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
});

const notices = () => screen.getByRole('status', { name: 'Notifications' });
const field = (label: string) => screen.getByLabelText(label) as HTMLInputElement | HTMLTextAreaElement;

describe('edit panel: heading and client address', () => {
  it("shows the heading and a placeholder while the address loads, then the address", async () => {
    const answer = deferred<Response>();
    renderPanel({ routes: { '/api/get-client-ip': () => answer.promise } });

    expect(screen.getByRole('heading', { level: 1, name: 'Admin Mode - Edit Video' })).toBeInTheDocument();
    expect(screen.getByText('Fetching IP...')).toBeInTheDocument();

    answer.resolve(json({ ip: '198.51.100.23' }));
    expect(await screen.findByText('198.51.100.23')).toBeInTheDocument();
    expect(screen.queryByText('Fetching IP...')).not.toBeInTheDocument();
  });

  it("shows 'Unknown IP' when the answer has no ip", async () => {
    renderPanel({ routes: { '/api/get-client-ip': () => ({}) } });
    expect(await screen.findByText('Unknown IP')).toBeInTheDocument();
  });

  it("shows 'Error fetching IP' when the call fails", async () => {
    renderPanel({ routes: { '/api/get-client-ip': () => json({ error: 'Boom', statusCode: 500 }, 500) } });
    expect(await screen.findByText('Error fetching IP')).toBeInTheDocument();
  });

  it("shows 'Error fetching IP' when the server cannot be reached", async () => {
    renderPanel({
      routes: {
        '/api/get-client-ip': () => {
          throw new TypeError('Failed to fetch');
        },
      },
    });
    expect(await screen.findByText('Error fetching IP')).toBeInTheDocument();
  });
});

describe('edit panel: the form', () => {
  it("shows every field with the video's values", () => {
    renderPanel();

    expect(field('Slug')).toHaveValue('pool-party');
    expect(field('Title')).toHaveValue('Pool party');
    expect(field('ATG title')).toHaveValue('ATG pool party');
    expect(field('JTG title')).toHaveValue('JTG pool party');
    expect(field('Views')).toHaveValue(120);
    expect(field('Likes')).toHaveValue(9);
    expect(field('Featured')).toHaveValue(1);
    for (const label of ['Views', 'Likes', 'Featured']) expect(field(label)).toHaveAttribute('type', 'number');
    expect(field('Categories')).toHaveValue('Bears');
    expect(field('Performers')).toHaveValue('Alex Hunk\nSam Strong');
    expect(field('Categories')).toHaveAttribute('readonly');
    expect(field('Performers')).toHaveAttribute('readonly');
    expect(field('Upload date')).toHaveValue('2024-06-01T12:00:00.000Z');
    expect(field('Upload date')).toHaveAttribute('type', 'text');
    expect(field('Thumbnail URL')).toHaveValue('/thumbs/2024/06/pool-party/poster.jpg');
    expect(field('Video URL')).toHaveValue('/2024/06/pool-party.mp4');
  });

  it('saves the whole edited video and hands the saved one to the page only once the API agreed', async () => {
    const answer = deferred<Response>();
    const { fetchMock, onSaved, user, video } = renderPanel({
      routes: { '/api/admin/update-video': () => answer.promise },
    });

    const edits: [string, string][] = [
      ['Slug', 'pool-party-2'],
      ['Title', 'Pool party, again'],
      ['ATG title', 'ATG again'],
      ['JTG title', 'JTG again'],
      ['Views', '1500'],
      ['Likes', '33'],
      ['Featured', '0'],
      ['Upload date', '2024-07-02T08:00:00.000Z'],
      ['Thumbnail URL', '/thumbs/2024/06/pool-party/poster-2.jpg'],
      ['Video URL', '/2024/07/pool-party.mp4'],
    ];
    for (const [label, value] of edits) {
      await user.clear(field(label));
      await user.type(field(label), value);
    }
    expect(field('Title')).toHaveValue('Pool party, again');
    expect(field('Views')).toHaveValue(1500);

    await user.click(screen.getByRole('button', { name: 'Save Changes' }));

    const expected = {
      ...video,
      slug: 'pool-party-2',
      title: 'Pool party, again',
      atg_title: 'ATG again',
      jtg_title: 'JTG again',
      views: 1500,
      likes: 33,
      featured: 0,
      upload_date: '2024-07-02T08:00:00.000Z',
      thumbnail: '/thumbs/2024/06/pool-party/poster-2.jpg',
      url: '/2024/07/pool-party.mp4',
    };
    await waitFor(() => expect(sentBodies(fetchMock, '/api/admin/update-video')).toEqual([expected]));
    // The request runs: the button waits, and the page has heard nothing yet.
    expect(screen.getByRole('button', { name: 'Save Changes' })).toBeDisabled();
    expect(onSaved).not.toHaveBeenCalled();

    const saved = { ...expected, title: 'Pool party, again (saved)' };
    answer.resolve(json({ data: saved, error: null }));

    await waitFor(() => expect(onSaved).toHaveBeenCalledWith(saved));
    expect(onSaved).toHaveBeenCalledTimes(1);
    expect(within(notices()).getByText('Changes saved.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Save Changes' })).toBeEnabled();
    expect(field('Title')).toHaveValue('Pool party, again (saved)');
  });

  it("logs 'Unknown error' for a failed save without a message, tells the admin, and keeps the page's video", async () => {
    const { onSaved, user } = renderPanel({
      routes: { '/api/admin/update-video': () => new Response('<html>Bad gateway</html>', { status: 502 }) },
    });

    await user.clear(field('Title'));
    await user.type(field('Title'), 'Changed');
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));

    await waitFor(() => expect(consoleError).toHaveBeenCalledWith('Error updating video', 'Unknown error'));
    expect(within(notices()).getByText('The changes were not saved.')).toBeInTheDocument();
    expect(onSaved).not.toHaveBeenCalled();
    // The admin's edit is still there, to try again.
    expect(field('Title')).toHaveValue('Changed');
  });

  it('counts an error field in a 200 answer as a failure and logs its message', async () => {
    const { onSaved, user, video } = renderPanel({
      routes: { '/api/admin/update-video': () => ({ data: panelVideo(), error: 'Slug is already taken' }) },
    });

    await user.click(screen.getByRole('button', { name: 'Save Changes' }));

    await waitFor(() => expect(consoleError).toHaveBeenCalledWith('Error updating video', 'Slug is already taken'));
    expect(within(notices()).getByText('The changes were not saved: Slug is already taken.')).toBeInTheDocument();
    expect(onSaved).not.toHaveBeenCalled();
    expect(field('Slug')).toHaveValue(video.slug);
  });

  it("logs 'Unknown error' for an error field without a message", async () => {
    const { onSaved, user } = renderPanel({
      routes: { '/api/admin/update-video': () => ({ data: panelVideo(), error: true }) },
    });

    await user.click(screen.getByRole('button', { name: 'Save Changes' }));

    await waitFor(() => expect(consoleError).toHaveBeenCalledWith('Error updating video', 'Unknown error'));
    expect(within(notices()).getByText('The changes were not saved.')).toBeInTheDocument();
    expect(onSaved).not.toHaveBeenCalled();
  });

  it('does not send a count left empty', async () => {
    const { fetchMock, user } = renderPanel({ routes: { '/api/admin/update-video': () => ({ data: panelVideo(), error: null }) } });

    await user.clear(field('Views'));
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));

    expect(field('Views')).toBeInvalid();
    expect(callsTo(fetchMock, '/api/admin/update-video')).toHaveLength(0);
  });
});

describe('edit panel: categories and performers', () => {
  const categoryPicker = () => screen.getByRole('combobox', { name: 'Choose a category to add' });
  const performerPicker = () => screen.getByRole('combobox', { name: 'Choose a performer to add' });

  it('adds the chosen category with +, skips one already there, and keeps it local until Save Changes', async () => {
    const { fetchMock, user, video } = renderPanel({
      routes: { '/api/admin/update-video': (_url, init) => ({ data: JSON.parse(String(init?.body)), error: null }) },
    });
    await screen.findByRole('option', { name: 'Twinks' });

    await user.selectOptions(categoryPicker(), 'Twinks');
    await user.click(screen.getByRole('button', { name: 'Add category' }));
    expect(field('Categories')).toHaveValue('Bears\nTwinks');

    await user.selectOptions(categoryPicker(), 'Bears');
    await user.click(screen.getByRole('button', { name: 'Add category' }));
    await user.selectOptions(categoryPicker(), 'Twinks');
    await user.click(screen.getByRole('button', { name: 'Add category' }));
    expect(field('Categories')).toHaveValue('Bears\nTwinks');

    expect(callsTo(fetchMock, '/api/admin/update-video')).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    await waitFor(() =>
      expect(sentBodies(fetchMock, '/api/admin/update-video')).toEqual([
        {
          ...video,
          categories: [
            { id: 'bears', name: 'Bears' },
            { id: 'twinks', name: 'Twinks' },
          ],
        },
      ]),
    );
  });

  it('adds a performer the same way, skipping a duplicate', async () => {
    const { user } = renderPanel({ video: panelVideo({ performers: [{ id: 'alex-hunk', name: 'Alex Hunk' }] }) });
    await screen.findByRole('option', { name: 'Sam Strong' });

    await user.selectOptions(performerPicker(), 'Alex Hunk');
    await user.click(screen.getByRole('button', { name: 'Add performer' }));
    expect(field('Performers')).toHaveValue('Alex Hunk');

    await user.selectOptions(performerPicker(), 'Sam Strong');
    await user.click(screen.getByRole('button', { name: 'Add performer' }));
    expect(field('Performers')).toHaveValue('Alex Hunk\nSam Strong');
  });

  it('offers + only once something is chosen', async () => {
    renderPanel();
    await screen.findByRole('option', { name: 'Twinks' });
    expect(screen.getByRole('button', { name: 'Add category' })).toBeDisabled();
  });

  it('Create new: a cancelled prompt or an empty name sends nothing', async () => {
    const prompt = vi.spyOn(window, 'prompt').mockReturnValueOnce(null).mockReturnValueOnce('   ').mockReturnValueOnce('');
    const { fetchMock, user } = renderPanel();
    const createCategory = screen.getByRole('button', { name: 'Create new category' });
    expect(createCategory).toHaveTextContent(/^Create new/);

    await user.click(createCategory);
    await user.click(createCategory);
    await user.click(createCategory);

    expect(prompt).toHaveBeenCalledTimes(3);
    expect(callsTo(fetchMock, '/api/categories')).toHaveLength(0);
    expect(field('Categories')).toHaveValue('Bears');
  });

  it('Create new: posts {name, id}, refreshes the list and adds the new one to the video, local until saved', async () => {
    vi.spyOn(window, 'prompt').mockReturnValue('Big Muscle Men');
    let created = false;
    const { fetchMock, user, video } = renderPanel({
      routes: {
        '/api/categories': (_url, init) => {
          if (init?.method === 'POST') {
            created = true;
            return json({ id: 'big-muscle-men', name: 'Big Muscle Men' }, 201);
          }
          return { data: created ? [{ id: 'big-muscle-men', name: 'Big Muscle Men', video_count: 0 }] : [] };
        },
        '/api/admin/update-video': (_url, init) => ({ data: JSON.parse(String(init?.body)), error: null }),
      },
    });

    await user.click(screen.getByRole('button', { name: 'Create new category' }));

    expect(await screen.findByRole('option', { name: 'Big Muscle Men' })).toBeInTheDocument();
    expect(
      callsTo(fetchMock, '/api/categories').map(([, init]) => JSON.parse(String(init?.body))),
    ).toEqual([{ name: 'Big Muscle Men', id: 'Big Muscle Men' }]);
    expect(field('Categories')).toHaveValue('Bears\nBig Muscle Men');
    expect(callsTo(fetchMock, '/api/admin/update-video')).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    await waitFor(() =>
      expect(sentBodies(fetchMock, '/api/admin/update-video')).toEqual([
        {
          ...video,
          categories: [
            { id: 'bears', name: 'Bears' },
            { id: 'big-muscle-men', name: 'Big Muscle Men' },
          ],
        },
      ]),
    );
  });

  it('Create new performer posts to /api/performers', async () => {
    vi.spyOn(window, 'prompt').mockReturnValue(' Chris Power ');
    const { fetchMock, user } = renderPanel({
      routes: {
        '/api/performers': (_url, init) =>
          init?.method === 'POST' ? json({ id: 'chris-power', name: 'Chris Power' }, 201) : { data: [] },
      },
    });

    await user.click(screen.getByRole('button', { name: 'Create new performer' }));

    await waitFor(() => expect(field('Performers')).toHaveValue('Alex Hunk\nSam Strong\nChris Power'));
    expect(callsTo(fetchMock, '/api/performers').map(([, init]) => JSON.parse(String(init?.body)))).toEqual([
      { name: 'Chris Power', id: 'Chris Power' },
    ]);
  });

  it('Create new: a failed answer only logs to the console', async () => {
    vi.spyOn(window, 'prompt').mockReturnValue('Bears');
    const { fetchMock, user } = renderPanel({
      routes: {
        '/api/categories': (_url, init) =>
          init?.method === 'POST'
            ? json({ error: 'Category already exists', statusCode: 409 }, 409)
            : { data: [{ id: 'bears', name: 'Bears', video_count: 4 }] },
      },
    });
    await screen.findByRole('option', { name: 'Bears' });

    await user.click(screen.getByRole('button', { name: 'Create new category' }));

    await waitFor(() => expect(consoleError).toHaveBeenCalledWith('Error creating category', 'Category already exists'));
    expect(callsTo(fetchMock, '/api/categories')).toHaveLength(1);
    expect(notices()).toBeEmptyDOMElement();
    expect(field('Categories')).toHaveValue('Bears');
  });
});

describe('edit panel: no lost updates', () => {
  const ifMatch = (fetchMock: ReturnType<typeof renderPanel>['fetchMock']) => sentHeaders(fetchMock, '/api/admin/update-video', 'If-Match');

  it('saves with If-Match naming the version it was edited from, then from the saved version', async () => {
    const video = panelVideo();
    const saved = { ...video, title: 'Saved once' };
    const { fetchMock, user } = renderPanel({ video, routes: { '/api/admin/update-video': () => ({ data: saved, error: null }) } });

    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    await waitFor(() => expect(ifMatch(fetchMock)).toEqual([editPrecondition(video)]));
    expect(ifMatch(fetchMock)[0]).toMatch(/^"[0-9a-f]{16}-120-9"$/);

    await waitFor(() => expect(field('Title')).toHaveValue('Saved once'));
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    await waitFor(() => expect(ifMatch(fetchMock)).toEqual([editPrecondition(video), editPrecondition(saved)]));
  });

  it('offers to reload when another admin saved the video in between, and saves from the reloaded version', async () => {
    const video = panelVideo();
    const theirs = { ...video, title: 'Their title', views: 140 };
    let answer = 0;
    const { fetchMock, user, onSaved } = renderPanel({
      video,
      routes: {
        '/api/admin/update-video': () =>
          ++answer === 1 ? json({ error: EDIT_CONFLICT, statusCode: 409 }, 409) : { data: { ...theirs, atg_title: 'Mine' }, error: null },
        '/api/videos/7': () => theirs,
      },
    });

    await user.clear(field('ATG title'));
    await user.type(field('ATG title'), 'Mine');
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(EDIT_CONFLICT);
    expect(onSaved).not.toHaveBeenCalled();
    expect(field('ATG title')).toHaveValue('Mine'); // nothing is thrown away until the admin says so

    await user.click(within(alert).getByRole('button', { name: 'Reload video' }));
    await waitFor(() => expect(field('Title')).toHaveValue('Their title'));
    expect(field('ATG title')).toHaveValue('ATG pool party');
    expect(field('Views')).toHaveValue(140);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();

    await user.clear(field('ATG title'));
    await user.type(field('ATG title'), 'Mine');
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    await waitFor(() => expect(onSaved).toHaveBeenCalledTimes(1));
    expect(ifMatch(fetchMock)).toEqual([editPrecondition(video), editPrecondition(theirs)]);
  });

  it('shows no reload offer for other failures', async () => {
    const { user } = renderPanel({ routes: { '/api/admin/update-video': () => json({ error: 'Slug is already taken by another video', statusCode: 409 }, 409) } });
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    await waitFor(() => expect(within(notices()).getByText(/Slug is already taken/)).toBeInTheDocument());
    expect(screen.queryByRole('button', { name: 'Reload video' })).not.toBeInTheDocument();
  });
});

describe('edit panel: chapters', () => {
  /** Puts a player at `seconds` in the preview frame, as the embed page would have it. */
  const previewAt = (seconds: number) => {
    const frame = screen.getByTitle('Video preview') as HTMLIFrameElement;
    const doc = frame.contentDocument!;
    const video = doc.createElement('video');
    Object.defineProperty(video, 'currentTime', { value: seconds });
    // jsdom loads no page into the frame: its document is made to hold the player.
    if (!doc.documentElement) doc.appendChild(doc.createElement('html'));
    doc.documentElement.replaceChildren(video);
  };

  it('marks a chapter at the preview player’s position, keeps them in order, and saves them with the video', async () => {
    const { fetchMock, user, video } = renderPanel({
      video: panelVideo({ duration: 600, chapters: [{ start: 30, title: 'Intro' }] }),
      routes: { '/api/admin/update-video': (_url, init) => ({ data: JSON.parse(String(init?.body)), error: null }) },
    });
    expect(screen.getByTitle('Video preview')).toHaveAttribute('src', `/embed/${video.id}`);

    previewAt(95.8);
    await user.click(screen.getByRole('button', { name: 'Mark here' }));
    previewAt(10.2);
    await user.click(screen.getByRole('button', { name: 'Mark here' }));
    const starts = () => screen.getAllByLabelText('Chapter start (seconds)').map((input) => (input as HTMLInputElement).value);
    expect(starts()).toEqual(['10', '30', '95']);
    // The new chapter's title has the focus, to be named at once.
    await waitFor(() => expect(screen.getAllByLabelText('Chapter title')[0]).toHaveFocus());
    await user.keyboard('Locker room');
    await user.type(screen.getAllByLabelText('Chapter title')[2], 'Pool');
    await user.click(screen.getByRole('button', { name: 'Remove chapter Intro' }));

    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    await waitFor(() => expect(sentBodies(fetchMock, '/api/admin/update-video')).toHaveLength(1));
    expect(sentBodies(fetchMock, '/api/admin/update-video')[0]).toMatchObject({ chapters: [{ start: 10, title: 'Locker room' }, { start: 95, title: 'Pool' }] });
  });

  it('refuses to save a chapter without a title or past the end, and stops at 50', async () => {
    const { fetchMock, user } = renderPanel({ video: panelVideo({ duration: 600, chapters: [] }) });
    await user.click(screen.getByRole('button', { name: 'Add chapter' }));
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(callsTo(fetchMock, '/api/admin/update-video')).toHaveLength(0);
    await user.type(screen.getByLabelText('Chapter title'), 'Named');
    await user.clear(screen.getByLabelText('Chapter start (seconds)'));
    await user.type(screen.getByLabelText('Chapter start (seconds)'), '600');
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(callsTo(fetchMock, '/api/admin/update-video')).toHaveLength(0);

    const fifty = Array.from({ length: 50 }, (_, i) => ({ start: i, title: `c${i}` }));
    renderPanel({ video: panelVideo({ duration: 600, chapters: fifty }) });
    expect(screen.getAllByRole('button', { name: 'Mark here' }).at(-1)).toBeDisabled();
    expect(screen.getAllByRole('button', { name: 'Add chapter' }).at(-1)).toBeDisabled();
  });
});
