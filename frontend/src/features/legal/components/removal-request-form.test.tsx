import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { makeSite } from '@/testing/data';
import { json, mockFetch, sentBodies } from '@/testing/mock-fetch';
import { renderRoute } from '@/testing/render-route';
import { removalAddress } from './removal-request-form';

type Routes = Parameters<typeof mockFetch>[0];

const ENDPOINT = '/api/removal-requests';

function setup(routes: Routes = {}) {
  return mockFetch({
    '/api/site': () => makeSite({ name: 'Hunk Tube' }),
    '/api/auth/me': () => json({ error: 'Unauthorized', statusCode: 401 }, 401),
    [ENDPOINT]: () => json({ id: 1, video_ids: [12] }, 201),
    ...routes,
  });
}

const addresses = () => screen.getByLabelText('Video address(es), one per line');
const submit = () => screen.getByRole('button', { name: /Send the request|Sending…/ });

/** Fills in a request that passes the form's own checks. */
async function fillValidRequest(user: ReturnType<typeof userEvent.setup>) {
  await user.type(addresses(), 'https://hunktube.example/video/12');
  await user.type(screen.getByLabelText('How to reach you'), 'me@example.com');
  await user.click(screen.getByRole('checkbox', { name: /I state in good faith/ }));
}

describe('content removal form: what it checks before sending', () => {
  it('asks for a video address, a way to reply and the good-faith statement, sending nothing meanwhile', async () => {
    const fetchMock = setup();
    const user = userEvent.setup();
    renderRoute('/content-removal');

    await screen.findByRole('heading', { level: 1, name: 'Content removal requests' });
    await user.click(submit());
    expect(screen.getByRole('alert')).toHaveTextContent('Give the address of at least one video (…/video/123).');

    await user.type(addresses(), '  \n \n');
    await user.click(submit());
    expect(screen.getByRole('alert')).toHaveTextContent('Give the address of at least one video (…/video/123).');

    await user.type(addresses(), 'https://hunktube.example/video/12');
    await user.click(submit());
    expect(screen.getByRole('alert')).toHaveTextContent('Give an e-mail address or another way to reach you.');

    await user.type(screen.getByLabelText('How to reach you'), 'me@example.com');
    await user.click(submit());
    expect(screen.getByRole('alert')).toHaveTextContent('Confirm that the request is made in good faith.');

    expect(sentBodies(fetchMock, ENDPOINT)).toEqual([]);
  });

  it('names a line that is neither a video address nor an id', async () => {
    const fetchMock = setup();
    const user = userEvent.setup();
    renderRoute('/content-removal');
    await screen.findByRole('heading', { level: 1, name: 'Content removal requests' });
    await fillValidRequest(user);

    await user.type(addresses(), '\nhttps://hunktube.example/categories/bears');
    await user.click(submit());

    expect(screen.getByRole('alert')).toHaveTextContent(
      '“https://hunktube.example/categories/bears” is not the address of a video on this site (…/video/123).',
    );
    expect(sentBodies(fetchMock, ENDPOINT)).toEqual([]);
  });

  it('takes at most 20 addresses', async () => {
    const fetchMock = setup();
    const user = userEvent.setup();
    renderRoute('/content-removal');
    await screen.findByRole('heading', { level: 1, name: 'Content removal requests' });
    await fillValidRequest(user);

    await user.clear(addresses());
    await user.click(addresses());
    await user.paste(Array.from({ length: 21 }, (_, index) => String(index + 1)).join('\n'));
    await user.click(submit());

    expect(screen.getByRole('alert')).toHaveTextContent('Give at most 20 video addresses in one request.');
    expect(sentBodies(fetchMock, ENDPOINT)).toEqual([]);
  });
});

