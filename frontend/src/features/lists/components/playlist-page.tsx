import { Link, useNavigate } from 'react-router';
import { usePlaylist } from '@/api/playlists/get-playlist';
import { ApiError } from '@/lib/api/client';
import type { User } from '@/lib/api/types';
import { useSite } from '@/lib/site';
import { useInlineForm } from '../hooks/use-inline-form';
import { countText } from '../utils/count-text';
import { DeletePlaylistButton } from './delete-playlist-button';
import { ListLayout, ListSkeleton, LoadError } from './list-layout';
import { inPlaylist, PlaylistVideos } from './playlist-videos';
import { RenamePlaylistForm } from './rename-playlist-form';
import { DocumentTitle } from '@/lib/document-title';

/** One of the member's playlists: Play all, its videos in order to reorder or remove, Rename and Delete. */
export function PlaylistPage({ playlistId, user }: { playlistId: number; user: User }) {
  const navigate = useNavigate();
  const site = useSite();
  const playlist = usePlaylist(playlistId, { fresh: true });
  const { open: renaming, openerRef: renameButtonRef, show: showRename, close: closeRename } = useInlineForm();

  if (playlist.isError) {
    const status = playlist.error instanceof ApiError ? playlist.error.statusCode : null;
    if (status === 404) {
      return <PlaylistMessage title="Playlist not found" text="This playlist does not exist. It may have been deleted." />;
    }
    if (status === 403) {
      return (
        <PlaylistMessage
          title="This playlist is not yours"
          text="Playlists are private: only the member who made one can open it."
        />
      );
    }
    return (
      <ListLayout title="Playlist">
        <LoadError message="The playlist could not be loaded." onRetry={() => void playlist.refetch()} />
      </ListLayout>
    );
  }

  if (playlist.isPending || site.isPending) return <ListSkeleton title="Playlist" />;

  const { title } = playlist.data.playlist;
  const videos = playlist.data.data;
  const first = videos[0];

  return (
    <ListLayout
      title={title}
      subtitle={countText(videos.length, 'video')}
      actions={
        <>
          {first && (
            <Link className="button button--primary" to={inPlaylist(first.id, playlistId)}>
              Play all
            </Link>
          )}
          <button
            ref={renameButtonRef}
            className="button button--quiet"
            type="button"
            aria-expanded={renaming}
            onClick={showRename}
          >
            Rename
          </button>
          <DeletePlaylistButton
            playlistId={playlistId}
            title={title}
            userId={user.id}
            onDeleted={() => void navigate('/playlists', { replace: true })}
          />
        </>
      }
    >
      {renaming && (
        <RenamePlaylistForm
          playlistId={playlistId}
          title={title}
          userId={user.id}
          onDone={closeRename}
          onCancel={closeRename}
        />
      )}
      {videos.length === 0 ? (
        <div className="notice lists__empty">
          <p>This playlist is empty. Open a video and use Add to playlist to put it here.</p>
          <Link className="button" to="/">
            Browse videos
          </Link>
        </div>
      ) : (
        <PlaylistVideos
          playlistId={playlistId}
          userId={user.id}
          videos={videos}
          brand={site.data?.brand}
          imageHost={site.data?.imageHost}
        />
      )}
    </ListLayout>
  );
}

function PlaylistMessage({ title, text }: { title: string; text: string }) {
  return (
    <section className="message-page" role="alert">
      <DocumentTitle>{title}</DocumentTitle>
      <h1>{title}</h1>
      <p>{text}</p>
      <Link className="button" to="/playlists">
        Your playlists
      </Link>
    </section>
  );
}
