import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router';
import { useWatchLaterQueue } from '@/api/lists/get-my-list';
import { usePlaylist } from '@/api/playlists/get-playlist';
import { useVideo } from '@/api/videos/get-video';
import { ApiError } from '@/lib/api/client';
import { announceHydrated } from '@/lib/app-hydrated';
import type { User } from '@/lib/api/types';
import { useOrigin } from '@/lib/origin';
import { yieldToMain } from '@/lib/yield-to-main';
import { serverHeadDescribes } from '@/lib/server-head';
import { brandTitle, resolveImageUrl, useSite } from '@/lib/site';
import { useAddHistory } from '../api/add-history';
import { useAddToWatchLater } from '../api/add-to-watch-later';
import { sendTrending } from '../api/add-trending';
import { useRelatedVideos } from '../api/get-related-videos';
import { countView } from '../api/increment-views';
import { useUpdateDuration } from '../api/update-duration';
import { useResumeReporter } from '../hooks/use-resume-reporter';
import { readPlayerPrefs, writePlayerPrefs, writeScrollTarget } from '../utils/storage';
import { useBrowserValue } from '@/lib/browser-value';
import { parseStartTime } from '../utils/start-time';
import { serializeJsonLd, videoJsonLd } from '../utils/video-json-ld';
import {
  contextSearch,
  neighboursIn,
  parseWatchContext,
  type Neighbours,
  type WatchContext,
} from '../utils/watch-context';
import { RelatedVideos } from './related-videos';
import { UpNext } from './up-next';
import { VideoDetails } from './video-details';
import { VideoLoadFailed, VideoNotFound } from './video-not-found';
import { VideoPlayer } from './video-player';
import { BannerSlot } from '@/lib/ad-slots';
import { DocumentTitle } from '@/lib/document-title';
import { videoPageTitle } from '@/lib/page-titles';

interface WatchPageProps {
  videoId: number;
  /** The signed-in user, or null for a visitor. */
  user: User | null;
  /** Panels the app adds under the details (the profile prompt). */
  children?: ReactNode;
}

/** What Next and Previous carry to the page they open. */
interface WatchNavigationState {
  /** Start playing at once. */
  autoplay?: boolean;
  /** The video played before, for Previous outside a playlist or queue. */
  from?: number;
}

export function WatchPage(props: WatchPageProps) {
  // A new video is a new page: every count, flag and player state starts again.
  return <WatchView key={props.videoId} {...props} />;
}

