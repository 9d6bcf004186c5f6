import { editPrecondition, TAGS_PER_VIDEO_MAX } from '@hunktube/shared';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Video } from '@/lib/api/types';
import { sentBodies, sentHeaders } from '@/testing/mock-fetch';
import { callsTo, panelVideo, renderPanel } from './edit-video-testing';

const tagBox = () => screen.getByRole('combobox', { name: 'Add a tag' });
const chips = () => within(screen.getByRole('list', { name: 'Tags of this video' })).getAllByRole('listitem').map((chip) => chip.textContent);
const echo = { '/api/admin/update-video': (_url: URL, init?: { body?: unknown }) => ({ data: JSON.parse(String(init?.body)), error: null }) };

describe('edit panel: tags', () => {
  it("shows the video's tags as chips, and suggests the site's other tags", async () => {
    renderPanel({ video: panelVideo({ tags: [{ id: 'muscle', name: 'Muscle' }] }) });

    expect(chips()).toEqual(['Muscle×']);
    expect(screen.getByRole('button', { name: 'Remove tag Muscle' })).toBeInTheDocument();
    const list = document.getElementById(tagBox().getAttribute('list') ?? '');
    await waitFor(() => expect([...(list?.querySelectorAll('option') ?? [])].map((option) => option.value)).toEqual(['Beach', 'Leather']));
    expect(screen.getByText(/1 of 30\./)).toBeInTheDocument();
  });

  it('says so when the video has none', () => {
    renderPanel();
    expect(screen.queryByRole('list', { name: 'Tags of this video' })).not.toBeInTheDocument();
    expect(screen.getByText('No tags yet.')).toBeInTheDocument();
  });

  it('adds a tag with Enter, a comma or Add, without saving the form, as the known tag where the site has it', async () => {
    const { fetchMock, user } = renderPanel();
    await screen.findByText(/0 of 30/);
    await waitFor(() => expect(document.querySelectorAll('datalist option')).toHaveLength(3));

    await user.type(tagBox(), 'beach{Enter}');
    expect(chips()).toEqual(['Beach×']);
    expect(tagBox()).toHaveValue('');
    await user.type(tagBox(), 'Sunset Glow,');
    await user.type(tagBox(), 'Gym');
    await user.click(screen.getByRole('button', { name: 'Add tag' }));
    expect(chips()).toEqual(['Beach×', 'Sunset Glow×', 'Gym×']);
    // A list typed or pasted with commas adds each.
    await user.type(tagBox(), ' Oiled ,, Tanned ');
    await user.click(screen.getByRole('button', { name: 'Add tag' }));
    expect(chips()).toEqual(['Beach×', 'Sunset Glow×', 'Gym×', 'Oiled×', 'Tanned×']);

    // Enter in the tag box never submits the form: nothing is saved until Save Changes.
    await user.type(tagBox(), '{Enter}');
    expect(callsTo(fetchMock, '/api/admin/update-video')).toHaveLength(0);
    expect(screen.getByText(/5 of 30\./)).toBeInTheDocument();
  });

  it('does not add a tag twice, by the slug rule, and says so', async () => {
    const { user } = renderPanel({ video: panelVideo({ tags: [{ id: 'big-muscle', name: 'Big Muscle' }] }) });

    await user.type(tagBox(), 'big   MUSCLE!{Enter}');
    expect(chips()).toEqual(['Big Muscle×']);
    expect(screen.getByRole('alert')).toHaveTextContent('“big MUSCLE!” is already a tag of this video.');
    await user.type(tagBox(), 'Beach, beach{Enter}');
    expect(chips()).toEqual(['Big Muscle×', 'Beach×']);
  });

  it('refuses a name over the length limit, one without a letter or digit, and one tag past the limit, keeping them in the box', async () => {
    const full = Array.from({ length: TAGS_PER_VIDEO_MAX }, (_, i) => ({ id: `tag-${i}`, name: `Tag ${i}` }));
    const first = renderPanel();

    await first.user.click(tagBox());
    await first.user.paste('x'.repeat(101));
    await first.user.keyboard('{Enter}');
    expect(screen.getByRole('alert')).toHaveTextContent('A tag has at most 100 characters.');
    expect(tagBox()).toHaveValue('x'.repeat(101));
    expect(tagBox()).toHaveAttribute('aria-invalid', 'true');

    await first.user.clear(tagBox());
    await first.user.type(tagBox(), '!!!{Enter}');
    expect(screen.getByRole('alert')).toHaveTextContent('“!!!” needs a letter or a digit (a–z, 0–9).');
    expect(screen.getByText('No tags yet.')).toBeInTheDocument();
    first.unmount();

    const second = renderPanel({ video: panelVideo({ tags: full }) });
    await second.user.type(tagBox(), 'One more{Enter}');
    expect(screen.getByRole('alert')).toHaveTextContent('A video has at most 30 tags: remove one to add another.');
    expect(tagBox()).toHaveValue('One more');
    expect(chips()).toHaveLength(TAGS_PER_VIDEO_MAX);

    // Room made, it goes in.
    await second.user.click(screen.getByRole('button', { name: 'Remove tag Tag 0' }));
    await second.user.click(screen.getByRole('button', { name: 'Add tag' }));
    expect(chips()).toHaveLength(TAGS_PER_VIDEO_MAX);
    expect(chips().at(-1)).toBe('One more×');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('removes a chip with its button, keeping the focus in the tag box', async () => {
    const { user } = renderPanel({ video: panelVideo({ tags: [{ id: 'muscle', name: 'Muscle' }, { id: 'beach', name: 'Beach' }] }) });

    await user.click(screen.getByRole('button', { name: 'Remove tag Muscle' }));
    expect(chips()).toEqual(['Beach×']);
    expect(tagBox()).toHaveFocus();
  });

  it('saves the chips with the video as {id, name}, new ones by the id the API will give them, from the version read', async () => {
    const video = panelVideo({ tags: [{ id: 'muscle', name: 'Muscle' }, { id: 'beach', name: 'Beach' }] });
    const { fetchMock, user, onSaved } = renderPanel({ video, routes: echo });

    await user.click(screen.getByRole('button', { name: 'Remove tag Beach' }));
    await user.type(tagBox(), 'Sunset Glow{Enter}');
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));

    const expected: Video = { ...video, tags: [{ id: 'muscle', name: 'Muscle' }, { id: 'sunset-glow', name: 'Sunset Glow' }] };
    await waitFor(() => expect(sentBodies(fetchMock, '/api/admin/update-video')).toEqual([expected]));
    expect(sentHeaders(fetchMock, '/api/admin/update-video', 'If-Match')).toEqual([editPrecondition(video)]);
    await waitFor(() => expect(onSaved).toHaveBeenCalledWith(expected));
    // The next save is made from the saved version, tags included.
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    await waitFor(() => expect(sentHeaders(fetchMock, '/api/admin/update-video', 'If-Match')).toEqual([editPrecondition(video), editPrecondition(expected)]));
  });

  it('shows the tags as the API saved them (a synonym becomes its tag), and reads the tags again for the suggestions', async () => {
    const video = panelVideo();
    const { fetchMock, user } = renderPanel({
      video,
      routes: {
        '/api/admin/update-video': (_url, init) => ({ data: { ...JSON.parse(String(init?.body)), tags: [{ id: 'muscle', name: 'Muscle' }] }, error: null }),
      },
    });
    await waitFor(() => expect(callsTo(fetchMock, '/api/tags', 'GET')).toHaveLength(1));

    await user.type(tagBox(), 'Muscled{Enter}');
    expect(chips()).toEqual(['Muscled×']);
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));

    await waitFor(() => expect(chips()).toEqual(['Muscle×']));
    await waitFor(() => expect(callsTo(fetchMock, '/api/tags', 'GET')).toHaveLength(2));
  });
});
