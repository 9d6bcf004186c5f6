import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { Taxon } from '@/lib/api/types';
import { makeSite, makeUser } from '@/testing/data';
import { json, mockFetch, noContent, requestedUrls, sentBodies } from '@/testing/mock-fetch';
import { renderRoute } from '@/testing/render-route';

type Routes = Parameters<typeof mockFetch>[0];

const admin = makeUser({}, { role_id: 'admin' });

function setup(routes: Routes = {}) {
  const categories: Taxon[] = [
    { id: 'big-muscle-men', name: 'Big Muscle Men', video_count: 12 },
    { id: 'gym', name: 'Gym', video_count: 3 },
  ];
  const performers: Taxon[] = [{ id: 'alex-stone', name: 'Alex Stone', video_count: 5 }];
  const tags: Taxon[] = [
    { id: 'muscle', name: 'Muscle', video_count: 4 },
    { id: 'poolside', name: 'Poolside', video_count: 1 },
  ];
  const synonyms = [{ alias: 'muscled', tag: { id: 'muscle', name: 'Muscle' } }];
  return mockFetch({
    '/api/site': () => makeSite(),
    '/api/auth/me': () => ({ user: admin }),
    '/api/categories': (_url, init) => {
      if (init?.method === 'POST') {
        const { name } = JSON.parse(String(init.body)) as { name: string };
        const created = { id: name.toLowerCase().replace(/[^a-z0-9]+/g, '-'), name };
        categories.push({ ...created, video_count: 0 });
        return json(created, 201);
      }
      return { data: categories };
    },
    '/api/performers': () => ({ data: performers }),
    '/api/tags': () => ({ data: tags }),
    '/api/admin/tag-synonyms': (_url, init) => {
      if (init?.method === 'POST') {
        const { alias, tag } = JSON.parse(String(init.body)) as { alias: string; tag: string };
        const target = tags.find((t) => t.id === tag);
        if (!target) return json({ error: 'Tag not found', statusCode: 404 }, 404);
        const added = { alias: alias.toLowerCase().replace(/[^a-z0-9]+/g, '-'), tag: { id: target.id, name: target.name } };
        synonyms.push(added);
        const merged = tags.find((t) => t.id === added.alias);
        if (merged) tags.splice(tags.indexOf(merged), 1);
        return json({ ...added, merged: merged?.video_count ?? 0 }, 201);
      }
      return { data: synonyms };
    },
    '/api/admin/tag-synonyms/muscled': () => {
      synonyms.splice(0, 1);
      return noContent();
    },
    '/api/admin/tags/poolside': (_url, init) => {
      if (init?.method === 'DELETE') {
        tags.splice(1, 1);
        return noContent();
      }
      const { name } = JSON.parse(String(init?.body)) as { name: string };
      tags[1] = { ...tags[1], name };
      return { id: 'poolside', name };
    },
    '/api/admin/categories/gym': (_url, init) => {
      const { name } = JSON.parse(String(init?.body)) as { name: string };
      categories[1] = { ...categories[1], name };
      return { id: 'gym', name };
    },
    ...routes,
  });
}

const section = (name: 'Categories' | 'Performers' | 'Tags' | 'Tag synonyms') => within(screen.getByRole('region', { name }));
const notices = () => within(screen.getByRole('status', { name: 'Notifications' }));

async function openPage() {
  renderRoute('/admin/taxonomy');
  await screen.findByRole('heading', { level: 1, name: 'Categories, performers and tags' });
  await screen.findByText('Big Muscle Men');
  await screen.findByText('Alex Stone');
  await screen.findByText('Poolside');
  await screen.findByText('muscled');
  return userEvent.setup();
}

