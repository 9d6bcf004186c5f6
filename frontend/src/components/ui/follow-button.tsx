import { Link, useLocation } from 'react-router';
import { useFollowing, useSetFollow } from '@/api/following/following';
import type { TaxonRef, User } from '@/lib/api/types';
import { loginHref } from '@/lib/return-path';

interface FollowButtonProps {
  performer: TaxonRef;
  /** The signed-in member, or null for a visitor (who is offered to log in and come back). */
  user: User | null;
}

/**
 * Follow or unfollow a performer: "Follow {name}", then "Following {name}" (its label says the state, as a
 * subscribe button's does; no aria-pressed on top of a changing label). A visitor gets a link to log in that
 * brings them back here.
 */
export function FollowButton({ performer, user }: FollowButtonProps) {
  const location = useLocation();
  if (!user) {
    return (
      <Link className="button button--quiet follow-button" to={loginHref(location.pathname, location.search)}>
        Follow <span className="visually-hidden">{performer.name} (log in first)</span>
      </Link>
    );
  }
  return <MemberFollowButton performer={performer} user={user} />;
}

function MemberFollowButton({ performer, user }: { performer: TaxonRef; user: User }) {
  const following = useFollowing(user.id);
  const setFollow = useSetFollow(user.id);
  const followed = Boolean(following.data?.data.some((item) => item.id === performer.id));
  return (
    <button
      className={followed ? 'button follow-button follow-button--on' : 'button button--quiet follow-button'}
      type="button"
      // Until the member's list is known, the state shown could be wrong.
      disabled={!following.isSuccess}
      onClick={() => setFollow.mutate({ performer, follow: !followed })}
    >
      {followed ? 'Following' : 'Follow'} <span className="visually-hidden">{performer.name}</span>
    </button>
  );
}
