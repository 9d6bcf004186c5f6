import { VIDEO_TITLE_MAX_LENGTH } from '@hunktube/shared';
import { useEffect, useId, useState, type FormEvent } from 'react';
import { ApiError } from '@/lib/api/client';
import type { TaxonRef, UploadAccepted } from '@/lib/api/types';
import { isAbortError, UploadNetworkError, useUploadVideo, type UploadProgress } from '../api/upload-video';
import { JobProgress } from './job-progress';
import { formatBytes, looksLikeVideo, UploadDropZone } from './upload-drop-zone';
import { UploadTaxaPicker } from './upload-taxa-picker';
import { EditVideoTags } from './edit-video-tags';

/** The longest title the API takes (UploadVideoDto). */

interface Fields {
  title: string;
  atg_title: string;
  jtg_title: string;
  featured: string;
  categories: string[];
  performers: string[];
  tags: TaxonRef[];
}

const EMPTY: Fields = { title: '', atg_title: '', jtg_title: '', featured: '0', categories: [], performers: [], tags: [] };

interface Problems {
  file?: string;
  title?: string;
  featured?: string;
}

const notAVideo = (file: File) => `“${file.name}” is not a video file. Choose a video (MP4, MOV, MKV, WebM…).`;

/** The message for an upload that did not start a job. */
export function uploadErrorMessage(error: unknown): string {
  if (error instanceof UploadNetworkError) {
    return 'The upload did not reach the server. Check the connection and try again.';
  }
  if (error instanceof ApiError) {
    switch (error.statusCode) {
      case 413:
        return 'This file is too large for the server. Choose a smaller video.';
      case 415:
        return 'The server did not accept this file as a video. Choose an MP4, MOV, MKV, WebM, AVI, MPEG-TS or FLV file.';
      case 400:
        return error.serverError ?? 'The server did not accept the upload.';
      case 401:
        return 'Your session has ended. Log in again, then upload the video again.';
      case 403:
        return 'Only admins can upload videos.';
      default:
        return `The upload failed: ${error.message}`;
    }
  }
  return 'The upload failed. Please try again.';
}

function validate(file: File | null, fields: Fields): Problems {
  const problems: Problems = {};
  if (!file) problems.file = 'Choose a video file to upload.';
  else if (!looksLikeVideo(file)) problems.file = notAVideo(file);
  const title = fields.title.trim();
  if (!title) problems.title = 'Enter a title.';
  else if (title.length > VIDEO_TITLE_MAX_LENGTH) problems.title = `The title can be at most ${VIDEO_TITLE_MAX_LENGTH} characters.`;
  const featured = Number(fields.featured);
  if (fields.featured.trim() === '' || !Number.isSafeInteger(featured) || featured < 0) {
    problems.featured = 'Featured is a whole number, 0 or more.';
  }
  return problems;
}

/**
 * Uploads a new video: the file (dropped or chosen), its titles, featured value, categories and performers.
 * Shows the bytes sent while uploading (cancellable), then follows the ingest job the server started.
 */
