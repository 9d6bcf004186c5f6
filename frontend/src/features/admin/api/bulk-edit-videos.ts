import { slugify } from '@hunktube/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { type CreatableTaxonKind, taxonomyKeys } from '@/api/taxonomy/keys';
import { getVideo } from '@/api/videos/get-video';
import { videoKeys } from '@/api/videos/keys';
import type { TaxonRef, Video, VideoCard } from '@/lib/api/types';
import { deleteVideo } from './delete-video';
import { updateVideo } from './update-video';

/** How many videos are read and written at the same time: quick, without flooding the API or its rate limit. */
export const BULK_CONCURRENCY = 4;

/** The videos a bulk action is about: the table's cards (their titles name failures). */
export type BulkTarget = Pick<VideoCard, 'id' | 'title'>;

export interface BulkFailure {
  video: BulkTarget;
  error: unknown;
}

export interface BulkResult {
  /** The videos the action succeeded for, in the order given. */
  done: BulkTarget[];
  failed: BulkFailure[];
}

export interface BulkProgress {
  finished: number;
  total: number;
}

/**
 * Runs `task` for every item with at most `limit` running at once. Never rejects: each item's failure is
 * collected, so one bad video does not stop the others.
 */
export async function runPool<T>(
  items: readonly T[],
  limit: number,
  task: (item: T) => Promise<unknown>,
  onSettled?: (finished: number) => void,
): Promise<{ done: T[]; failed: { item: T; error: unknown }[] }> {
  const outcomes: ({ ok: true } | { ok: false; error: unknown })[] = new Array(items.length);
  let next = 0;
  let finished = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      try {
        await task(items[index]);
        outcomes[index] = { ok: true };
      } catch (error) {
        outcomes[index] = { ok: false, error };
      }
      finished += 1;
      onSettled?.(finished);
    }
  };
  await Promise.all(Array.from({ length: Math.min(Math.max(1, limit), items.length) }, worker));
  const done: T[] = [];
  const failed: { item: T; error: unknown }[] = [];
  outcomes.forEach((outcome, index) => {
    if (outcome.ok) done.push(items[index]);
    else failed.push({ item: items[index], error: outcome.error });
  });
  return { done, failed };
}

/**
 * One change applied to each selected video; the rest of the video is sent back as it was read. A tag is added
 * by its name as typed (the API matches it to a tag by the slug rule, a synonym or its name, or creates it) and
 * removed by its id.
 */
export type BulkEdit =
  | { type: 'set-featured'; featured: number }
  | { type: 'add-taxon'; kind: CreatableTaxonKind; taxon: TaxonRef }
  | { type: 'remove-taxon'; kind: CreatableTaxonKind; id: string }
  | { type: 'add-tag'; name: string }
  | { type: 'remove-tag'; id: string };

/**
 * The video with the edit applied, or null when it already is that way (nothing to write). A tag past the most a
 * video may have (TAGS_PER_VIDEO_MAX) is sent all the same: the API refuses it, and says why, for that video.
 */
export function applyBulkEdit(video: Video, edit: BulkEdit): Video | null {
  switch (edit.type) {
    case 'set-featured':
      return video.featured === edit.featured ? null : { ...video, featured: edit.featured };
    case 'add-taxon': {
      const list = video[edit.kind];
      if (list.some((taxon) => taxon.id === edit.taxon.id)) return null;
      return { ...video, [edit.kind]: [...list, { id: edit.taxon.id, name: edit.taxon.name }] };
    }
    case 'remove-taxon': {
      const list = video[edit.kind];
      if (!list.some((taxon) => taxon.id === edit.id)) return null;
      return { ...video, [edit.kind]: list.filter((taxon) => taxon.id !== edit.id) };
    }
    case 'add-tag': {
      const name = edit.name.trim();
      const slug = slugify(name);
      if (video.tags.some((tag) => tag.id === slug || slugify(tag.name) === slug)) return null;
      return { ...video, tags: [...video.tags, { id: slug, name }] };
    }
    case 'remove-tag':
      if (!video.tags.some((tag) => tag.id === edit.id)) return null;
      return { ...video, tags: video.tags.filter((tag) => tag.id !== edit.id) };
  }
}

/**
 * The contract has no bulk endpoint: each video is read whole (GET /api/videos/{id}), changed and written back
 * (POST /api/admin/update-video), a few at a time. Videos that already have the change are not written.
 */
export async function bulkEditVideos(
  videos: readonly BulkTarget[],
  edit: BulkEdit,
  { onSettled, onSaved }: { onSettled?: (finished: number) => void; onSaved?: (video: Video) => void } = {},
): Promise<BulkResult> {
  const { done, failed } = await runPool(
    videos,
    BULK_CONCURRENCY,
    async (target) => {
      const read = await getVideo(target.id);
      const changed = applyBulkEdit(read, edit);
      if (changed) onSaved?.(await updateVideo(changed, read));
    },
    onSettled,
  );
  return { done, failed: failed.map(({ item, error }) => ({ video: item, error })) };
}

/** POST /api/admin/delete-video for each video, a few at a time. */
export async function bulkDeleteVideos(
  videos: readonly BulkTarget[],
  { onSettled }: { onSettled?: (finished: number) => void } = {},
): Promise<BulkResult> {
  const { done, failed } = await runPool(videos, BULK_CONCURRENCY, (video) => deleteVideo(video), onSettled);
  return { done, failed: failed.map(({ item, error }) => ({ video: item, error })) };
}

export type BulkAction = { type: 'delete' } | BulkEdit;

/**
 * Runs a bulk action over the selected videos with a running count, then refreshes every listing and the
 * changed videos' cached reads. The mutation resolves with the per-video outcome; it does not reject.
 */
export function useBulkAction() {
  const queryClient = useQueryClient();
  const [progress, setProgress] = useState<BulkProgress | null>(null);

  const mutation = useMutation({
    mutationFn: ({ videos, action }: { videos: BulkTarget[]; action: BulkAction }) => {
      setProgress({ finished: 0, total: videos.length });
      const onSettled = (finished: number) => setProgress({ finished, total: videos.length });
      return action.type === 'delete'
        ? bulkDeleteVideos(videos, { onSettled })
        : bulkEditVideos(videos, action, {
            onSettled,
            onSaved: (saved) => queryClient.setQueryData(videoKeys.detail(saved.id), saved),
          });
    },
    onSettled: (result, _error, { action }) => {
      setProgress(null);
      if (action.type === 'delete') {
        for (const { id } of result?.done ?? []) queryClient.removeQueries({ queryKey: videoKeys.detail(id) });
      }
      void queryClient.invalidateQueries({ queryKey: videoKeys.lists });
      // Counts of videos per category, performer and tag change with the videos (and a tag added may be new).
      void queryClient.invalidateQueries({ queryKey: taxonomyKeys.all });
    },
  });

  return { ...mutation, progress };
}
