import type { User } from '@/lib/api/types';
import { formatUploadAge } from '@/lib/format';
import { HistoryControls } from './history-controls';
import { MyListView } from './my-list-view';

export function HistoryPage({ user }: { user: User }) {
  return (
    <MyListView
      list="history"
      user={user}
      title="History"
      empty="Videos you watch while signed in show up here, most recent first."
      actions={(page) => <HistoryControls userId={user.id} empty={page?.total === 0} />}
      footerFor={(video) =>
        video.watched_at ? (
          <p className="lists__watched">
            Watched{' '}
            <time dateTime={video.watched_at} title={new Date(video.watched_at).toLocaleString()}>
              {formatUploadAge(video.watched_at)}
            </time>
          </p>
        ) : null
      }
    />
  );
}
