import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { Taxon } from '@/lib/api/types';
import { makeSite, makeUser } from '@/testing/data';
import { json, mockFetch, requestedUrls, sentBodies } from '@/testing/mock-fetch';
import { renderRoute } from '@/testing/render-route';

type Routes = Parameters<typeof mockFetch>[0];

const admin = makeUser({}, { role_id: 'admin' });

function setup(routes: Routes = {}) {
  const categories: Taxon[] = [
    { id: 'big-muscle-men', name: 'Big Muscle Men', video_count: 12 },
    { id: 'gym', name: 'Gym', video_count: 3 },
  ];
  const performers: Taxon[] = [{ id: 'alex-stone', name: 'Alex Stone', video_count: 5 }];
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
    '/api/admin/categories/gym': (_url, init) => {
      const { name } = JSON.parse(String(init?.body)) as { name: string };
      categories[1] = { ...categories[1], name };
      return { id: 'gym', name };
    },
    ...routes,
  });
}

const section = (name: 'Categories' | 'Performers') => within(screen.getByRole('region', { name }));
const notices = () => within(screen.getByRole('status', { name: 'Notifications' }));

async function openPage() {
  renderRoute('/admin/taxonomy');
  await screen.findByRole('heading', { level: 1, name: 'Categories and performers' });
  await screen.findByText('Big Muscle Men');
  await screen.findByText('Alex Stone');
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
