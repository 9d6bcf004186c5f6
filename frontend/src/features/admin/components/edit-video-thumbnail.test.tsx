import { screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { json, sentBodies } from '@/testing/mock-fetch';
import { callsTo, deferred, renderPanel } from './edit-video-testing';

const PATH = '/api/admin/update-thumbnail';

let alertSpy: ReturnType<typeof vi.spyOn>;
let createObjectURL: ReturnType<typeof vi.fn>;
let revokeObjectURL: ReturnType<typeof vi.fn>;
let previews = 0;
const originals = { create: URL.createObjectURL, revoke: URL.revokeObjectURL };

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
  alertSpy = vi.spyOn(window, 'alert').mockImplementation(() => {});
  previews = 0;
  // jsdom has no object URLs.
  createObjectURL = vi.fn(() => `blob:preview-${++previews}`);
  revokeObjectURL = vi.fn();
  URL.createObjectURL = createObjectURL as unknown as typeof URL.createObjectURL;
  URL.revokeObjectURL = revokeObjectURL as unknown as typeof URL.revokeObjectURL;
});

afterEach(() => {
  URL.createObjectURL = originals.create;
  URL.revokeObjectURL = originals.revoke;
});

const png = (name = 'new-poster.png') => new File(['png bytes'], name, { type: 'image/png' });
const picker = () => screen.getByLabelText('New thumbnail image') as HTMLInputElement;
const saveThumbnail = () => screen.getByRole('button', { name: 'Save Thumbnail' });
const currentThumbnail = () => screen.getByRole('img', { name: 'Current thumbnail' });

