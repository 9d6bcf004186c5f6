import { useId } from 'react';
import { Link } from 'react-router';
import { Thumbnail } from '@/components/ui/thumbnail';
import type { PlaylistSummary } from '@/lib/api/types';
import { resolveImageSrcSet, resolveImageUrl } from '@/lib/site';
import { useInlineForm } from '../hooks/use-inline-form';
import { countText } from '../utils/count-text';
import { DeletePlaylistButton } from './delete-playlist-button';
import { RenamePlaylistForm } from './rename-playlist-form';

interface PlaylistCardProps {
  playlist: PlaylistSummary;
  imageHost: string | undefined;
  userId: string;
  onDeleted: (title: string) => void;
}

/** A playlist on the index: its first video's thumbnail, title and count, with Rename and Delete. */
export function PlaylistCard({ playlist, imageHost, userId, onDeleted }: PlaylistCardProps) {
  const titleId = useId();
  const { open: renaming, openerRef: renameButtonRef, show: showRename, close: closeRename } = useInlineForm();
  const href = `/playlists/${playlist.playlist_id}`;

  return (
    <article className="playlist-card">
      <Link className="playlist-card__link" to={href} aria-labelledby={titleId}>
        <Thumbnail
          src={resolveImageUrl(playlist.thumbnail, imageHost)}
          srcSet={resolveImageSrcSet(playlist.thumbnail, imageHost)}
          alt=""
          seed={playlist.playlist_id}
        />
        <h2 className="playlist-card__title" id={titleId}>
          {playlist.title}
        </h2>
      </Link>
      <p className="playlist-card__meta">{countText(playlist.video_count, 'video')}</p>
      {renaming ? (
        <RenamePlaylistForm
          playlistId={playlist.playlist_id}
          title={playlist.title}
          userId={userId}
          onDone={closeRename}
          onCancel={closeRename}
        />
      ) : (
        <div className="card-actions">
          <button
            ref={renameButtonRef}
            className="button button--quiet"
            type="button"
            aria-label={`Rename ${playlist.title}`}
            onClick={showRename}
          >
            Rename
          </button>
          <DeletePlaylistButton
            playlistId={playlist.playlist_id}
            title={playlist.title}
            userId={userId}
            onDeleted={() => onDeleted(playlist.title)}
          />
        </div>
      )}
    </article>
  );
}
