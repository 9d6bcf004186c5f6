import { formatDuration } from '@hunktube/shared';
import { useState } from 'react';
import { Link } from 'react-router';
import { useBookmarks } from '@/api/lists/get-bookmarks';
import { FollowButton } from '@/components/ui/follow-button';
import { ApiError } from '@/lib/api/client';
import type { User, Video } from '@/lib/api/types';
import { useBrowserValue } from '@/lib/browser-value';
import { formatNumber, formatUploadAge } from '@/lib/format';
import { useAddToBookmarks } from '../api/add-to-bookmarks';
import { useAddToWatchLater } from '../api/add-to-watch-later';
import { useIncrementLikes } from '../api/increment-likes';
import { useRemoveLike } from '../api/remove-like';
import { forgetLikedLocally, isLikedLocally, markLikedLocally } from '../utils/storage';
import type { WatchContext } from '../utils/watch-context';
import { BookmarkIcon, CheckIcon, ClockIcon, EyeIcon, FlagIcon, HeartIcon, PlaylistAddIcon } from './icons';
import { LoginPrompt, type PromptKind } from './login-prompt';
import { PlaylistDialog } from './playlist-dialog';
import { LinkAndEmbedMenu, ShareLink } from './share-menu';

/** The upload-age helper reads dates written without an offset at UTC+10:30, as the specification calls it. */
export const UPLOAD_AGE_UTC_OFFSET_HOURS = 10.5;

interface VideoDetailsProps {
  video: Video;
  title: string;
  user: User | null;
  context: WatchContext;
  /** The count to show: the video's, plus one once this view has been counted. */
  views: number;
  /** Whole seconds, or null while unknown. */
  duration: number | null;
}

const plural = (count: number, one: string, many: string) => (count === 1 ? one : many);

/**
 * Upload age, title and the stats row with the viewer's actions, the performers and the tags (links to their pages),
 * the login prompts and the playlist dialog.
 */