describe('content removal form: sending', () => {
  it('sends the addresses, the reason code, details and contact, then shows the request number', async () => {
    let answer: (response: Response) => void = () => {};
    const fetchMock = setup({ [ENDPOINT]: () => new Promise<Response>((resolve) => (answer = resolve)) });
    const user = userEvent.setup();
    renderRoute('/content-removal');
    await screen.findByRole('heading', { level: 1, name: 'Content removal requests' });

    const reason = screen.getByLabelText('Reason');
    expect(within(reason).getAllByRole('option').map((option) => option.textContent)).toEqual([
      'I appear in this video and did not consent to its publication',
      'I own the copyright in this video',
      'The video shows someone under 18',
      'The video shows non-consensual or illegal acts',
      'Other',
    ]);

    await user.click(addresses());
    await user.paste('  https://hunktube.example/video/12?t=30 \n\n 15 \n');
    await user.selectOptions(reason, 'The video shows someone under 18');
    await user.type(screen.getByLabelText('Details (optional)'), '  Filmed when I was 17.  ');
    await user.type(screen.getByLabelText('How to reach you'), ' me@example.com ');
    await user.click(screen.getByRole('checkbox', { name: /I state in good faith/ }));
    await user.click(submit());

    await waitFor(() => expect(sentBodies(fetchMock, ENDPOINT)).toHaveLength(1));
    expect(sentBodies(fetchMock, ENDPOINT)[0]).toEqual({
      urls: ['https://hunktube.example/video/12?t=30', '15'],
      reason: 'underage',
      details: 'Filmed when I was 17.',
      contact: 'me@example.com',
      good_faith: true,
    });
    expect(fetchMock.mock.calls.find(([url]) => String(url) === ENDPOINT)?.[1]?.method).toBe('POST');

    // While the request is out the button waits, so it cannot be sent twice.
    expect(submit()).toBeDisabled();
    expect(submit()).toHaveTextContent('Sending…');
    await user.click(submit());
    expect(sentBodies(fetchMock, ENDPOINT)).toHaveLength(1);

    answer(json({ id: 314, video_ids: [12, 15] }, 201));

    const status = await screen.findByRole('status');
    expect(status).toHaveTextContent('Thank you. Your request number is 314.');
    expect(status).toHaveTextContent('Requests about minors and consent are reviewed before all others.');
    expect(status).toHaveFocus();
    expect(screen.queryByLabelText('Video address(es), one per line')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Send the request' })).not.toBeInTheDocument();
  });

  it('leaves details out when there are none', async () => {
    const fetchMock = setup();
    const user = userEvent.setup();
    renderRoute('/content-removal');
    await screen.findByRole('heading', { level: 1, name: 'Content removal requests' });
    await fillValidRequest(user);
    await user.type(screen.getByLabelText('Details (optional)'), '   ');

    await user.click(submit());

    expect(await screen.findByRole('status')).toHaveTextContent('Your request number is 1.');
    expect(sentBodies(fetchMock, ENDPOINT)).toEqual([
      { urls: ['https://hunktube.example/video/12'], reason: 'no-consent', contact: 'me@example.com', good_faith: true },
    ]);
  });

  it.each([
    [400, 'There is no video 12 on this site (it may have been removed already)'],
    [429, 'Too many requests, please try again later'],
  ])('shows the reason the server gives for a %i, keeping what was typed', async (statusCode, error) => {
    setup({ [ENDPOINT]: () => json({ error, statusCode }, statusCode) });
    const user = userEvent.setup();
    renderRoute('/content-removal');
    await screen.findByRole('heading', { level: 1, name: 'Content removal requests' });
    await fillValidRequest(user);

    await user.click(submit());

    expect(await screen.findByRole('alert')).toHaveTextContent(error);
    expect(addresses()).toHaveValue('https://hunktube.example/video/12');
    expect(submit()).toHaveTextContent('Send the request');
    expect(submit()).toBeEnabled();
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
  });

  it('offers the e-mail address when the request could not reach the server', async () => {
    setup({
      [ENDPOINT]: () => {
        throw new TypeError('Failed to fetch');
      },
    });
    const user = userEvent.setup();
    renderRoute('/content-removal');
    await screen.findByRole('heading', { level: 1, name: 'Content removal requests' });
    await fillValidRequest(user);

    await user.click(submit());

    expect(await screen.findByRole('alert')).toHaveTextContent(
      `The request could not be sent. Try again, or write to ${removalAddress(window.location.hostname)}.`,
    );
    expect(submit()).toBeEnabled();
  });
});

describe('content removal page', () => {
  it('starts with the address of the video it was opened from', async () => {
    setup();
    renderRoute('/content-removal?video=123');

    expect(await screen.findByLabelText('Video address(es), one per line')).toHaveValue(
      `${window.location.origin}/video/123`,
    );
  });

  it.each(['abc', '0', '12.5', '-4', '99999999999'])('starts empty for ?video=%s', async (video) => {
    setup();
    renderRoute(`/content-removal?video=${video}`);

    expect(await screen.findByLabelText('Video address(es), one per line')).toHaveValue('');
  });

  it('says what happens to a request and keeps the e-mail address as the other way in', async () => {
    setup();
    renderRoute('/content-removal');

    await screen.findByRole('heading', { level: 1, name: 'Content removal requests' });
    const address = removalAddress(window.location.hostname);
    expect(screen.getByRole('link', { name: address })).toHaveAttribute('href', `mailto:${address}`);
    expect(screen.getByText(/Requests about minors or non-consent are reviewed before all others/)).toBeInTheDocument();
    expect(screen.getByText(/you get a request number/)).toBeInTheDocument();
    expect(screen.queryByText(/writes the e-mail/)).not.toBeInTheDocument();
    expect(screen.queryByText(/taken down while we check/)).not.toBeInTheDocument();
  });
});
