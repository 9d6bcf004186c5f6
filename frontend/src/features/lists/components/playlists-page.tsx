import { useState } from 'react';
import { Link } from 'react-router';
import { useUserPlaylists } from '@/api/playlists/get-user-playlists';
import type { User } from '@/lib/api/types';
import { useSite } from '@/lib/site';
import { countText } from '../utils/count-text';
import { ListLayout, ListLoading, LoadError } from './list-layout';
import { PlaylistCard } from './playlist-card';

/** The member's playlists, each opening its own page. */
export function PlaylistsPage({ user }: { user: User }) {
  const site = useSite();
  const playlists = useUserPlaylists(user.id);
  const [deleted, setDeleted] = useState<string | null>(null);

  return (
    <ListLayout
      title="Playlists"
      subtitle={playlists.data?.length ? countText(playlists.data.length, 'playlist') : undefined}
    >
      <p className="lists__status" role="status">
        {deleted && `Deleted “${deleted}”.`}
      </p>
      {playlists.isError ? (
        <LoadError message="Your playlists could not be loaded." onRetry={() => void playlists.refetch()} />
      ) : playlists.isPending ? (
        <ListLoading what="playlists" />
      ) : playlists.data.length === 0 ? (
        <div className="notice lists__empty">
          <p>You have no playlists yet. Open a video and use Add to playlist to start one.</p>
          <Link className="button" to="/">
            Browse videos
          </Link>
        </div>
      ) : (
        <ul className="playlist-grid" role="list">
          {playlists.data.map((playlist) => (
            <li key={playlist.playlist_id}>
              <PlaylistCard
                playlist={playlist}
                imageHost={site.data?.imageHost}
                userId={user.id}
                onDeleted={setDeleted}
              />
            </li>
          ))}
        </ul>
      )}
    </ListLayout>
  );
}
