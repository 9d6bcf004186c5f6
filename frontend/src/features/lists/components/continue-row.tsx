import { useEffect, useState } from 'react';
import { CONTINUE_ROW_COUNT, useCardsByIds, useContinueWatching, useForgetContinueWatching } from '@/api/history/continue-watching';
import { VideoRow } from '@/components/ui/video-row';
import type { User, VideoCard } from '@/lib/api/types';
import { useBrowserValue } from '@/lib/browser-value';
import { forgetGuestProgress, guestContinueEntries, readContinueIndex } from '@/lib/continue-watching';
import { useHiddenExclude } from '@/lib/hidden-topics';
import { brandTitle, useSite } from '@/lib/site';

const HEADING = 'Continue watching';

/**
 * The home page's row of videos started and not finished, most recently watched first, each with how far it
 * got and a way to take it out (docs/decisions.md › "Continue watching"). A member's comes from the API (their history's
 * resume positions, hidden while the history is paused); a guest's from this browser. Only the browser draws
 * it: the server's page is the same for everyone.
 */
export function ContinueRow({ user }: { user: User | null }) {
  return user ? <MemberContinueRow userId={user.id} /> : <GuestContinueRow />;
}

function MemberContinueRow({ userId }: { userId: string }) {
  const row = useContinueWatching(userId);
  const forget = useForgetContinueWatching(userId);
  const cards = row.data?.data ?? [];
  return (
    <ContinueCards
      videos={cards}
      positionOf={(video) => cards.find((card) => card.id === video.id)?.position_seconds ?? 0}
      onRemove={(video) => forget.mutate(video.id)}
    />
  );
}

function GuestContinueRow() {
  // Read again after a removal here (another tab's changes show on the next visit).
  const [, setVersion] = useState(0);
  const raw = useBrowserValue(readContinueIndex, null);
  const entries = guestContinueEntries(raw).slice(0, CONTINUE_ROW_COUNT);
  const ids = entries.map((entry) => entry.id);
  const cards = useCardsByIds(ids);
  const hiding = useHiddenExclude() !== '';

  // What the catalogue no longer has (deleted, unpublished) leaves this browser's row for good. Not while the
  // guest hides topics: a card left out for them is not gone, and comes back when they unhide it.
  const answered = cards.isSuccess && !cards.isPlaceholderData ? cards.data.data : null;
  useEffect(() => {
    if (!answered || hiding) return;
    const present = new Set(answered.map((card) => card.id));
    const gone = ids.filter((id) => !present.has(id));
    if (gone.length > 0) forgetGuestProgress(gone);
    // Only a new answer can change what is gone.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [answered]);

  const positions = new Map(entries.map((entry) => [entry.id, entry.position]));
  const videos = (cards.data?.data ?? []).filter((card) => positions.has(card.id));
  return (
    <ContinueCards
      videos={videos}
      positionOf={(video) => positions.get(video.id) ?? 0}
      onRemove={(video) => {
        forgetGuestProgress([video.id]);
        setVersion((n) => n + 1);
      }}
    />
  );
}

interface ContinueCardsProps {
  videos: readonly VideoCard[];
  positionOf: (video: VideoCard) => number;
  onRemove: (video: VideoCard) => void;
}

function ContinueCards({ videos, positionOf, onRemove }: ContinueCardsProps) {
  const site = useSite();
  if (site.isPending || videos.length === 0) return null;
  const brand = site.data?.brand;
  return (
    <VideoRow
      heading={HEADING}
      videos={videos}
      brand={brand}
      imageHost={site.data?.imageHost}
      cardProps={(video) => {
        const position = positionOf(video);
        return {
          // The address carries the position, so that it resumes there on any device of the member's.
          to: `/video/${video.id}?t=${position}`,
          resumeAt: position,
          footer: (
            <div className="card-actions">
              <button
                className="button button--quiet"
                type="button"
                aria-label={`Remove ${brandTitle(video, brand)} from ${HEADING}`}
                onClick={() => onRemove(video)}
              >
                Remove
              </button>
            </div>
          ),
        };
      }}
    />
  );
}
