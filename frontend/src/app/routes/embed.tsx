import { useState } from 'react';
import { useParams } from 'react-router';
import { AdsProvider } from '@/features/ads/ads-provider';
import { AgeGate, useAgeGate } from '@/features/age-gate/components/age-gate';
import { EmbedAdultsOnly, EmbedPlayer } from '@/features/watch/components/embed-player';
import { useSite } from '@/lib/site';
import { isVideoId } from '@/lib/video-id';

/**
 * `/embed/{id}`, the page other sites frame (loaded on demand, see router.tsx): the player alone, no header,
 * footer or navigation. The 18+ gate covers it as it covers every page of the site: the frame is another site's
 * storage partition, so a visitor answers once per site that embeds the player.
 */
export function EmbedRoute() {
  const { id } = useParams();
  const site = useSite();
  const gate = useAgeGate('/embed');
  const [left, setLeft] = useState(false);

  if (left) return <EmbedAdultsOnly siteName={site.data?.name} />;

  const videoId = isVideoId(id) ? Number(id) : null;
  return (
    // The zones marked for embeds, once the 18+ gate is answered.
    <AdsProvider enabled={!gate.open} embed>
      <div inert={gate.open}>
        <EmbedPlayer videoId={videoId} />
      </div>
      {gate.open && <AgeGate siteName={site.data?.name} onConfirm={gate.confirm} embed={{ onLeave: () => setLeft(true) }} />}
    </AdsProvider>
  );
}
