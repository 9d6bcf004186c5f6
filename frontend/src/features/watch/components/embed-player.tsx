import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { useVideo } from '@/api/videos/get-video';
import { ApiError } from '@/lib/api/client';
import { brandTitle, useSite } from '@/lib/site';
import { countView } from '../api/increment-views';
import { parseStartTime } from '../utils/start-time';
import { VideoLoadFailed, VideoNotFound } from './video-not-found';
import { VideoPlayer } from './video-player';
import '../embed.css';
import { DocumentTitle } from '@/lib/document-title';
import { videoPageTitle } from '@/lib/page-titles';

/**
 * The embeddable player (`/embed/{id}`), for other sites' frames: the watch page's player alone (poster, signed
 * stream, storyboard), without Previous, Next or autoplay, under a bar with the title and a link to the watch
 * page in a new tab. `videoId` is null for an address that names no video.
 */
export function EmbedPlayer({ videoId }: { videoId: number | null }) {
  if (videoId === null) return <EmbedNotFound />;
  return <EmbedView key={videoId} videoId={videoId} />;
}

function EmbedView({ videoId }: { videoId: number }) {
  const [searchParams] = useSearchParams();
  const [startTime] = useState(() => parseStartTime(searchParams.get('t')));
  const site = useSite();
  const video = useVideo(videoId);

  if (video.isError) {
    if (video.error instanceof ApiError && video.error.statusCode === 404) return <EmbedNotFound />;
    return (
      <div className="embed embed--message">
        <VideoLoadFailed onRetry={() => void video.refetch()} />
      </div>
    );
  }

  if (!video.data || site.isPending) return <EmbedSkeleton />;

  const title = brandTitle(video.data, site.data?.brand);
  const siteName = site.data?.name ?? 'this site';

  return (
    <div className="embed">
      <DocumentTitle>{videoPageTitle(title, siteName)}</DocumentTitle>
      <div className="embed__bar">
        <p className="embed__title">{title}</p>
        <a className="embed__link" href={`/video/${videoId}`} target="_blank" rel="noopener">
          Watch on {siteName}
        </a>
      </div>
      <VideoPlayer
        video={video.data}
        title={title}
        site={site.data}
        startTime={startTime}
        autoPlay={false}
        navigation={false}
        onPrevious={null}
        onNext={null}
        // A page of another site showing the player is not a view; playing it is (once per load of the frame).
        onFirstPlay={() => void countView({ videoId })}
        onDuration={() => {}}
      />
    </div>
  );
}

function EmbedNotFound() {
  return (
    <div className="embed embed--message">
      <VideoNotFound newTab />
    </div>
  );
}

/** What the frame shows to a visitor who answered the 18+ gate with Leave: no player at all. */
export function EmbedAdultsOnly({ siteName }: { siteName?: string }) {
  return (
    <div className="embed embed--message">
      <section className="message-page">
        <DocumentTitle>For adults only</DocumentTitle>
        <h1>For adults only</h1>
        <p>{siteName ?? 'This site'} shows videos for adults only.</p>
      </section>
    </div>
  );
}

function EmbedSkeleton() {
  return (
    <div className="embed" aria-busy="true" aria-label="Loading the video">
      <div className="player skeleton player--skeleton" />
    </div>
  );
}