export function UploadForm() {
  const id = useId();
  const upload = useUploadVideo();
  const [file, setFile] = useState<File | null>(null);
  const [fields, setFields] = useState<Fields>(EMPTY);
  const [problems, setProblems] = useState<Problems>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [cancelled, setCancelled] = useState(false);
  const [accepted, setAccepted] = useState<(UploadAccepted & { title: string }) | null>(null);

  const uploading = upload.isPending;

  // Closing or reloading the tab would drop the upload: the browser asks first.
  useEffect(() => {
    if (!uploading) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [uploading]);

  const set = <K extends keyof Fields>(key: K, value: Fields[K]) => setFields((current) => ({ ...current, [key]: value }));

  const chooseFile = (next: File | null) => {
    setFile(next);
    setFailure(null);
    setCancelled(false);
    setProblems((current) => ({ ...current, file: next && !looksLikeVideo(next) ? notAVideo(next) : undefined }));
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setFailure(null);
    setCancelled(false);
    const found = validate(file, fields);
    setProblems(found);
    if (found.file || found.title || found.featured || !file) {
      // Take the admin to the first field that needs them.
      const first = found.file
        ? document.getElementById(`${id}-drop`)?.querySelector('button')
        : document.getElementById(found.title ? `${id}-title` : `${id}-featured`);
      first?.focus();
      return;
    }
    const title = fields.title.trim();
    upload.mutate(
      {
        file,
        title,
        atg_title: fields.atg_title.trim() || undefined,
        jtg_title: fields.jtg_title.trim() || undefined,
        featured: Number(fields.featured),
        categories: fields.categories,
        performers: fields.performers,
        tags: fields.tags.map((tag) => tag.name),
      },
      {
        onSuccess: (result) => setAccepted({ ...result, title }),
        onError: (error) => {
          if (isAbortError(error)) setCancelled(true);
          else setFailure(uploadErrorMessage(error));
        },
      },
    );
  };

  const reset = () => {
    setAccepted(null);
    setFile(null);
    setFields(EMPTY);
    setProblems({});
    setFailure(null);
    setCancelled(false);
    upload.reset();
  };

  if (accepted) {
    return (
      <div className="upload-done">
        <p className="upload-done__lead" role="status">
          Uploaded “{accepted.title}” (video {accepted.id}).
        </p>
        <JobProgress jobId={accepted.job_id} videoId={accepted.id} />
        <button className="button button--quiet" type="button" onClick={reset}>
          Upload another video
        </button>
      </div>
    );
  }

  return (
    <form className="upload-form" onSubmit={onSubmit} noValidate aria-describedby={failure ? `${id}-failure` : undefined}>
      <div id={`${id}-drop`}>
        <UploadDropZone file={file} onFile={chooseFile} error={problems.file ?? null} disabled={uploading} />
      </div>

      <div className="upload-form__fields">
        <div className="field upload-form__wide">
          <label htmlFor={`${id}-title`}>Title</label>
          <input
            id={`${id}-title`}
            name="title"
            value={fields.title}
            onChange={(event) => set('title', event.target.value)}
            maxLength={VIDEO_TITLE_MAX_LENGTH}
            required
            disabled={uploading}
            aria-invalid={problems.title ? true : undefined}
            aria-describedby={problems.title ? `${id}-title-error` : undefined}
          />
          {problems.title && (
            <p className="form-error" id={`${id}-title-error`} role="alert">
              {problems.title}
            </p>
          )}
        </div>
        <div className="field">
          <label htmlFor={`${id}-atg`}>ATG title</label>
          <input
            id={`${id}-atg`}
            name="atg_title"
            value={fields.atg_title}
            onChange={(event) => set('atg_title', event.target.value)}
            maxLength={VIDEO_TITLE_MAX_LENGTH}
            disabled={uploading}
            aria-describedby={`${id}-brand-hint`}
          />
        </div>
        <div className="field">
          <label htmlFor={`${id}-jtg`}>JTG title</label>
          <input
            id={`${id}-jtg`}
            name="jtg_title"
            value={fields.jtg_title}
            onChange={(event) => set('jtg_title', event.target.value)}
            maxLength={VIDEO_TITLE_MAX_LENGTH}
            disabled={uploading}
            aria-describedby={`${id}-brand-hint`}
          />
        </div>
        <p className="field__hint upload-form__wide" id={`${id}-brand-hint`}>
          Optional: a brand shows its own title when set, else the main title.
        </p>
        <div className="field">
          <label htmlFor={`${id}-featured`}>Featured</label>
          <input
            id={`${id}-featured`}
            name="featured"
            type="number"
            min={0}
            step={1}
            inputMode="numeric"
            value={fields.featured}
            onChange={(event) => set('featured', event.target.value)}
            disabled={uploading}
            aria-invalid={problems.featured ? true : undefined}
            aria-describedby={problems.featured ? `${id}-featured-error` : `${id}-featured-hint`}
          />
          {problems.featured ? (
            <p className="form-error" id={`${id}-featured-error`} role="alert">
              {problems.featured}
            </p>
          ) : (
            <span className="field__hint" id={`${id}-featured-hint`}>
              0 is not featured
            </span>
          )}
        </div>
      </div>

      <div className="upload-form__taxa">
        <UploadTaxaPicker
          kind="categories"
          legend="Categories"
          value={fields.categories}
          onChange={(ids) => set('categories', ids)}
          disabled={uploading}
        />
        <UploadTaxaPicker
          kind="performers"
          legend="Performers"
          value={fields.performers}
          onChange={(ids) => set('performers', ids)}
          disabled={uploading}
        />
        <EditVideoTags tags={fields.tags} onChange={(tags) => set('tags', tags)} />
      </div>

      {failure && (
        <p className="form-error" id={`${id}-failure`} role="alert">
          {failure}
        </p>
      )}
      {cancelled && (
        <p className="upload-form__cancelled" role="status">
          Upload cancelled. The form is kept: upload again when ready.
        </p>
      )}

      {uploading ? (
        <UploadProgressPanel progress={upload.progress} onCancel={upload.cancel} />
      ) : (
        <div className="upload-form__buttons">
          <button className="button button--primary" type="submit">
            Upload
          </button>
        </div>
      )}
    </form>
  );
}

/** The bytes of the request body sent so far, with Cancel. */
function UploadProgressPanel({ progress, onCancel }: { progress: UploadProgress | null; onCancel: () => void }) {
  const total = progress?.total ?? null;
  const loaded = progress?.loaded ?? 0;
  const percent = total ? Math.min(100, Math.floor((loaded / total) * 100)) : null;
  const sent = total !== null && loaded >= total;

  return (
    <div className="upload-progress">
      <div className="upload-progress__row">
        <progress
          className="upload-progress__bar"
          aria-label="Upload progress"
          max={100}
          {...(percent !== null ? { value: percent } : {})}
        />
        <span className="upload-progress__percent">{percent !== null ? `${percent}%` : '…'}</span>
      </div>
      <p className="visually-hidden" aria-live="polite">
        {sent ? 'Upload sent, waiting for the server' : 'Uploading'}
      </p>
      <p className="upload-progress__text">
        {sent
          ? 'Sent. Waiting for the server to accept the file…'
          : total
            ? `Uploading: ${formatBytes(loaded)} of ${formatBytes(total)}`
            : `Uploading: ${formatBytes(loaded)} sent`}
      </p>
      <p className="field__hint">Stay on this page until the upload ends: leaving it cancels the upload.</p>
      <button className="button button--quiet" type="button" onClick={onCancel} disabled={sent}>
        Cancel
      </button>
    </div>
  );
}