describe('admin taxonomy page: lists', () => {
  it('lists categories and performers with their ids and video counts', async () => {
    setup();
    await openPage();

    const categories = section('Categories');
    const row = within(categories.getByRole('cell', { name: 'Big Muscle Men' }).closest('tr') as HTMLElement);
    expect(row.getByText('big-muscle-men')).toBeInTheDocument();
    expect(row.getByText('12')).toBeInTheDocument();
    expect(categories.getByText('Gym')).toBeInTheDocument();

    const performers = section('Performers');
    expect(performers.getByText('Alex Stone')).toBeInTheDocument();
    expect(performers.getByText('alex-stone')).toBeInTheDocument();
    expect(performers.queryByText('Gym')).not.toBeInTheDocument();
  });
});

describe('admin taxonomy page: create', () => {
  it('creates a category from its name and lists it', async () => {
    const fetchMock = setup();
    const user = await openPage();

    const categories = section('Categories');
    await user.type(categories.getByRole('textbox', { name: 'New category name' }), 'Pool Party');
    await user.click(categories.getByRole('button', { name: 'Create category' }));

    expect(await notices().findByText('Created category “Pool Party” (id pool-party).')).toBeInTheDocument();
    const posts = fetchMock.mock.calls.filter(([url, init]) => String(url) === '/api/categories' && init?.method === 'POST');
    expect(posts.map(([, init]) => JSON.parse(String(init?.body)))).toEqual([{ name: 'Pool Party', id: 'Pool Party' }]);
    expect(await categories.findByText('pool-party')).toBeInTheDocument();
    expect(categories.getByRole('textbox', { name: 'New category name' })).toHaveValue('');
  });

  it('shows the server message when the name already exists', async () => {
    setup({
      '/api/performers': (_url, init) =>
        init?.method === 'POST'
          ? json({ error: 'Performer already exists: alex-stone', statusCode: 409 }, 409)
          : { data: [{ id: 'alex-stone', name: 'Alex Stone', video_count: 5 }] },
    });
    const user = await openPage();

    const performers = section('Performers');
    const input = performers.getByRole('textbox', { name: 'New performer name' });
    await user.type(input, 'alex stone');
    await user.click(performers.getByRole('button', { name: 'Create performer' }));

    expect(await performers.findByRole('alert')).toHaveTextContent('Performer already exists: alex-stone');
    expect(input).toHaveValue('alex stone');
    expect(input).toHaveAttribute('aria-invalid', 'true');
  });

  it('shows the server message for a name it refuses, and sends nothing for an empty one', async () => {
    const fetchMock = setup({
      '/api/categories': (_url, init) =>
        init?.method === 'POST'
          ? json({ error: 'name must contain a letter or a digit', statusCode: 400 }, 400)
          : { data: [{ id: 'big-muscle-men', name: 'Big Muscle Men', video_count: 12 }] },
    });
    const user = await openPage();

    const categories = section('Categories');
    await user.type(categories.getByRole('textbox', { name: 'New category name' }), '   ');
    await user.click(categories.getByRole('button', { name: 'Create category' }));
    expect(categories.getByRole('alert')).toHaveTextContent('Enter a name.');
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'POST')).toBe(false);

    await user.type(categories.getByRole('textbox', { name: 'New category name' }), '!!!');
    await user.click(categories.getByRole('button', { name: 'Create category' }));
    await waitFor(() =>
      expect(categories.getByRole('alert')).toHaveTextContent('name must contain a letter or a digit'),
    );
  });
});

