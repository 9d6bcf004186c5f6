import type { User } from '@/lib/api/types';
import { MyListView } from './my-list-view';

/** The newest videos of the performers the member follows, each once, newest upload first. */
export function FollowedVideosPage({ user }: { user: User }) {
  return (
    <MyListView
      list="followed-videos"
      user={user}
      title="New from performers you follow"
      empty="Follow performers from their page or from a video they are in, and their newest videos show up here."
    />
  );
}