export function VideoDetails({ video, title, user, context, views, duration }: VideoDetailsProps) {
  const [prompt, setPrompt] = useState<PromptKind | null>(null);
  const [dialogOpen, setDialogOpen] = useState(false);
  // Liked on this device: known to the browser only (drawn unliked by the server, then as stored).
  const likedHere = useBrowserValue(() => isLikedLocally(video.id), false);
  const [likedNow, setLiked] = useState<boolean | null>(null);
  const liked = likedNow ?? likedHere;
  const [likes, setLikes] = useState(video.likes);
  const [queued, setQueued] = useState(false);

  const incrementLikes = useIncrementLikes();
  const removeLike = useRemoveLike();
  const addToWatchLater = useAddToWatchLater();
  const bookmarks = useBookmarks(user?.id ?? null);
  const toggleBookmark = useAddToBookmarks();
  const bookmarked = Boolean(user && bookmarks.data?.bookmarks.some((item) => item.id === video.id));

  const inPlaylist = context.kind === 'playlist';
  const shownLikes = liked && likes === 0 ? 1 : likes;

  /** A member takes their like back; the server says whether there was one to take (NOT_LIKED: none). */
  const unlike = () => {
    const forget = () => {
      setLiked(false);
      forgetLikedLocally(video.id);
    };
    removeLike.mutate(
      { videoId: video.id },
      {
        onSuccess: () => {
          setLikes((count) => Math.max(0, count - 1));
          forget();
        },
        onError: (error) => {
          if (error instanceof ApiError && error.errorCode === 'NOT_LIKED') forget();
        },
      },
    );
  };

  const like = () => {
    setDialogOpen(false);
    if (incrementLikes.isPending || removeLike.isPending) return;
    // The heart toggles for members; a visitor's like stays, and nothing is sent (the specification's rule).
    if (liked) {
      if (user) unlike();
      return;
    }
    incrementLikes.mutate(
      { videoId: video.id },
      {
        onSuccess: () => {
          setLikes((count) => count + 1);
          setLiked(true);
          markLikedLocally(video.id);
        },
      },
    );
  };

  const queue = () => {
    setDialogOpen(false);
    if (!user?.id) {
      setPrompt('watch-later');
      return;
    }
    addToWatchLater.mutate(
      { videoId: video.id, userId: user.id, action: 'create' },
      { onSuccess: () => setQueued(true) },
    );
  };

  const bookmark = () => {
    if (!user) {
      setPrompt('bookmark');
      return;
    }
    if (toggleBookmark.isPending) return;
    toggleBookmark.mutate({ video, videoId: video.id, userId: user.id, action: bookmarked ? 'delete' : 'create' });
  };

  const openPlaylists = () => {
    if (!user) {
      setPrompt('playlist');
      return;
    }
    setDialogOpen(true);
  };

  return (
    <div className="watch-details">
      {!inPlaylist && (
        <p className="watch-details__age">
          Uploaded{' '}
          <time dateTime={video.upload_date}>
            {formatUploadAge(video.upload_date, { utcOffsetHours: UPLOAD_AGE_UTC_OFFSET_HOURS })}
          </time>
        </p>
      )}
      <h1 className={inPlaylist ? 'watch-details__title watch-details__title--small' : 'watch-details__title'}>
        {title}
      </h1>

      <div className="stats-row">
        <span className="stat">
          <EyeIcon />
          {formatNumber(views)} {plural(views, 'view', 'views')}
        </span>
        <button className="stat stat--button stat--like" type="button" aria-pressed={liked} onClick={like}>
          <HeartIcon filled={liked} />
          <span className="visually-hidden">Like, </span>
          <span>{formatNumber(shownLikes)}</span>
          <span className="visually-hidden">{plural(shownLikes, ' like', ' likes')}</span>
        </button>
        <span className="stat">
          <ClockIcon />
          <span className="visually-hidden">Duration </span>
          {duration === null ? (
            <span>{formatDuration(null)}</span>
          ) : (
            <time dateTime={`PT${Math.floor(duration)}S`}>{formatDuration(duration)}</time>
          )}
        </span>
        {context.kind !== 'watch-later' && prompt !== 'watch-later' && (
          <button
            className={queued ? 'stat stat--button stat--added' : 'stat stat--button'}
            type="button"
            onClick={queue}
            disabled={queued || addToWatchLater.isPending}
          >
            {queued ? <CheckIcon /> : <ClockIcon />}
            {queued ? 'Added' : 'Watch later'}
          </button>
        )}
        <button className="stat stat--button" type="button" aria-pressed={bookmarked} onClick={bookmark}>
          <BookmarkIcon filled={bookmarked} />
          Bookmark
        </button>
        <button className="stat stat--button" type="button" aria-haspopup="dialog" onClick={openPlaylists}>
          <PlaylistAddIcon />
          Add to playlist
        </button>
        <ShareLink videoId={video.id} title={title} />
        <LinkAndEmbedMenu videoId={video.id} title={title} />
        {/* For guests and members alike: the content removal form, with this video's address already in it. */}
        <Link className="stat stat--button" to={`/content-removal?video=${video.id}`}>
          <FlagIcon />
          Report
        </Link>
      </div>

      {video.performers.length > 0 && (
        <ul className="watch-performers" aria-label="Performers">
          {video.performers.map((performer) => (
            <li key={performer.id} className="watch-performers__item">
              <Link to={`/performers/${performer.id}`}>{performer.name}</Link>
              <FollowButton performer={performer} user={user} />
            </li>
          ))}
        </ul>
      )}

      {video.tags.length > 0 && (
        <ul className="watch-performers watch-tags" aria-label="Tags">
          {video.tags.map((tag) => (
            <li key={tag.id}>
              <Link className="watch-tags__link" to={`/tags/${encodeURIComponent(tag.id)}`}>
                {tag.name}
              </Link>
            </li>
          ))}
        </ul>
      )}

      {prompt && <LoginPrompt kind={prompt} onClose={() => setPrompt(null)} />}
      {user && <PlaylistDialog open={dialogOpen} onClose={() => setDialogOpen(false)} video={video} user={user} />}
    </div>
  );
}