describe('admin taxonomy page: rename', () => {
  it('renames a category in place, keeping its id', async () => {
    const fetchMock = setup();
    const user = await openPage();

    const categories = section('Categories');
    await user.click(categories.getByRole('button', { name: 'Rename Gym' }));
    const input = categories.getByRole('textbox', { name: 'New name for Gym' });
    expect(input).toHaveValue('Gym');
    await user.clear(input);
    await user.type(input, 'Gym Sessions{Enter}');

    expect(await notices().findByText('Renamed “Gym” to “Gym Sessions”.')).toBeInTheDocument();
    expect(sentBodies(fetchMock, '/api/admin/categories/gym')).toEqual([{ name: 'Gym Sessions' }]);
    const patch = fetchMock.mock.calls.find(([url]) => String(url) === '/api/admin/categories/gym');
    expect(patch?.[1]?.method).toBe('PATCH');
    expect(await categories.findByRole('cell', { name: 'Gym Sessions' })).toBeInTheDocument();
    expect(categories.queryByRole('textbox', { name: /^New name for/ })).not.toBeInTheDocument();
    // The list is read again after the change.
    expect(requestedUrls(fetchMock, '/api/categories').length).toBeGreaterThan(1);
  });

  it('shows the conflict when another one has that name, and keeps the field', async () => {
    const fetchMock = setup({
      '/api/admin/categories/gym': () =>
        json({ error: 'Another category is already named big muscle men', statusCode: 409 }, 409),
    });
    const user = await openPage();

    const categories = section('Categories');
    await user.click(categories.getByRole('button', { name: 'Rename Gym' }));
    const input = categories.getByRole('textbox', { name: 'New name for Gym' });
    await user.clear(input);
    await user.type(input, 'big muscle men');
    await user.click(categories.getByRole('button', { name: 'Save' }));

    expect(await categories.findByRole('alert')).toHaveTextContent('Another category is already named big muscle men');
    expect(input).toHaveValue('big muscle men');
    expect(sentBodies(fetchMock, '/api/admin/categories/gym')).toHaveLength(1);
  });

  it('asks for a name instead of sending an empty one, and Escape leaves the row as it was', async () => {
    const fetchMock = setup();
    const user = await openPage();

    const categories = section('Categories');
    await user.click(categories.getByRole('button', { name: 'Rename Gym' }));
    const input = categories.getByRole('textbox', { name: 'New name for Gym' });
    await user.clear(input);
    await user.click(categories.getByRole('button', { name: 'Save' }));

    expect(categories.getByRole('alert')).toHaveTextContent('Enter a name.');
    expect(sentBodies(fetchMock, '/api/admin/categories/gym')).toHaveLength(0);

    await user.type(input, '{Escape}');
    expect(categories.queryByRole('textbox', { name: 'New name for Gym' })).not.toBeInTheDocument();
    expect(categories.getByRole('cell', { name: 'Gym' })).toBeInTheDocument();
    expect(categories.getByRole('button', { name: 'Rename Gym' })).toHaveFocus();
  });

  it('renames a performer through its own route', async () => {
    const fetchMock = setup({ '/api/admin/performers/alex-stone': () => ({ id: 'alex-stone', name: 'Alex Stone Jr' }) });
    const user = await openPage();

    const performers = section('Performers');
    await user.click(performers.getByRole('button', { name: 'Rename Alex Stone' }));
    const input = performers.getByRole('textbox', { name: 'New name for Alex Stone' });
    await user.type(input, ' Jr{Enter}');

    expect(await notices().findByText('Renamed “Alex Stone” to “Alex Stone Jr”.')).toBeInTheDocument();
    expect(sentBodies(fetchMock, '/api/admin/performers/alex-stone')).toEqual([{ name: 'Alex Stone Jr' }]);
  });
});

/** The calls the mock had for one pathname and method. */
const callsTo = (fetchMock: ReturnType<typeof mockFetch>, pathname: string, method: string) =>
  fetchMock.mock.calls.filter(([url, init]) => String(url) === pathname && (init?.method ?? 'GET') === method);

