import { Link } from 'react-router';
import type { User } from '@/lib/api/types';
import { brandTitle } from '@/lib/site';
import { MyListView } from './my-list-view';
import { RemoveFromListButton } from './remove-from-list-button';

/** The watch page walks the queue in this context (Previous and Next follow it, and a played video leaves it). */
const inQueue = (id: number) => `/video/${id}?context=watch-later`;

export function WatchLaterPage({ user }: { user: User }) {
  return (
    <MyListView
      list="watch-later"
      user={user}
      title="Watch later"
      empty="Your watch-later queue is empty. Use Watch later under a video to save it for another time."
      actions={(page) => {
        const first = page?.data[0];
        return first ? (
          <Link className="button button--primary" to={inQueue(first.id)}>
            Play all
          </Link>
        ) : null;
      }}
      linkFor={(video) => inQueue(video.id)}
      footerFor={(video, { brand }) => (
        <RemoveFromListButton list="watch-later" video={video} title={brandTitle(video, brand)} userId={user.id} />
      )}
    />
  );
}
