import { Link } from 'react-router';
import { useFollowing, useSetFollow } from '@/api/following/following';
import type { User } from '@/lib/api/types';
import { countText } from '../utils/count-text';
import { ListLayout, ListLoading, LoadError } from './list-layout';

/** The performers the member follows, most recent first, each with Unfollow; and the way to their new videos. */
export function FollowingPage({ user }: { user: User }) {
  const following = useFollowing(user.id);
  const setFollow = useSetFollow(user.id);
  const performers = following.data?.data;

  return (
    <ListLayout
      title="Following"
      subtitle={performers && performers.length > 0 ? countText(performers.length, 'performer') : undefined}
      actions={
        performers && performers.length > 0 ? (
          <Link className="button" to="/me/following/videos">
            New from performers you follow
          </Link>
        ) : undefined
      }
    >
      {following.isError ? (
        <LoadError message="The performers you follow could not be loaded." onRetry={() => void following.refetch()} />
      ) : !performers ? (
        <ListLoading what="performers you follow" />
      ) : performers.length === 0 ? (
        <div className="notice lists__empty">
          <p>Follow performers from their page or from a video they are in: their new videos gather here.</p>
          <Link className="button" to="/performers">
            Browse performers
          </Link>
        </div>
      ) : (
        <ul className="following-list" aria-label="Performers you follow">
          {performers.map((performer) => (
            <li key={performer.id} className="following-list__item">
              <span>
                <Link to={`/performers/${performer.id}`}>{performer.name}</Link>{' '}
                <span className="following-list__count">{countText(performer.video_count, 'video')}</span>
              </span>
              <button
                className="button button--quiet"
                type="button"
                disabled={setFollow.isPending && setFollow.variables?.performer.id === performer.id}
                onClick={() => setFollow.mutate({ performer, follow: false })}
              >
                Unfollow <span className="visually-hidden">{performer.name}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </ListLayout>
  );
}