describe('admin taxonomy page: tags', () => {
  it('lists the tags with their ids and counts, and says where tags are made instead of a create form', async () => {
    setup();
    await openPage();

    const tags = section('Tags');
    const row = within(tags.getByRole('cell', { name: 'Muscle' }).closest('tr') as HTMLElement);
    expect(row.getByText('muscle')).toBeInTheDocument();
    expect(row.getByText('4')).toBeInTheDocument();
    expect(tags.queryByRole('textbox', { name: /New tag name/ })).not.toBeInTheDocument();
    expect(tags.getByText(/Tags are made by naming them on a video/)).toBeInTheDocument();
    // Categories and performers cannot be deleted here: no such route.
    expect(section('Categories').queryByRole('button', { name: /^Delete/ })).not.toBeInTheDocument();
  });

  it('renames a tag through its own route, and shows a conflict', async () => {
    const fetchMock = setup();
    const user = await openPage();

    const tags = section('Tags');
    await user.click(tags.getByRole('button', { name: 'Rename Poolside' }));
    await user.type(tags.getByRole('textbox', { name: 'New name for Poolside' }), ' Fun{Enter}');
    expect(await notices().findByText('Renamed “Poolside” to “Poolside Fun”.')).toBeInTheDocument();
    expect(callsTo(fetchMock, '/api/admin/tags/poolside', 'PATCH').map(([, init]) => JSON.parse(String(init?.body)))).toEqual([
      { name: 'Poolside Fun' },
    ]);
    expect(await tags.findByRole('cell', { name: 'Poolside Fun' })).toBeInTheDocument();
  });

  it('shows the server’s 409 when another tag has the name', async () => {
    setup({ '/api/admin/tags/muscle': () => json({ error: 'Another tag is already named Poolside', statusCode: 409 }, 409) });
    const user = await openPage();

    const tags = section('Tags');
    await user.click(tags.getByRole('button', { name: 'Rename Muscle' }));
    const input = tags.getByRole('textbox', { name: 'New name for Muscle' });
    await user.clear(input);
    await user.type(input, 'poolside{Enter}');
    expect(await tags.findByRole('alert')).toHaveTextContent('Another tag is already named Poolside');
    expect(input).toHaveValue('poolside');
  });

  it('deletes a tag only once confirmed: Cancel sends nothing, Delete tag removes it and its row', async () => {
    const fetchMock = setup();
    const user = await openPage();

    const tags = section('Tags');
    await user.click(tags.getByRole('button', { name: 'Delete Poolside' }));
    let dialog = within(await screen.findByRole('dialog', { name: 'Delete tag' }));
    expect(dialog.getByText(/Delete the tag “Poolside”\? It is taken off every video that has it \(1 published video\)/)).toBeInTheDocument();
    await user.click(dialog.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(callsTo(fetchMock, '/api/admin/tags/poolside', 'DELETE')).toHaveLength(0);

    await user.click(tags.getByRole('button', { name: 'Delete Poolside' }));
    dialog = within(await screen.findByRole('dialog', { name: 'Delete tag' }));
    await user.click(dialog.getByRole('button', { name: 'Delete tag' }));

    expect(await notices().findByText('Deleted the tag “Poolside”.')).toBeInTheDocument();
    expect(callsTo(fetchMock, '/api/admin/tags/poolside', 'DELETE')).toHaveLength(1);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(tags.queryByRole('cell', { name: 'Poolside' })).not.toBeInTheDocument();
    // The focus does not fall to the page: it goes to the section the row was in.
    await waitFor(() => expect(tags.getByRole('heading', { name: 'Tags' })).toHaveFocus());
  });

  it('says so in the dialog when the tag was gone already', async () => {
    setup({ '/api/admin/tags/muscle': () => json({ error: 'Tag not found', statusCode: 404 }, 404) });
    const user = await openPage();

    await user.click(section('Tags').getByRole('button', { name: 'Delete Muscle' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Delete tag' }));
    await user.click(dialog.getByRole('button', { name: 'Delete tag' }));
    expect(await dialog.findByRole('alert')).toHaveTextContent('This tag no longer exists.');
  });
});

describe('admin taxonomy page: tag synonyms', () => {
  it('lists the synonyms with the tag each leads to', async () => {
    setup();
    await openPage();

    const synonyms = section('Tag synonyms');
    const row = within(synonyms.getByText('muscled').closest('tr') as HTMLElement);
    expect(row.getByRole('cell', { name: 'Muscle' })).toBeInTheDocument();
    expect(row.getByRole('button', { name: 'Remove synonym muscled' })).toBeInTheDocument();
  });

  it('adds a synonym to a tag picked by its name, merging a tag of that name, and says how many videos moved', async () => {
    const fetchMock = setup();
    const user = await openPage();

    const synonyms = section('Tag synonyms');
    // The tag's name is suggested as one types.
    expect(synonyms.getByRole('combobox', { name: 'Leads to the tag' })).toHaveAttribute('list');
    await user.type(synonyms.getByRole('textbox', { name: 'Synonym' }), 'Poolside');
    await user.type(synonyms.getByRole('combobox', { name: 'Leads to the tag' }), 'muscle');
    await user.click(synonyms.getByRole('button', { name: 'Add synonym' }));

    expect(await notices().findByText('Merged “poolside” into Muscle: 1 video has it now.')).toBeInTheDocument();
    expect(callsTo(fetchMock, '/api/admin/tag-synonyms', 'POST').map(([, init]) => JSON.parse(String(init?.body)))).toEqual([
      { alias: 'Poolside', tag: 'muscle' },
    ]);
    // Read again: the new synonym listed, the merged tag gone from the tags.
    expect(await synonyms.findByText('poolside')).toBeInTheDocument();
    await waitFor(() => expect(section('Tags').queryByRole('cell', { name: 'Poolside' })).not.toBeInTheDocument());
    expect(synonyms.getByRole('textbox', { name: 'Synonym' })).toHaveValue('');
  });

  it('refuses a tag the site does not have before asking, and shows what the API refuses', async () => {
    const fetchMock = setup({
      '/api/admin/tag-synonyms': (_url, init) =>
        init?.method === 'POST'
          ? json({ error: 'a tag cannot be a synonym of itself: muscle', statusCode: 400 }, 400)
          : { data: [{ alias: 'muscled', tag: { id: 'muscle', name: 'Muscle' } }] },
    });
    const user = await openPage();

    const synonyms = section('Tag synonyms');
    await user.click(synonyms.getByRole('button', { name: 'Add synonym' }));
    expect(synonyms.getByRole('alert')).toHaveTextContent('Enter the synonym and the tag it leads to.');

    await user.type(synonyms.getByRole('textbox', { name: 'Synonym' }), 'Muscle');
    await user.type(synonyms.getByRole('combobox', { name: 'Leads to the tag' }), 'Leather');
    await user.click(synonyms.getByRole('button', { name: 'Add synonym' }));
    expect(synonyms.getByRole('alert')).toHaveTextContent('There is no tag “Leather”.');
    expect(callsTo(fetchMock, '/api/admin/tag-synonyms', 'POST')).toHaveLength(0);

    await user.clear(synonyms.getByRole('combobox', { name: 'Leads to the tag' }));
    await user.type(synonyms.getByRole('combobox', { name: 'Leads to the tag' }), 'Muscle');
    await user.click(synonyms.getByRole('button', { name: 'Add synonym' }));
    await waitFor(() => expect(synonyms.getByRole('alert')).toHaveTextContent('a tag cannot be a synonym of itself: muscle'));
    expect(synonyms.getByRole('textbox', { name: 'Synonym' })).toHaveValue('Muscle');
  });

  it('removes a synonym and lists the rest', async () => {
    const fetchMock = setup();
    const user = await openPage();

    const synonyms = section('Tag synonyms');
    await user.click(synonyms.getByRole('button', { name: 'Remove synonym muscled' }));
    expect(await notices().findByText('Removed the synonym “muscled”.')).toBeInTheDocument();
    expect(callsTo(fetchMock, '/api/admin/tag-synonyms/muscled', 'DELETE')).toHaveLength(1);
    expect(await synonyms.findByText('No synonyms yet.')).toBeInTheDocument();
    expect(synonyms.getByRole('textbox', { name: 'Synonym' })).toHaveFocus();
  });
});
