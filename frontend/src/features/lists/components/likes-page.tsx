import type { User } from '@/lib/api/types';
import { brandTitle } from '@/lib/site';
import { MyListView } from './my-list-view';
import { RemoveFromListButton } from './remove-from-list-button';

export function LikesPage({ user }: { user: User }) {
  return (
    <MyListView
      list="likes"
      user={user}
      title="Liked videos"
      empty="Videos you like show up here. Tap the heart under a video to like it."
      // Remove takes the like back: the video's count goes down by one.
      footerFor={(video, { brand }) => (
        <RemoveFromListButton list="likes" video={video} title={brandTitle(video, brand)} userId={user.id} />
      )}
    />
  );
}
