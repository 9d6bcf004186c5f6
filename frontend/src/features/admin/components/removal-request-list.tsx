import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Pagination } from '@/components/ui/pagination';
import type { RemovalRequest } from '@/lib/api/types';
import { useCloseRemovalRequest } from '../api/close-removal-request';
import { useDeleteVideo } from '../api/delete-video';
import { removalRequestsQueryKey, useRemovalRequests, type RemovalRequestListParams } from '../api/get-removal-requests';
import { failureNotice, useAdminNotice } from './admin-notice';
import { RemovalRequestCard, type RemovalRequestVideo } from './removal-request-card';
import { reasonShortLabel, RemovalRequestCounts, removalsPath } from './removal-request-counts';

const CLOSED_WORDS = { resolved: 'resolved', dismissed: 'dismissed' } as const;

/**
 * A page of the queue of removal requests in the order the API gives (open: urgent first, then the most reported,
 * then oldest), with the count of each reason and the way to the other pages, and the actions an admin takes on
 * them: close a request as resolved or dismissed, edit or delete a video it names.
 */
export function RemovalRequestList({ state, page = 1, reason }: RemovalRequestListParams) {
  const requests = useRemovalRequests({ state, page, reason });
  const close = useCloseRemovalRequest();
  const remove = useDeleteVideo();
  const queryClient = useQueryClient();
  const notice = useAdminNotice();
  // The video to delete once the admin confirms, and the request it was reached from.
  const [confirming, setConfirming] = useState<{ video: RemovalRequestVideo; requestId: number } | null>(null);

  const list = useRef<HTMLOListElement>(null);
  const empty = useRef<HTMLParagraphElement>(null);
  // A closed request leaves the list with the focus on its button: the focus moves on to the request that took
  // its place (or the one before, or the empty list's message) rather than falling back to the page.
  const leaving = useRef<{ id: number; index: number } | null>(null);
  const answer = requests.data;
  const data = answer?.data;
  useEffect(() => {
    const gone = leaving.current;
    if (!gone || !data || data.some((request) => request.id === gone.id)) return;
    leaving.current = null;
    const items = list.current?.querySelectorAll<HTMLElement>('.removal');
    (items?.length ? items[Math.min(gone.index, items.length - 1)] : empty.current)?.focus();
  }, [data]);

  const onClose = (request: RemovalRequest, index: number, closeAs: 'resolved' | 'dismissed') => {
    leaving.current = { id: request.id, index };
    close.mutate(
      { id: request.id, state: closeAs },
      {
        onSuccess: () => notice.success(`Request #${request.id} ${CLOSED_WORDS[closeAs]}.`),
        onError: (error) => {
          leaving.current = null;
          notice.error(failureNotice(`Request #${request.id} was not ${CLOSED_WORDS[closeAs]}`, error));
        },
      },
    );
  };

  const confirmDelete = () => {
    if (!confirming) return;
    const { video, requestId } = confirming;
    setConfirming(null);
    remove.mutate(
      { id: video.id },
      {
        onSuccess: () => notice.success(`Video ${video.id} deleted.`),
        onError: (error) => notice.error(failureNotice(`Video ${video.id} was not deleted`, error)),
        // Read again either way: the requests show each video as it now is (or as deleted).
        onSettled: async () => {
          await queryClient.invalidateQueries({ queryKey: removalRequestsQueryKey });
          // A deleted video loses its buttons, the focused one among them: the focus goes to its request.
          if (document.activeElement === document.body || !document.activeElement) {
            list.current?.querySelector<HTMLElement>(`[data-request-id="${requestId}"]`)?.focus();
          }
        },
      },
    );
  };

  if (requests.isPending) {
    return (
      <div className="removal-queue__loading" aria-busy="true">
        <p className="visually-hidden">Loading the removal requests…</p>
        {[0, 1, 2].map((key) => (
          <div className="skeleton removal-skeleton" key={key} aria-hidden="true" />
        ))}
      </div>
    );
  }

  if (requests.isError && !data) {
    return (
      <div className="notice" role="alert">
        <p>The removal requests could not be loaded.</p>
        <button className="button" type="button" onClick={() => void requests.refetch()}>
          Try again
        </button>
      </div>
    );
  }

  if (!answer || !data || (answer.total === 0 && !reason)) {
    return (
      <p className="notice" ref={empty} tabIndex={-1}>
        {state === 'open' ? 'No open removal requests.' : 'No closed removal requests.'}
      </p>
    );
  }

  const pageCount = Math.ceil(answer.total / answer.limit);
  return (
    <>
      <RemovalRequestCounts state={state} counts={answer.counts} reason={reason} />
      {data.length === 0 ? (
        <p className="notice" ref={empty} tabIndex={-1}>
          {answer.total === 0 && reason
            ? `No ${state} removal requests for “${reasonShortLabel(reason)}”.`
            : `Nothing on page ${page}: the list has ${pageCount} ${pageCount === 1 ? 'page' : 'pages'}.`}
        </p>
      ) : (
        <ol className="removal-queue" ref={list} aria-label={state === 'open' ? 'Open removal requests' : 'Closed removal requests'}>
          {data.map((request, index) => (
            <li key={request.id}>
              <RemovalRequestCard
                request={request}
                closing={close.isPending && close.variables.id === request.id}
                deletingVideoId={remove.isPending ? remove.variables.id : null}
                onClose={(closeAs) => onClose(request, index, closeAs)}
                onDeleteVideo={(video) => setConfirming({ video, requestId: request.id })}
              />
            </li>
          ))}
        </ol>
      )}
      <Pagination page={page} pageCount={pageCount} to={(to) => removalsPath({ state, reason, page: to })} />

      {confirming && (
        <ConfirmDialog open title="Confirm Deletion" confirmLabel="Delete" onConfirm={confirmDelete} onCancel={() => setConfirming(null)}>
          Are you sure you want to delete{' '}
          {confirming.video.title ? `“${confirming.video.title}” (video ${confirming.video.id})` : `video ${confirming.video.id}`}?
          This cannot be undone.
        </ConfirmDialog>
      )}
    </>
  );
}
