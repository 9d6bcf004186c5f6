import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { AdCounts, AdStats, AdZone, AdZoneStats } from '@/features/admin/api/ad-types';
import type { Site } from '@/lib/api/types';
import { makeSite, makeUser } from '@/testing/data';
import { json, mockFetch, noContent, requestedUrls, sentBodies } from '@/testing/mock-fetch';
import { renderRoute } from '@/testing/render-route';

// jsdom has no canvas: the chart shows the figures it was given (testing/daily-chart-stub).
vi.mock('@/features/admin/components/daily-chart', () => import('@/testing/daily-chart-stub'));
// The CSV files the page hands over, read back here.
const saved = vi.hoisted(() => [] as { blob: Blob; filename: string }[]);
vi.mock('@/lib/save-file', () => ({ saveFile: (blob: Blob, filename: string) => saved.push({ blob, filename }) }));

type Routes = Parameters<typeof mockFetch>[0];

const admin = makeUser({}, { role_id: 'admin' });

const preroll: AdZone = {
  id: 1,
  name: 'Home pre-roll',
  placement: 'preroll',
  kind: 'vast',
  vastUrl: 'https://ads.example/vast?zone=1',
  html: null,
  hosts: ['https://cdn.ads.example'],
  brands: ['default', 'atg'],
  members: false,
  embeds: true,
  skipAfter: 5,
  frequencyCap: { count: 3, hours: 24 },
  weight: 2,
  active: true,
};
const footer: AdZone = {
  id: 2,
  name: 'Footer banner',
  placement: 'banner-footer',
  kind: 'html',
  vastUrl: null,
  html: '<a href="https://ads.example/go">Ad</a>',
  hosts: [],
  brands: ['jtg'],
  members: true,
  embeds: false,
  skipAfter: null,
  frequencyCap: null,
  weight: 1,
  active: false,
};

const counts = (n: number): AdCounts => ({ requests: 10 * n, fills: 8 * n, impressions: 6 * n, completes: 4 * n, skips: n, clicks: 2 * n, errors: n });

/** The days of a period, oldest first, ending on 2026-11-26; only the last has figures. */
function dailyFor(days: number, last: AdCounts) {
  return Array.from({ length: days }, (_, i) => ({
    day: new Date(Date.UTC(2026, 10, 26) - (days - 1 - i) * 86_400_000).toISOString().slice(0, 10),
    ...(i === days - 1 ? last : counts(0)),
  }));
}

const statsFor = (days: number): AdStats => ({
  days: days as AdStats['days'],
  zones: [
    { id: 1, name: 'Home pre-roll', placement: 'preroll', active: true, totals: counts(100) },
    { id: 2, name: 'Footer banner', placement: 'banner-footer', active: false, totals: counts(1) },
  ],
  daily: dailyFor(days, counts(101)),
});

const zoneStatsFor = (days: number): AdZoneStats => ({ id: 1, name: 'Home pre-roll', days: days as AdZoneStats['days'], totals: counts(100), daily: dailyFor(days, counts(100)) });

function setup(routes: Routes = {}, site: Partial<Site> = {}) {
  const zones = [{ ...preroll }, { ...footer }];
  const zoneRoute: Routes[string] = (url, init) => {
    const id = Number(url.pathname.split('/').pop());
    const index = zones.findIndex((zone) => zone.id === id);
    if (index < 0) return json({ error: 'Ad zone not found', statusCode: 404 }, 404);
    if (init?.method === 'DELETE') {
      zones.splice(index, 1);
      return noContent();
    }
    zones[index] = { ...zones[index], ...(JSON.parse(String(init?.body)) as Partial<AdZone>) };
    return zones[index];
  };
  return mockFetch({
    '/api/site': () => makeSite({ name: 'Hunk Tube', ...site }),
    '/api/auth/me': () => ({ user: admin }),
    '/api/admin/removal-requests': () => ({ data: [], page: 1, limit: 1, total: 0, counts: {} }),
    '/api/admin/ad-zones': (_url, init) => {
      if (init?.method === 'POST') {
        const created = { id: 3, ...(JSON.parse(String(init.body)) as Omit<AdZone, 'id'>) };
        zones.push(created);
        return json(created, 201);
      }
      return { data: zones };
    },
    '/api/admin/ad-zones/1': zoneRoute,
    '/api/admin/ad-zones/2': zoneRoute,
    '/api/admin/ad-stats': (url) => statsFor(Number(url.searchParams.get('days'))),
    '/api/admin/ad-zones/1/stats': (url) => zoneStatsFor(Number(url.searchParams.get('days'))),
    ...routes,
  });
}

