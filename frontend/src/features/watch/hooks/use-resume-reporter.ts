import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef } from 'react';
import { saveResumePosition } from '@/api/history/continue-watching';
import { listKeys } from '@/api/lists/keys';
import { rememberGuestProgress } from '@/lib/continue-watching';
import type { User } from '@/lib/api/types';

/** A member's position goes to the API at most this often while playing; pausing, the end and leaving send at once. */
export const SEND_EVERY_MS = 30_000;

/**
 * Where the viewer is in the video, for the home page's Continue watching (docs/decisions.md › "Continue watching"): a
 * guest's in this browser's index, a member's in the API (their history). Answers the player's `onProgress`.
 */
export function useResumeReporter(videoId: number, user: User | null) {
  const queryClient = useQueryClient();
  const state = useRef({ sent: undefined as number | null | undefined, pending: undefined as number | null | undefined, lastSentAt: 0, stopped: false });
  const userId = user?.id ?? null;

  const send = useCallback(
    (keepalive: boolean) => {
      const current = state.current;
      if (!userId || current.stopped || current.pending === undefined || current.pending === current.sent) return;
      const position = current.pending;
      current.sent = position;
      current.lastSentAt = Date.now();
      saveResumePosition(videoId, position, keepalive).then(
        (answer) => {
          // History paused: nothing is recorded, so nothing more is sent from this page.
          if (!answer.recorded) current.stopped = true;
          void queryClient.invalidateQueries({ queryKey: listKeys.continueWatching(userId) });
          void queryClient.invalidateQueries({ queryKey: listKeys.list('history', userId) });
        },
        (error: unknown) => {
          // Tried again with the next report.
          if (current.sent === position) current.sent = undefined;
          console.error('Error saving where you stopped', error);
        },
      );
    },
    [videoId, userId, queryClient],
  );

  // The last position leaves with the page: another page of the app, or another site, a closed tab.
  useEffect(() => {
    const onHide = () => send(true);
    window.addEventListener('pagehide', onHide);
    return () => {
      window.removeEventListener('pagehide', onHide);
      send(true);
    };
  }, [send]);

  return useCallback(
    (position: number | null, settled: boolean) => {
      if (!userId) {
        rememberGuestProgress(videoId, position);
        return;
      }
      state.current.pending = position;
      if (settled || Date.now() - state.current.lastSentAt >= SEND_EVERY_MS) send(false);
    },
    [videoId, userId, send],
  );
}