function WatchView({ videoId, user, children }: WatchPageProps) {
  const [searchParams] = useSearchParams();
  const location = useLocation();
  const navigate = useNavigate();
  const context = parseWatchContext(searchParams);
  const [startTime] = useState(() => parseStartTime(searchParams.get('t')));
  const navigation = (location.state ?? {}) as WatchNavigationState;

  const site = useSite();
  const origin = useOrigin();
  const video = useVideo(videoId);
  const related = useRelatedVideos(videoId);
  const playlist = usePlaylist(context.kind === 'playlist' ? context.playlistId : null);
  const queue = useWatchLaterQueue(context.kind === 'watch-later' ? (user?.id ?? null) : null);

  const [viewCounted, setViewCounted] = useState(false);
  const [savedDuration, setSavedDuration] = useState<number | null>(null);
  // Theater mode, as this device last chose it (drawn off by the server, then as stored).
  const storedTheater = useBrowserValue(() => readPlayerPrefs().theater, false);
  const [chosenTheater, setTheater] = useState<boolean | null>(null);
  const theater = chosenTheater ?? storedTheater;
  const toggleTheater = () => {
    writePlayerPrefs({ theater: !theater });
    setTheater(!theater);
  };
  const { mutate: sendHistory } = useAddHistory();
  const { mutate: sendDuration } = useUpdateDuration();
  const { mutate: changeWatchLater } = useAddToWatchLater();
  const reportProgress = useResumeReporter(videoId, user);

  // Each call goes once per page, even when effects run twice (development's strict mode) or data refreshes.
  const sent = useRef({ load: false as boolean | 'sent', history: false, duration: false });
  const loaded = video.data;

  useEffect(() => {
    const once = sent.current;
    if (!loaded || once.load) return;
    once.load = true;
    writeScrollTarget(loaded.slug);
    // In a task of their own: the page's first effects run with its hydration, in one task (docs/web-client.md ›
    // "Boot work"). A page left before then sends nothing; the next one that mounts sends them.
    let left = false;
    void yieldToMain().then(() => {
      if (left) return;
      once.load = 'sent';
      void sendTrending({ videoId });
      void countView({ videoId }).then((answer) => {
        if (answer) setViewCounted(true);
      });
    });
    return () => {
      left = true;
      if (once.load !== 'sent') once.load = false;
    };
  }, [loaded, videoId]);

  // The watch page is React's now, in the server's HTML it hydrated: what the visitor clicked before is clicked
  // again (src/early.ts).
  const shown = loaded !== undefined;
  useEffect(() => {
    if (shown) announceHydrated();
  }, [shown]);

  useEffect(() => {
    if (!loaded || !user || sent.current.history) return;
    sent.current.history = true;
    sendHistory({ videoId, video: loaded, userId: user.id });
  }, [loaded, user, videoId, sendHistory]);

  if (video.isError) {
    return video.error instanceof ApiError && video.error.statusCode === 404 ? (
      <VideoNotFound />
    ) : (
      <VideoLoadFailed onRetry={() => void video.refetch()} />
    );
  }

  if (!loaded || site.isPending) return <WatchSkeleton />;

  const brand = site.data?.brand;
  const siteName = site.data?.name ?? 'this site';
  const title = brandTitle(loaded, brand);
  const search = contextSearch(context);
  const list = context.kind === 'playlist' ? playlist.data?.data : context.kind === 'watch-later' ? queue.data?.data : undefined;
  // Outside a playlist or queue, Next opens the first related video and Previous the video played before.
  const { previous, next }: Neighbours = list
    ? neighboursIn(list, videoId)
    : { previous: navigation.from ?? null, next: related.data?.data[0]?.id ?? null };

  const open = (id: number) =>
    void navigate(`/video/${id}${search}`, {
      state: { autoplay: true, from: videoId } satisfies WatchNavigationState,
    });

  const onDuration = (seconds: number) => {
    const whole = Math.floor(seconds);
    if (loaded.duration !== null || sent.current.duration || whole < 1) return;
    sent.current.duration = true;
    sendDuration({ videoId, videoDuration: whole }, { onSuccess: ({ duration }) => setSavedDuration(duration) });
  };

  const thumbnailUrl = resolveImageUrl(loaded.poster ?? loaded.thumbnail, site.data?.imageHost);

  return (
    <article className={['watch', list && 'watch--with-list', theater && 'watch--theater'].filter(Boolean).join(' ')}>
      <DocumentTitle>{videoPageTitle(title, siteName)}</DocumentTitle>
      {/* The server's head already has this page's VideoObject when the page was loaded at this address. */}
      {!serverHeadDescribes(location.pathname) && (
        <script
          type="application/ld+json"
          dangerouslySetInnerHTML={{
            __html: serializeJsonLd(
              videoJsonLd(loaded, { title, thumbnailUrl, pageUrl: `${origin}/video/${videoId}` }),
            ),
          }}
        />
      )}
      <div className="watch__main">
        <VideoPlayer
          video={loaded}
          title={title}
          site={site.data}
          startTime={startTime}
          autoPlay={navigation.autoplay === true}
          onPrevious={previous === null ? null : () => open(previous)}
          onNext={next === null ? null : () => open(next)}
          onFirstPlay={() => {
            // Playing a video takes it off the member's watch-later queue.
            if (user) changeWatchLater({ videoId, userId: user.id, action: 'delete' });
          }}
          onDuration={onDuration}
          onProgress={reportProgress}
          theater={{ on: theater, toggle: toggleTheater }}
          chapters
        />
        <VideoDetails
          video={loaded}
          title={title}
          user={user}
          context={context}
          views={loaded.views + (viewCounted ? 1 : 0)}
          duration={loaded.duration ?? savedDuration}
        />
        {user?.user_metadata.role_id === 'admin' && (
          <p>
            <Link className="button button--quiet" to={`/admin/videos/${videoId}`}>
              Edit video
            </Link>
          </p>
        )}
        {children}
        {/* Under the player and its details; reserved only where that is out of sight (docs/ads.md › "Web client"). */}
        <BannerSlot placement="banner-watch" videoId={videoId} />
      </div>
      {list && (
        <aside className="watch__list">
          <UpNext
            heading={listHeading(context, playlist.data?.playlist.title)}
            videos={list}
            currentId={videoId}
            search={search}
            brand={brand}
          />
        </aside>
      )}
      <RelatedVideos related={related.data} siteName={siteName} brand={brand} imageHost={site.data?.imageHost} />
    </article>
  );
}

function listHeading(context: WatchContext, playlistTitle: string | undefined): string {
  if (context.kind === 'watch-later') return 'Watch later';
  return playlistTitle ? `Playlist: ${playlistTitle}` : 'Playlist';
}

export function WatchSkeleton() {
  return (
    <div className="watch" aria-busy="true" aria-label="Loading the video">
      <div className="watch__main">
        <div className="player skeleton player--skeleton" />
        <div className="skeleton skeleton--line" />
        <div className="skeleton skeleton--line skeleton--short" />
      </div>
    </div>
  );
}