const notices = () => within(screen.getByRole('status', { name: 'Notifications' }));
const section = (name: string) => within(screen.getByRole('region', { name }));
const cellsOf = (row: HTMLElement) => [...row.querySelectorAll('th, td')].map((cell) => cell.textContent);
const form = (name: string) => within(screen.getByRole('region', { name }));
// Row headers looked up in the zones' table only: the figures' tables name the zones too, and hold many.
const zonesTable = () => section('Zones').getByRole('table');
const zoneRow = (name: string) => within(zonesTable()).getByRole('rowheader', { name }).closest('tr') as HTMLElement;

/** The calls the mock had for one pathname and method. */
const callsTo = (fetchMock: ReturnType<typeof mockFetch>, pathname: string, method: string) =>
  fetchMock.mock.calls.filter(([url, init]) => String(url) === pathname && (init?.method ?? 'GET') === method);

async function openPage(url = '/admin/ads') {
  renderRoute(url);
  await screen.findByRole('heading', { level: 1, name: 'Ads' });
  await waitFor(() => zoneRow('Home pre-roll'));
  return userEvent.setup();
}

beforeEach(() => {
  saved.length = 0;
  vi.spyOn(console, 'error').mockImplementation(() => {});
});

describe('the ad zones at /admin/ads', () => {
  it('lists the zones with their settings and the period’s impressions and clicks, under Ads in the admin navigation', async () => {
    const fetchMock = setup();
    await openPage();

    expect(within(screen.getByRole('navigation', { name: 'Admin' })).getByRole('link', { name: 'Ads' })).toHaveAttribute('aria-current', 'page');
    const table = section('Zones').getByRole('table', { name: 'Ad zones, with their impressions and clicks of the last 30 days' });
    expect(within(table).getAllByRole('columnheader').map((th) => th.textContent)).toEqual([
      'Name',
      'Placement',
      'Kind',
      'Brands',
      'Members',
      'Embeds',
      'Cap',
      'Weight',
      'Active',
      'Impressions',
      'Clicks',
      'Actions',
    ]);
    const row = zoneRow('Home pre-roll');
    await waitFor(() =>
      expect(cellsOf(row).slice(0, 11)).toEqual([
        'Home pre-roll',
        'Pre-roll (before the video)',
        'VAST tag',
        'default, atg',
        'No',
        'Yes',
        '3 per 24 h',
        '2',
        '',
        '600',
        '200',
      ]),
    );
    expect(within(row).getByRole('switch', { name: 'Active: Home pre-roll' })).toBeChecked();
    const banner = zoneRow('Footer banner');
    expect(cellsOf(banner).slice(0, 11)).toEqual(['Footer banner', 'Banner in the footer', 'HTML snippet', 'jtg', 'Yes', 'No', 'None', '1', '', '6', '2']);
    expect(within(banner).getByRole('switch', { name: 'Active: Footer banner' })).not.toBeChecked();
    expect(within(banner).getByRole('link', { name: 'Figures of Footer banner' })).toHaveAttribute('href', '/admin/ads/2');
    expect(requestedUrls(fetchMock, '/api/admin/ad-stats')[0].searchParams.get('days')).toBe('30');
  });

  it('says when there is no zone yet', async () => {
    setup({ '/api/admin/ad-zones': () => ({ data: [] }), '/api/admin/ad-stats': () => ({ ...statsFor(30), zones: [] }) });
    renderRoute('/admin/ads');
    await screen.findByRole('heading', { level: 1, name: 'Ads' });
    expect(await section('Zones').findByText('No ad zone yet: the site shows no ads.')).toBeInTheDocument();
  });

  it('creates a zone with every field, the site’s brand ticked by default, and lists it', async () => {
    const fetchMock = setup({}, { brand: 'atg', name: 'ATG Tube' });
    const user = await openPage();

    await user.click(screen.getByRole('button', { name: 'New zone' }));
    const zone = form('New ad zone');
    expect(screen.getByRole('heading', { name: 'New ad zone' })).toHaveFocus();
    expect(zone.getByRole('checkbox', { name: 'atg (this site: ATG Tube)' })).toBeChecked();
    expect(zone.getByRole('checkbox', { name: 'default' })).not.toBeChecked();
    expect(zone.getByRole('checkbox', { name: 'jtg' })).not.toBeChecked();

    await user.type(zone.getByRole('textbox', { name: 'Name' }), '  Watch pre-roll ');
    await user.selectOptions(zone.getByRole('combobox', { name: 'Placement' }), 'Post-roll (after the video)');
    // user-event reads "[[" as one "[".
    await user.type(zone.getByRole('textbox', { name: 'VAST tag URL' }), 'https://ads.example/vast?cb=[[CACHEBUSTING]');
    await user.clear(zone.getByRole('spinbutton', { name: 'Skip button after (seconds)' }));
    await user.type(zone.getByRole('spinbutton', { name: 'Skip button after (seconds)' }), '8');
    await user.click(zone.getByRole('checkbox', { name: 'Cap how often one viewer sees it' }));
    await user.clear(zone.getByRole('spinbutton', { name: 'At most (impressions)' }));
    await user.type(zone.getByRole('spinbutton', { name: 'At most (impressions)' }), '2');
    await user.clear(zone.getByRole('spinbutton', { name: 'Per (hours)' }));
    await user.type(zone.getByRole('spinbutton', { name: 'Per (hours)' }), '12');
    await user.clear(zone.getByRole('spinbutton', { name: 'Weight' }));
    await user.type(zone.getByRole('spinbutton', { name: 'Weight' }), '7');
    await user.click(zone.getByRole('checkbox', { name: 'default' }));
    await user.click(zone.getByRole('checkbox', { name: 'Members too (otherwise guests only)' }));
    await user.click(zone.getByRole('checkbox', { name: 'In embeds (the embeddable player and framed pages)' }));
    // Enter in the host box adds the host, without sending the form.
    await user.type(zone.getByRole('textbox', { name: 'Add a host' }), 'https://CDN.ads.example/{Enter}');
    await user.type(zone.getByRole('textbox', { name: 'Add a host' }), 'ftp://nope.example{Enter}');
    expect(zone.getByRole('alert')).toHaveTextContent('“ftp://nope.example” is not a host');
    await user.clear(zone.getByRole('textbox', { name: 'Add a host' }));
    await user.type(zone.getByRole('textbox', { name: 'Add a host' }), 'http://track.example:8080');
    await user.click(zone.getByRole('button', { name: 'Add host' }));
    expect(within(zone.getByRole('list', { name: 'Hosts of this zone' })).getAllByRole('listitem').map((li) => li.textContent)).toEqual([
      'https://cdn.ads.example×',
      'http://track.example:8080×',
    ]);
    expect(callsTo(fetchMock, '/api/admin/ad-zones', 'POST')).toHaveLength(0);

    await user.click(zone.getByRole('button', { name: 'Create zone' }));

    expect(await notices().findByText('Created the zone “Watch pre-roll”.')).toBeInTheDocument();
    expect(sentBodies(fetchMock, '/api/admin/ad-zones').filter(Boolean)).toEqual([
      {
        name: 'Watch pre-roll',
        placement: 'postroll',
        kind: 'vast',
        vastUrl: 'https://ads.example/vast?cb=[CACHEBUSTING]',
        html: null,
        hosts: ['https://cdn.ads.example', 'http://track.example:8080'],
        brands: ['default', 'atg'],
        members: true,
        embeds: true,
        skipAfter: 8,
        frequencyCap: { count: 2, hours: 12 },
        weight: 7,
        active: true,
      },
    ]);
    // The form closes; the list and the figures are read again.
    expect(screen.queryByRole('region', { name: 'New ad zone' })).not.toBeInTheDocument();
    await waitFor(() => zoneRow('Watch pre-roll'));
    expect(requestedUrls(fetchMock, '/api/admin/ad-stats').length).toBeGreaterThan(1);
    await waitFor(() => expect(screen.getByRole('heading', { name: 'Zones' })).toHaveFocus());
  });

  it('offers the kinds the placement takes, and the VAST tag or the snippet that the kind needs', async () => {
    const fetchMock = setup();
    const user = await openPage();

    await user.click(screen.getByRole('button', { name: 'New zone' }));
    const zone = form('New ad zone');
    const placement = zone.getByRole('combobox', { name: 'Placement' });
    const vast = () => zone.getByRole('radio', { name: 'VAST tag' });
    const html = () => zone.getByRole('radio', { name: 'HTML snippet' });

    // A pre-roll: VAST only, with its skip offset.
    expect(vast()).toBeChecked();
    expect(html()).toBeDisabled();
    expect(zone.getByRole('textbox', { name: 'VAST tag URL' })).toBeInTheDocument();
    expect(zone.getByRole('group', { name: 'Skip' })).toBeInTheDocument();

    await user.selectOptions(placement, 'banner-listing');
    expect(html()).toBeChecked();
    expect(vast()).toBeDisabled();
    expect(zone.queryByRole('textbox', { name: 'VAST tag URL' })).not.toBeInTheDocument();
    expect(zone.queryByRole('group', { name: 'Skip' })).not.toBeInTheDocument();
    expect(zone.getByRole('textbox', { name: 'HTML snippet' })).toBeInTheDocument();

    // A pause ad takes either, keeping the kind it had.
    await user.selectOptions(placement, 'pause');
    expect(html()).toBeChecked();
    expect(vast()).toBeEnabled();
    await user.click(vast());
    expect(zone.getByRole('textbox', { name: 'VAST tag URL' })).toBeInTheDocument();

    await user.selectOptions(placement, 'banner-watch');
    expect(html()).toBeChecked();
    await user.type(zone.getByRole('textbox', { name: 'Name' }), 'Watch banner');
    await user.type(zone.getByRole('textbox', { name: 'HTML snippet' }), '<b>Ad</b>');
    await user.click(zone.getByRole('button', { name: 'Create zone' }));

    await notices().findByText('Created the zone “Watch banner”.');
    expect(sentBodies(fetchMock, '/api/admin/ad-zones').filter(Boolean)).toEqual([
      expect.objectContaining({ placement: 'banner-watch', kind: 'html', vastUrl: null, html: '<b>Ad</b>', skipAfter: null, frequencyCap: null }),
    ]);
  });

  it('shows the API’s 400 beside the form and marks the field it names, keeping what was typed', async () => {
    const fetchMock = setup({
      '/api/admin/ad-zones': (_url, init) =>
        init?.method === 'POST' ? json({ error: 'vastUrl must be an http or https URL', statusCode: 400 }, 400) : { data: [preroll] },
    });
    const user = await openPage();

    await user.click(screen.getByRole('button', { name: 'New zone' }));
    const zone = form('New ad zone');
    // Asked before anything is sent: a name.
    await user.click(zone.getByRole('button', { name: 'Create zone' }));
    expect(zone.getByRole('alert')).toHaveTextContent('Enter a name.');
    expect(zone.getByRole('textbox', { name: 'Name' })).toHaveAttribute('aria-invalid', 'true');
    expect(callsTo(fetchMock, '/api/admin/ad-zones', 'POST')).toHaveLength(0);

    await user.type(zone.getByRole('textbox', { name: 'Name' }), 'Bad tag');
    await user.type(zone.getByRole('textbox', { name: 'VAST tag URL' }), 'javascript:alert(1)');
    await user.click(zone.getByRole('button', { name: 'Create zone' }));

    const alert = await zone.findByText('vastUrl must be an http or https URL');
    expect(alert).toHaveAttribute('role', 'alert');
    const url = zone.getByRole('textbox', { name: 'VAST tag URL' });
    expect(url).toHaveAttribute('aria-invalid', 'true');
    expect(url).toHaveAccessibleDescription('vastUrl must be an http or https URL');
    expect(url).toHaveValue('javascript:alert(1)');
    expect(zone.getByRole('textbox', { name: 'Name' })).not.toHaveAttribute('aria-invalid');
  });

  it('edits a zone, sending only the fields that changed', async () => {
    const fetchMock = setup();
    const user = await openPage();

    await user.click(screen.getByRole('button', { name: 'Edit Home pre-roll' }));
    const zone = form('Edit the zone “Home pre-roll”');
    expect(zone.getByRole('textbox', { name: 'Name' })).toHaveValue('Home pre-roll');
    expect(zone.getByRole('combobox', { name: 'Placement' })).toHaveValue('preroll');
    expect(zone.getByRole('textbox', { name: 'VAST tag URL' })).toHaveValue('https://ads.example/vast?zone=1');
    expect(zone.getByRole('spinbutton', { name: 'Skip button after (seconds)' })).toHaveValue(5);
    expect(zone.getByRole('spinbutton', { name: 'At most (impressions)' })).toHaveValue(3);
    expect(zone.getByRole('checkbox', { name: 'atg' })).toBeChecked();
    expect(zone.getByRole('checkbox', { name: 'In embeds (the embeddable player and framed pages)' })).toBeChecked();
    expect(zone.getByRole('button', { name: 'Remove host https://cdn.ads.example' })).toBeInTheDocument();

    // Nothing changed: nothing is sent.
    await user.click(zone.getByRole('button', { name: 'Save changes' }));
    expect(await notices().findByText('Nothing changed in the zone “Home pre-roll”.')).toBeInTheDocument();
    expect(callsTo(fetchMock, '/api/admin/ad-zones/1', 'PATCH')).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Edit Home pre-roll' }));
    const again = form('Edit the zone “Home pre-roll”');
    await user.click(again.getByRole('checkbox', { name: 'atg' }));
    await user.click(again.getByRole('checkbox', { name: 'Not skippable' }));
    expect(again.getByRole('spinbutton', { name: 'Skip button after (seconds)' })).toBeDisabled();
    await user.click(again.getByRole('button', { name: 'Remove host https://cdn.ads.example' }));
    await user.click(again.getByRole('button', { name: 'Save changes' }));

    expect(await notices().findByText('Saved the zone “Home pre-roll”.')).toBeInTheDocument();
    expect(sentBodies(fetchMock, '/api/admin/ad-zones/1')).toEqual([{ hosts: [], brands: ['default'], skipAfter: null }]);
    await waitFor(() => expect(cellsOf(zoneRow('Home pre-roll'))[3]).toBe('default'));
  });

  it('says so in the form when the zone was deleted meanwhile', async () => {
    setup({ '/api/admin/ad-zones/1': () => json({ error: 'Ad zone not found', statusCode: 404 }, 404) });
    const user = await openPage();

    await user.click(screen.getByRole('button', { name: 'Edit Home pre-roll' }));
    const zone = form('Edit the zone “Home pre-roll”');
    await user.clear(zone.getByRole('textbox', { name: 'Name' }));
    await user.type(zone.getByRole('textbox', { name: 'Name' }), 'Renamed');
    await user.click(zone.getByRole('button', { name: 'Save changes' }));
    expect(await zone.findByRole('alert')).toHaveTextContent('This zone no longer exists.');
  });

  it('switches a zone on and off from its row', async () => {
    const fetchMock = setup();
    const user = await openPage();

    const toggle = screen.getByRole('switch', { name: 'Active: Footer banner' });
    await user.click(toggle);
    expect(await notices().findByText('The zone “Footer banner” is on.')).toBeInTheDocument();
    expect(sentBodies(fetchMock, '/api/admin/ad-zones/2')).toEqual([{ active: true }]);
    expect(callsTo(fetchMock, '/api/admin/ad-zones/2', 'PATCH')).toHaveLength(1);
    await waitFor(() => expect(screen.getByRole('switch', { name: 'Active: Footer banner' })).toBeChecked());
  });

  it('deletes a zone only once confirmed: Cancel sends nothing, Delete zone removes it and its row', async () => {
    const fetchMock = setup();
    const user = await openPage();

    await user.click(screen.getByRole('button', { name: 'Delete Footer banner' }));
    let dialog = within(await screen.findByRole('dialog', { name: 'Delete ad zone' }));
    expect(dialog.getByText(/Delete the zone “Footer banner”\? Its ads stop at once, and its figures go with it/)).toBeInTheDocument();
    await user.click(dialog.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(callsTo(fetchMock, '/api/admin/ad-zones/2', 'DELETE')).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Delete Footer banner' }));
    dialog = within(await screen.findByRole('dialog', { name: 'Delete ad zone' }));
    await user.click(dialog.getByRole('button', { name: 'Delete zone' }));

    expect(await notices().findByText('Deleted the zone “Footer banner”.')).toBeInTheDocument();
    expect(callsTo(fetchMock, '/api/admin/ad-zones/2', 'DELETE')).toHaveLength(1);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    await waitFor(() => expect(within(zonesTable()).queryByRole('rowheader', { name: 'Footer banner' })).not.toBeInTheDocument());
    await waitFor(() => expect(screen.getByRole('heading', { name: 'Zones' })).toHaveFocus());
  });

  it('says so in the dialog when the zone was gone already', async () => {
    setup({ '/api/admin/ad-zones/2': () => json({ error: 'Ad zone not found', statusCode: 404 }, 404) });
    const user = await openPage();

    await user.click(screen.getByRole('button', { name: 'Delete Footer banner' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Delete ad zone' }));
    await user.click(dialog.getByRole('button', { name: 'Delete zone' }));
    expect(await dialog.findByRole('alert')).toHaveTextContent('This zone no longer exists.');
  });
});

describe('the ad figures at /admin/ads', () => {
  it('shows all zones summed per day as the site’s figures are shown, and each zone’s totals, each with its CSV', async () => {
    setup();
    const user = await openPage();

    const all = section('All zones');
    const chart = await all.findByTestId('chart');
    expect(all.getAllByRole('term').map((dt) => dt.textContent)).toEqual(['Requests', 'Fills', 'Impressions', 'Completes', 'Skips', 'Clicks', 'Errors', 'Fill rate']);
    expect(all.getAllByRole('definition').map((dd) => dd.textContent)).toEqual([
      '1,010',
      '808',
      '606',
      '404',
      '101',
      '202',
      '101',
      '80%',
    ]);
    expect(chart).toHaveAccessibleName('Ad figures per day, all zones, last 30 days');
    expect(chart).toHaveTextContent(/^30 days; Requests: 0 .* 1010; Fills: 0 .* 808; Impressions: 0 .* 606; Completes: .*; Skips: .*; Clicks: 0 .* 202; Errors: 0 .* 101$/);
    const daily = all.getByRole('table', { name: 'Ad figures per day, all zones, last 30 days' });
    expect(within(daily).getAllByRole('row')).toHaveLength(31);
    expect(cellsOf(within(daily).getAllByRole('row')[30])).toEqual(['2026-11-26', '1,010', '808', '606', '404', '101', '202', '101']);
    await user.click(all.getByRole('button', { name: 'Download CSV: Ad figures per day, all zones, last 30 days' }));
    expect(saved[0].filename).toBe('ads-last-30-days.csv');
    const lines = (await saved[0].blob.text()).split('\n');
    expect(lines[0]).toBe('day,requests,fills,impressions,completes,skips,clicks,errors');
    expect(lines[30]).toBe('2026-11-26,1010,808,606,404,101,202,101');

    const each = section('Each zone');
    const totals = each.getByRole('table', { name: 'Ad figures per zone, last 30 days' });
    expect(within(totals).getAllByRole('row').slice(1).map(cellsOf)).toEqual([
      ['Home pre-roll', 'Pre-roll (before the video)', '1,000', '800', '600', '400', '100', '200', '100', '80%'],
      ['Footer banner (off)', 'Banner in the footer', '10', '8', '6', '4', '1', '2', '1', '80%'],
    ]);
    expect(within(totals).getByRole('link', { name: 'Home pre-roll' })).toHaveAttribute('href', '/admin/ads/1');
    await user.click(each.getByRole('button', { name: 'Download CSV: Ad figures per zone, last 30 days' }));
    expect(saved[1].filename).toBe('ad-zones-last-30-days.csv');
    expect(await saved[1].blob.text()).toBe(
      'id,name,placement,active,requests,fills,impressions,completes,skips,clicks,errors\n1,Home pre-roll,preroll,yes,1000,800,600,400,100,200,100\n2,Footer banner,banner-footer,no,10,8,6,4,1,2,1\n',
    );
  });

  it('switches the period of the figures and of the zones’ impressions and clicks', async () => {
    const fetchMock = setup();
    const user = await openPage();

    await section('All zones').findByTestId('chart');
    await user.click(screen.getByRole('button', { name: '7 days' }));
    await waitFor(() => expect(section('All zones').getByTestId('chart')).toHaveTextContent(/^7 days;/));
    expect(section('Zones').getByRole('table', { name: 'Ad zones, with their impressions and clicks of the last 7 days' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: '90 days' }));
    await waitFor(() => expect(section('Each zone').getByRole('table', { name: 'Ad figures per zone, last 90 days' })).toBeInTheDocument());
    expect(requestedUrls(fetchMock, '/api/admin/ad-stats').map((u) => u.searchParams.get('days'))).toEqual(['30', '7', '90']);
  });

  it('says so when the figures cannot be read, and tries again', async () => {
    let fail = true;
    setup({ '/api/admin/ad-stats': (url) => (fail ? json({ error: 'Service unavailable', statusCode: 503 }, 503) : statsFor(Number(url.searchParams.get('days')))) });
    const user = await openPage();

    const alert = await section('All zones').findByRole('alert');
    expect(alert).toHaveTextContent('The ad figures could not be loaded.');
    // The zones are listed all the same, without their figures.
    expect(cellsOf(zoneRow('Home pre-roll')).slice(9, 11)).toEqual(['–', '–']);
    fail = false;
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await section('All zones').findByTestId('chart')).toBeInTheDocument();
  });
});

describe('one zone’s figures at /admin/ads/:id', () => {
  it('opens from the zone’s row: its totals, its chart and table per day, and their CSV', async () => {
    const fetchMock = setup();
    const user = await openPage();

    await user.click(screen.getByRole('link', { name: 'Figures of Home pre-roll' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Figures of “Home pre-roll”' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to the ad zones' })).toHaveAttribute('href', '/admin/ads');
    expect(within(screen.getByRole('navigation', { name: 'Admin' })).getByRole('link', { name: 'Ads' })).toHaveAttribute('aria-current', 'page');

    const chart = await screen.findByTestId('chart');
    expect(screen.getAllByRole('definition').map((dd) => dd.textContent)).toEqual(['1,000', '800', '600', '400', '100', '200', '100', '80%']);
    expect(chart).toHaveAccessibleName('Ad figures per day, Home pre-roll, last 30 days');
    const table = screen.getByRole('table', { name: 'Ad figures per day, Home pre-roll, last 30 days' });
    expect(cellsOf(within(table).getAllByRole('row')[30])).toEqual(['2026-11-26', '1,000', '800', '600', '400', '100', '200', '100']);
    await user.click(screen.getByRole('button', { name: 'Download CSV: Ad figures per day, Home pre-roll, last 30 days' }));
    expect(saved[0].filename).toBe('ad-zone-1-last-30-days.csv');
    expect((await saved[0].blob.text()).split('\n')[30]).toBe('2026-11-26,1000,800,600,400,100,200,100');

    await user.click(screen.getByRole('button', { name: '90 days' }));
    await waitFor(() => expect(screen.getByTestId('chart')).toHaveTextContent(/^90 days;/));
    expect(requestedUrls(fetchMock, '/api/admin/ad-zones/1/stats').map((u) => u.searchParams.get('days'))).toEqual(['30', '90']);
  });

  it('says when the zone does not exist', async () => {
    setup();
    renderRoute('/admin/ads/9');
    expect(await screen.findByRole('heading', { level: 1, name: 'Zone not found' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to the ad zones' })).toHaveAttribute('href', '/admin/ads');
  });
});
