import { EDIT_CONFLICT } from '@hunktube/shared';
import { useId, useState, type FormEvent } from 'react';
import { getVideo } from '@/api/videos/get-video';
import type { CreatableTaxonKind } from '@/api/taxonomy/get-taxa';
import { ApiError } from '@/lib/api/client';
import type { TaxonRef, Video } from '@/lib/api/types';
import { useSite } from '@/lib/site';
import { useUpdateVideo } from '../api/update-video';
import { errorText, failureNotice, useAdminNotice } from './admin-notice';
import { EditVideoActions } from './edit-video-actions';
import { EditVideoChapters } from './edit-video-chapters';
import { EditVideoClientIp } from './edit-video-client-ip';
import { EditVideoTags } from './edit-video-tags';
import { EditVideoTaxa } from './edit-video-taxa';
import { EditVideoThumbnail } from './edit-video-thumbnail';

export interface EditVideoPanelProps {
  /** The video to edit; the panel keeps a local copy of it. */
  video: Video;
  /** Called with the saved video, and only after the API accepted the save. */
  onSaved: (video: Video) => void;
  /** Called once the API has deleted the video. */
  onDeleted: () => void;
}

type TextKey = 'slug' | 'title' | 'atg_title' | 'jtg_title' | 'upload_date' | 'thumbnail' | 'url';
type NumberKey = 'views' | 'likes' | 'featured';

/**
 * Admin Mode - Edit Video: the form over a local copy of one video, its categories, performers and tags, its
 * thumbnail, and the admin actions. The parent hears of a change only once the API has accepted it.
 */
export function EditVideoPanel({ video, onSaved, onDeleted }: EditVideoPanelProps) {
  const id = useId();
  const [draft, setDraft] = useState<Video>(video);
  // The video as last read from the API: the version the next save is made from.
  const [base, setBase] = useState<Video>(video);
  const [conflict, setConflict] = useState(false);
  const [reloading, setReloading] = useState(false);
  const update = useUpdateVideo();
  const notice = useAdminNotice();
  const site = useSite();

  const setText = (key: TextKey, value: string) => setDraft((current) => ({ ...current, [key]: value }));
  // An emptied number field is held as NaN, which the field shows as empty and the form refuses to submit.
  const setNumber = (key: NumberKey, value: string) =>
    setDraft((current) => ({ ...current, [key]: value === '' ? Number.NaN : Number(value) }));
  const add = (kind: CreatableTaxonKind) => (taxon: TaxonRef) =>
    setDraft((current) =>
      current[kind].some((item) => item.id === taxon.id) ? current : { ...current, [kind]: [...current[kind], taxon] },
    );

  const save = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!event.currentTarget.reportValidity()) return;
    update.mutate({ video: draft, read: base }, {
      onSuccess: (saved) => {
        setDraft(saved);
        setBase(saved);
        setConflict(false);
        onSaved(saved);
        notice.success('Changes saved.');
      },
      onError: (error) => {
        console.error('Error updating video', errorText(error));
        if (error instanceof ApiError && error.statusCode === 409 && error.serverError === EDIT_CONFLICT) setConflict(true);
        notice.error(failureNotice('The changes were not saved', error));
      },
    });
  };

  /** Reads the video again, dropping the local edits, after another admin saved it. */
  const reload = async () => {
    setReloading(true);
    try {
      const fresh = await getVideo(video.id);
      setDraft(fresh);
      setBase(fresh);
      setConflict(false);
    } catch (error) {
      notice.error(failureNotice('The video could not be reloaded', error));
    } finally {
      setReloading(false);
    }
  };

  const textField = (key: TextKey, label: string, wide = false) => (
    <div className={wide ? 'field edit-video__wide' : 'field'}>
      <label htmlFor={`${id}-${key}`}>{label}</label>
      <input
        id={`${id}-${key}`}
        type="text"
        value={draft[key]}
        spellCheck={key.endsWith('title')}
        onChange={(event) => setText(key, event.target.value)}
      />
    </div>
  );

  const numberField = (key: NumberKey, label: string, min?: number) => (
    <div className="field">
      <label htmlFor={`${id}-${key}`}>{label}</label>
      <input
        id={`${id}-${key}`}
        type="number"
        inputMode="numeric"
        required
        step={1}
        min={min}
        value={Number.isNaN(draft[key]) ? '' : draft[key]}
        onChange={(event) => setNumber(key, event.target.value)}
      />
    </div>
  );

  return (
    <section className="edit-video" aria-labelledby={`${id}-heading`}>
      <div className="edit-video__head">
        <h1 id={`${id}-heading`}>Admin Mode - Edit Video</h1>
        <EditVideoClientIp />
      </div>

      {conflict && (
        <div className="edit-video__conflict" role="alert">
          <p>{EDIT_CONFLICT}.</p>
          <button className="button" type="button" onClick={() => void reload()} disabled={reloading}>
            Reload video
          </button>
        </div>
      )}

      <form className="edit-video__form" onSubmit={save}>
        {textField('slug', 'Slug', true)}
        {textField('title', 'Title', true)}
        {textField('atg_title', 'ATG title')}
        {textField('jtg_title', 'JTG title')}
        {numberField('views', 'Views', 0)}
        {numberField('likes', 'Likes', 0)}
        {numberField('featured', 'Featured')}
        <EditVideoTaxa kind="categories" items={draft.categories} onAdd={add('categories')} />
        <EditVideoTaxa kind="performers" items={draft.performers} onAdd={add('performers')} />
        <EditVideoTags tags={draft.tags} onChange={(tags) => setDraft((current) => ({ ...current, tags }))} />
        {textField('upload_date', 'Upload date')}
        {textField('thumbnail', 'Thumbnail URL', true)}
        {textField('url', 'Video URL', true)}
        <EditVideoChapters
          videoId={draft.id}
          chapters={draft.chapters}
          duration={draft.duration}
          onChange={(chapters) => setDraft((current) => ({ ...current, chapters }))}
        />
        <div className="edit-video__save edit-video__wide">
          <button className="button button--primary" type="submit" disabled={update.isPending}>
            Save Changes
          </button>
        </div>
      </form>

      <section className="edit-video__section" aria-labelledby={`${id}-thumbnail-heading`}>
        <h2 id={`${id}-thumbnail-heading`}>Thumbnail</h2>
        <EditVideoThumbnail thumbnailUrl={draft.thumbnail} imageHost={site.data?.imageHost} />
      </section>

      <EditVideoActions video={draft} onDeleted={onDeleted} />
    </section>
  );
}
