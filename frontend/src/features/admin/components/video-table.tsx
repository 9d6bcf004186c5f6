import { formatDuration } from '@hunktube/shared';
import { useCallback, useEffect, useId, useRef, useState, type ChangeEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useVideos } from '@/api/videos/get-videos';
import { DEFAULT_SORT, parseSort, type VideoSort } from '@/api/videos/sorts';
import { Pagination } from '@/components/ui/pagination';
import { Thumbnail } from '@/components/ui/thumbnail';
import { parsePage } from '@/lib/page-param';
import { ApiError } from '@/lib/api/client';
import type { VideoCard } from '@/lib/api/types';
import { formatNumber } from '@/lib/format';
import { resolveImageUrl, useSite } from '@/lib/site';
import { useBulkAction, type BulkAction, type BulkResult, type BulkTarget } from '../api/bulk-edit-videos';
import { BulkActionBar } from './bulk-action-bar';
import { useAdminNotice } from './admin-notice';
import { VideoTableFilters } from './video-table-filters';

/** Rows per page (the API allows up to 60). */
export const ADMIN_PAGE_SIZE = 50;

const dateFormat = new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeZone: 'UTC' });

const countOf = (count: number) => `${count} ${count === 1 ? 'video' : 'videos'}`;

/** 'Updated 3 videos', or what was done and which videos failed, by title, with the server's reason. */
export function bulkOutcomeText(verb: 'update' | 'delete', { done, failed }: BulkResult): string {
  const past = verb === 'update' ? 'Updated' : 'Deleted';
  if (failed.length === 0) return `${past} ${countOf(done.length)}`;
  const names = failed
    .map(({ video, error }) => {
      const reason = error instanceof ApiError ? error.serverError?.replace(/\.$/, '') : undefined;
      return reason ? `${video.title} (${reason})` : video.title;
    })
    .join(', ');
  const prefix = done.length > 0 ? `${past} ${countOf(done.length)}. ` : '';
  return `${prefix}Could not ${verb} ${failed.length} of ${countOf(done.length + failed.length)}: ${names}.`;
}

function formatDate(iso: string): string {
  const time = Date.parse(iso);
  return Number.isNaN(time) ? iso : dateFormat.format(time);
}

/** The query string of the table's view, leaving out defaults so that links stay short. */
function tableSearch({ q, sort, page }: { q: string; sort: VideoSort; page: number }): string {
  const params = new URLSearchParams();
  if (q) params.set('q', q);
  if (sort !== DEFAULT_SORT) params.set('sort', sort);
  if (page > 1) params.set('page', String(page));
  const search = params.toString();
  return search ? `?${search}` : '';
}

/**
 * The admin's catalogue: search, sort and pages kept in the URL; rows selected (one by one, a shift-click
 * range, or the whole page) for the bulk actions. The selection outlives paging, so it can span pages.
 */