describe('edit panel: thumbnail', () => {
  it('accepts jpg, jpeg, png, webp and avif, and shows Save Thumbnail only once a file is picked', async () => {
    renderPanel();

    expect(picker()).toHaveAttribute('type', 'file');
    expect(picker()).toHaveAttribute(
      'accept',
      '.jpg,.jpeg,.png,.webp,.avif,image/jpeg,image/png,image/webp,image/avif',
    );
    expect(screen.queryByRole('button', { name: 'Save Thumbnail' })).not.toBeInTheDocument();
    await waitFor(() =>
      expect(currentThumbnail()).toHaveAttribute('src', 'https://img.example.com/thumbs/2024/06/pool-party/poster.jpg'),
    );
  });

  it.each([
    ['image/jpeg', 'poster.jpg'],
    ['image/png', 'poster.png'],
    ['image/webp', 'poster.webp'],
    ['image/avif', 'poster.avif'],
  ])('shows a preview of a %s file and Save Thumbnail', async (type, name) => {
    const { user } = renderPanel();

    await user.upload(picker(), new File(['bytes'], name, { type }));

    expect(screen.getByRole('img', { name: 'Preview of the new thumbnail' })).toHaveAttribute('src', 'blob:preview-1');
    expect(saveThumbnail()).toBeInTheDocument();
    expect(alertSpy).not.toHaveBeenCalled();
  });

  it('refuses another type of file with an alert and shows no preview', async () => {
    const { user } = renderPanel({ applyAccept: false });

    await user.upload(picker(), new File(['gif'], 'animated.gif', { type: 'image/gif' }));

    expect(alertSpy).toHaveBeenCalledWith('Invalid file type. Please select a JPG, PNG, or WEBP file.');
    expect(screen.queryByRole('img', { name: 'Preview of the new thumbnail' })).not.toBeInTheDocument();
    expect(createObjectURL).not.toHaveBeenCalled();
  });

  it('releases a preview once it is replaced, and the last one when the panel goes away', async () => {
    const { user, unmount } = renderPanel();

    await user.upload(picker(), png('first.png'));
    await user.upload(picker(), png('second.png'));
    expect(revokeObjectURL).toHaveBeenCalledWith('blob:preview-1');
    expect(screen.getByRole('img', { name: 'Preview of the new thumbnail' })).toHaveAttribute('src', 'blob:preview-2');

    unmount();
    expect(revokeObjectURL).toHaveBeenCalledWith('blob:preview-2');
  });

  it("uploads the picked file to the thumbnail URL field's path, alerts success and refreshes the thumbnail", async () => {
    const answer = deferred<Response>();
    const { fetchMock, user } = renderPanel({ routes: { [PATH]: () => answer.promise } });
    const file = png();

    await user.clear(screen.getByLabelText('Thumbnail URL'));
    await user.type(screen.getByLabelText('Thumbnail URL'), '/thumbs/2024/06/pool-party/custom.jpg');
    await user.upload(picker(), file);
    await user.click(saveThumbnail());

    await waitFor(() => expect(callsTo(fetchMock, PATH)).toHaveLength(1));
    const form = sentBodies(fetchMock, PATH)[0] as FormData;
    expect(form).toBeInstanceOf(FormData);
    expect(form.get('uploadPath')).toBe('/thumbs/2024/06/pool-party/custom.jpg');
    expect((form.get('file') as File).name).toBe('new-poster.png');
    expect(await (form.get('file') as File).text()).toBe('png bytes');
    expect(saveThumbnail()).toBeDisabled();

    answer.resolve(json({ url: '/thumbs/2024/06/pool-party/custom.jpg' }));

    await waitFor(() => expect(alertSpy).toHaveBeenCalledWith('Thumbnail uploaded successfully.'));
    await waitFor(() =>
      expect(currentThumbnail().getAttribute('src')).toMatch(
        /^https:\/\/img\.example\.com\/thumbs\/2024\/06\/pool-party\/custom\.jpg\?v=\d+$/,
      ),
    );
    // Done with that file: the preview and its button go.
    expect(screen.queryByRole('img', { name: 'Preview of the new thumbnail' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Save Thumbnail' })).not.toBeInTheDocument();
  });

  it("alerts 'No thumbnail URL provided.' when the thumbnail URL field is empty", async () => {
    const { fetchMock, user } = renderPanel();

    await user.upload(picker(), png());
    await user.clear(screen.getByLabelText('Thumbnail URL'));
    await user.click(saveThumbnail());

    expect(alertSpy).toHaveBeenCalledWith('No thumbnail URL provided.');
    expect(callsTo(fetchMock, PATH)).toHaveLength(0);
  });

  it("alerts 'No thumbnail selected for upload.' when the last file picked was refused", async () => {
    const { fetchMock, user } = renderPanel({ applyAccept: false });

    await user.upload(picker(), png());
    await user.upload(picker(), new File(['gif'], 'animated.gif', { type: 'image/gif' }));
    expect(screen.queryByRole('img', { name: 'Preview of the new thumbnail' })).not.toBeInTheDocument();
    alertSpy.mockClear();

    await user.click(saveThumbnail());

    expect(alertSpy).toHaveBeenCalledWith('No thumbnail selected for upload.');
    expect(alertSpy).toHaveBeenCalledTimes(1);
    expect(callsTo(fetchMock, PATH)).toHaveLength(0);
  });

  it("alerts 'No file selected.' when the file input was emptied after picking", async () => {
    const { fetchMock, user } = renderPanel();

    await user.upload(picker(), png());
    // A dismissed file dialog empties the input in some browsers; the preview stays.
    await user.upload(picker(), []);
    expect(picker().files).toHaveLength(0);
    expect(screen.getByRole('img', { name: 'Preview of the new thumbnail' })).toBeInTheDocument();

    await user.click(saveThumbnail());

    expect(alertSpy).toHaveBeenCalledWith('No file selected.');
    expect(callsTo(fetchMock, PATH)).toHaveLength(0);
  });

  it("alerts 'Failed to upload thumbnail.' when the server refuses the file", async () => {
    const { user } = renderPanel({
      routes: { [PATH]: () => json({ error: 'Unsupported image type', statusCode: 415 }, 415) },
    });

    await user.upload(picker(), png());
    await user.click(saveThumbnail());

    await waitFor(() => expect(alertSpy).toHaveBeenCalledWith('Failed to upload thumbnail.'));
    expect(alertSpy).not.toHaveBeenCalledWith('Thumbnail uploaded successfully.');
    expect(currentThumbnail().getAttribute('src')).not.toContain('?v=');
  });

  it("alerts 'An error occurred while uploading the thumbnail.' when the server cannot be reached", async () => {
    const { user } = renderPanel({
      routes: {
        [PATH]: () => {
          throw new TypeError('Failed to fetch');
        },
      },
    });

    await user.upload(picker(), png());
    await user.click(saveThumbnail());

    await waitFor(() =>
      expect(alertSpy).toHaveBeenCalledWith('An error occurred while uploading the thumbnail.'),
    );
    expect(alertSpy).not.toHaveBeenCalledWith('Failed to upload thumbnail.');
  });
});
