import type { User } from '@/lib/api/types';
import { MyListView } from './my-list-view';

export function LikesPage({ user }: { user: User }) {
  return (
    <MyListView
      list="likes"
      user={user}
      title="Liked videos"
      empty="Videos you like show up here. Tap the heart under a video to like it."
    />
  );
}