export function VideoTable() {
  const id = useId();
  const [searchParams, setSearchParams] = useSearchParams();
  const q = (searchParams.get('q') ?? '').trim();
  const sort = parseSort(searchParams.get('sort'));
  const page = parsePage(searchParams.get('page'));

  const site = useSite();
  const videos = useVideos({ q: q || undefined, sort, page, limit: ADMIN_PAGE_SIZE });
  const rows = videos.data?.data ?? [];
  const pageCount = videos.data ? Math.ceil(videos.data.total / videos.data.limit) : 0;

  const [selection, setSelection] = useState<Map<number, BulkTarget>>(() => new Map());
  const lastClicked = useRef<number | null>(null);
  const bulk = useBulkAction();
  const notice = useAdminNotice();

  const onSearch = useCallback(
    (next: string) => setSearchParams(tableSearch({ q: next, sort, page: 1 }), { replace: true }),
    [setSearchParams, sort],
  );
  const onSort = (next: VideoSort) => setSearchParams(tableSearch({ q, sort: next, page: 1 }));

  // A range starts from a row of the page on screen.
  useEffect(() => {
    lastClicked.current = null;
  }, [q, sort, page]);

  const setSelected = (cards: VideoCard[], selected: boolean) =>
    setSelection((current) => {
      const next = new Map(current);
      for (const card of cards) {
        if (selected) next.set(card.id, { id: card.id, title: card.title });
        else next.delete(card.id);
      }
      return next;
    });

  const onRowChange = (index: number) => (event: ChangeEvent<HTMLInputElement>) => {
    const selected = event.target.checked;
    const shift = (event.nativeEvent as MouseEvent).shiftKey === true;
    const from = lastClicked.current;
    if (shift && from !== null && from < rows.length) {
      const [start, end] = from < index ? [from, index] : [index, from];
      setSelected(rows.slice(start, end + 1), selected);
    } else {
      setSelected([rows[index]], selected);
    }
    lastClicked.current = index;
  };

  const selectedOnPage = rows.filter((row) => selection.has(row.id)).length;
  const allOnPage = rows.length > 0 && selectedOnPage === rows.length;
  const selectAll = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (selectAll.current) selectAll.current.indeterminate = selectedOnPage > 0 && !allOnPage;
  }, [selectedOnPage, allOnPage]);

  const selected = [...selection.values()];

  const run = (action: BulkAction) => {
    bulk.mutate(
      { videos: selected, action },
      {
        onSuccess: (result) => {
          const text = bulkOutcomeText(action.type === 'delete' ? 'delete' : 'update', result);
          if (result.failed.length > 0) notice.error(text);
          else notice.success(text);
          // Only the failures stay selected, ready for another try.
          setSelection(new Map(result.failed.map(({ video }) => [video.id, video])));
          lastClicked.current = null;
        },
      },
    );
  };

  const imageHost = site.data?.imageHost;

  return (
    <div className="video-table">
      <VideoTableFilters q={q} sort={sort} onSearch={onSearch} onSort={onSort} />

      {selection.size > 0 && (
        <BulkActionBar
          selected={selected}
          busy={bulk.isPending}
          progress={bulk.progress}
          onRun={run}
          onClear={() => setSelection(new Map())}
        />
      )}

      {videos.isError ? (
        <div className="notice" role="alert">
          <p>The videos could not be loaded.</p>
          <button className="button" type="button" onClick={() => void videos.refetch()}>
            Try again
          </button>
        </div>
      ) : videos.isPending ? (
        <p className="notice" aria-busy="true">
          Loading the videos…
        </p>
      ) : rows.length === 0 ? (
        <p className="notice">
          {q ? `No videos match “${q}”.` : page > 1 ? 'There are no videos on this page.' : 'No videos yet.'}
        </p>
      ) : (
        <div className="video-table__scroll">
          <table className="admin-table" aria-labelledby={`${id}-caption`} aria-busy={videos.isPlaceholderData}>
            <caption id={`${id}-caption`} className="visually-hidden">
              Videos, page {page}
              {q ? `, matching “${q}”` : ''}
            </caption>
            <thead>
              <tr>
                <th scope="col" className="admin-table__check">
                  <input
                    ref={selectAll}
                    type="checkbox"
                    aria-label="Select all on this page"
                    checked={allOnPage}
                    onChange={(event) => setSelected(rows, event.target.checked)}
                  />
                </th>
                <th scope="col" className="admin-table__thumb">
                  <span className="visually-hidden">Thumbnail</span>
                </th>
                <th scope="col">Title</th>
                <th scope="col" className="admin-table__number">
                  Views
                </th>
                <th scope="col" className="admin-table__number">
                  Likes
                </th>
                <th scope="col" className="admin-table__number">
                  Featured
                </th>
                <th scope="col" className="admin-table__number">
                  Duration
                </th>
                <th scope="col">Uploaded</th>
                <th scope="col">
                  <span className="visually-hidden">Watch page</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((video, index) => (
                <tr key={video.id} className={selection.has(video.id) ? 'is-selected' : undefined}>
                  <td className="admin-table__check">
                    <input
                      type="checkbox"
                      aria-label={`Select ${video.title}`}
                      checked={selection.has(video.id)}
                      onChange={onRowChange(index)}
                    />
                  </td>
                  <td className="admin-table__thumb">
                    <Thumbnail src={resolveImageUrl(video.thumbnail, imageHost)} alt="" seed={video.id} />
                  </td>
                  <td className="admin-table__title">
                    <Link to={`/admin/videos/${video.id}`}>{video.title}</Link>
                  </td>
                  <td className="admin-table__number">{formatNumber(video.views)}</td>
                  <td className="admin-table__number">{formatNumber(video.likes)}</td>
                  <td className="admin-table__number">{video.featured}</td>
                  <td className="admin-table__number">{formatDuration(video.duration)}</td>
                  <td>
                    <time dateTime={video.upload_date}>{formatDate(video.upload_date)}</time>
                  </td>
                  <td>
                    <Link className="admin-table__view" to={`/video/${video.id}`} aria-label={`View ${video.title}`}>
                      View
                    </Link>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}

      {videos.data && (
        <Pagination page={page} pageCount={pageCount} to={(n) => ({ search: tableSearch({ q, sort, page: n }) })} />
      )}
    </div>
  );
}
