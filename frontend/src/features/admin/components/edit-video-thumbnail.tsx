import { useEffect, useId, useRef, useState, type ChangeEvent } from 'react';
import { Thumbnail } from '@/components/ui/thumbnail';
import { ApiError } from '@/lib/api/client';
import { resolveImageUrl } from '@/lib/site';
import { useUpdateThumbnail } from '../api/update-thumbnail';
import { errorText } from './admin-notice';

/** What the file picker offers: the extensions and the media types of the accepted images. */
export const THUMBNAIL_ACCEPT = '.jpg,.jpeg,.png,.webp,.avif,image/jpeg,image/png,image/webp,image/avif';
const THUMBNAIL_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'image/avif'];

interface EditVideoThumbnailProps {
  /** The thumbnail URL field of the local copy: shown, and the path that an upload replaces. */
  thumbnailUrl: string;
  imageHost: string | undefined;
}

interface Chosen {
  file: File;
  previewUrl: string;
}

/** A URL that the browser has not cached yet, for an image replaced under the same address. */
function cacheBusted(url: string | null, version: number): string | null {
  if (!url || version === 0) return url;
  return `${url}${url.includes('?') ? '&' : '?'}v=${version}`;
}

/**
 * The current thumbnail and its replacement: picking an accepted image shows a preview and Save Thumbnail, which
 * uploads the picked file over the file that the thumbnail URL field names.
 */
export function EditVideoThumbnail({ thumbnailUrl, imageHost }: EditVideoThumbnailProps) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  // Save Thumbnail shows once a file has been picked, even one refused since, so that it can say why it cannot save.
  const [picked, setPicked] = useState(false);
  const [chosen, setChosen] = useState<Chosen | null>(null);
  const [version, setVersion] = useState(0);
  const upload = useUpdateThumbnail();

  // Each preview's object URL is released once it is replaced or the panel goes away.
  useEffect(() => {
    if (!chosen) return;
    return () => URL.revokeObjectURL(chosen.previewUrl);
  }, [chosen]);

  const pick = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    // A dismissed picker (some browsers then empty the input) keeps the preview; Save then says 'No file selected.'
    if (!file) return;
    setPicked(true);
    if (!THUMBNAIL_TYPES.includes(file.type)) {
      setChosen(null);
      window.alert('Invalid file type. Please select a JPG, PNG, or WEBP file.');
      return;
    }
    setChosen({ file, previewUrl: URL.createObjectURL(file) });
  };

  // The destination first (without it nothing can be saved), then the chosen image, then the input holding it.
  const save = () => {
    const uploadPath = thumbnailUrl.trim();
    if (!uploadPath) {
      window.alert('No thumbnail URL provided.');
      return;
    }
    if (!chosen) {
      window.alert('No thumbnail selected for upload.');
      return;
    }
    const file = input.current?.files?.[0];
    if (!file) {
      window.alert('No file selected.');
      return;
    }
    upload.mutate(
      { file, uploadPath },
      {
        onSuccess: () => {
          window.alert('Thumbnail uploaded successfully.');
          setVersion(Date.now());
          setChosen(null);
          setPicked(false);
          if (input.current) input.current.value = '';
        },
        onError: (error) => {
          console.error('Error uploading thumbnail', errorText(error));
          window.alert(
            error instanceof ApiError
              ? 'Failed to upload thumbnail.'
              : 'An error occurred while uploading the thumbnail.',
          );
        },
      },
    );
  };

  return (
    <div className="edit-video__thumbnail">
      <figure className="edit-video__figure">
        <Thumbnail src={cacheBusted(resolveImageUrl(thumbnailUrl, imageHost), version)} alt="Current thumbnail" />
        <figcaption>Current thumbnail</figcaption>
      </figure>
      {chosen && (
        <figure className="edit-video__figure">
          <div className="thumbnail">
            <img className="thumbnail__image" src={chosen.previewUrl} alt="Preview of the new thumbnail" />
          </div>
          <figcaption>New thumbnail: {chosen.file.name}</figcaption>
        </figure>
      )}
      <div className="field edit-video__picker">
        <label htmlFor={`${id}-file`}>New thumbnail image</label>
        <input ref={input} id={`${id}-file`} type="file" accept={THUMBNAIL_ACCEPT} onChange={pick} />
        <p className="field__hint">JPG, PNG, WEBP or AVIF, up to 10 MB. It replaces the file at the thumbnail URL.</p>
      </div>
      {picked && (
        <button className="button" type="button" disabled={upload.isPending} onClick={save}>
          Save Thumbnail
        </button>
      )}
    </div>
  );
}
