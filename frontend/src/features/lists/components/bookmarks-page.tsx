import type { User } from '@/lib/api/types';
import { brandTitle } from '@/lib/site';
import { MyListView } from './my-list-view';
import { RemoveFromListButton } from './remove-from-list-button';

export function BookmarksPage({ user }: { user: User }) {
  return (
    <MyListView
      list="bookmarks"
      user={user}
      title="Bookmarks"
      empty="You have not bookmarked any videos yet. Use Bookmark under a video to keep it here."
      footerFor={(video, { brand }) => (
        <RemoveFromListButton list="bookmarks" video={video} title={brandTitle(video, brand)} userId={user.id} />
      )}
    />
  );
}
