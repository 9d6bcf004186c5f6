import { normalizePlaylistTitle, PLAYLIST_TITLE_MAX_LENGTH, validatePlaylistTitle } from '@hunktube/shared';
import { useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { userPlaylistsQueryOptions } from '@/api/playlists/get-user-playlists';
import { Dialog } from '@/components/ui/dialog';
import { ApiError } from '@/lib/api/client';
import type { PlaylistSummary, User, Video } from '@/lib/api/types';
import { useAddToPlaylist } from '../api/add-to-playlist';
import { useCreatePlaylist } from '../api/create-playlist';
import { usePickerPlaylists } from '../hooks/use-picker-playlists';

interface PlaylistDialogProps {
  open: boolean;
  onClose: () => void;
  video: Video;
  user: User;
}

/** Postgres' unique-violation code, which the API keeps for "already there". */
const DUPLICATE = '23505';

/**
 * Adds the video to one of the user's playlists, or to a new one. One field both filters the list (by a
 * case-insensitive substring of the title) and names a new playlist.
 */
export function PlaylistDialog({ open, onClose, video, user }: PlaylistDialogProps) {
  const id = useId();
  const queryClient = useQueryClient();
  const [text, setText] = useState('');
  const [invalid, setInvalid] = useState<string | null>(null);
  const [result, setResult] = useState<string | null>(null);
  const playlists = usePickerPlaylists(user.id, open);
  const { all } = playlists;
  const addToPlaylist = useAddToPlaylist();
  const createPlaylist = useCreatePlaylist();
  const busy = addToPlaylist.isPending || createPlaylist.isPending;

  const query = text.trim().toLowerCase();
  const shown = all.filter((playlist) => playlist.title.toLowerCase().includes(query));

  // Closing only resets the dialog's flags and clears its field.
  const close = () => {
    setText('');
    setInvalid(null);
    setResult(null);
    onClose();
  };

  const showFailure = (title: string, error: unknown, log: string) => {
    if (error instanceof ApiError && error.errorCode === DUPLICATE) setResult(`Video is already in playlist ${title}`);
    else if (error instanceof ApiError && error.statusCode === 400) setInvalid(error.message);
    else console.error(log, error);
  };

  const addTo = (playlist: PlaylistSummary) => {
    setInvalid(null);
    setResult(null);
    addToPlaylist.mutate(
      { video_id: video.id, playlistUserId: user.id, playlist_id: playlist.playlist_id },
      {
        onSuccess: () => setResult(`Video added to playlist ${playlist.title}`),
        onError: (error) => showFailure(playlist.title, error, 'Error adding video to playlist'),
      },
    );
  };

  const addToNew = () => {
    setResult(null);
    const message = validatePlaylistTitle(text);
    setInvalid(message);
    if (message) return;
    const title = normalizePlaylistTitle(text);
    // The API holds titles unique per user whatever their case: an existing one is used, not created again.
    const existing =
      all.find((playlist) => playlist.title === title) ??
      all.find((playlist) => playlist.title.toLowerCase() === title.toLowerCase());
    if (existing) {
      addTo(existing);
      return;
    }
    createPlaylist.mutate(
      { video_id: video.id, title, user_id: user.id, display_name: user.user_metadata.display_name },
      {
        onSuccess: ({ data }) => {
          setResult(`Video added to playlist ${data.title}`);
          void queryClient.invalidateQueries({ queryKey: userPlaylistsQueryOptions(user.id).queryKey });
        },
        onError: (error) => showFailure(title, error, 'Error creating playlist'),
      },
    );
  };

  return (
    <Dialog open={open} title="Add to playlist" onClose={close}>
      <div className="playlist-picker">
        <div className="field">
          <label htmlFor={`${id}-title`}>Find a playlist or name a new one</label>
          <input
            id={`${id}-title`}
            type="text"
            value={text}
            maxLength={PLAYLIST_TITLE_MAX_LENGTH}
            autoComplete="off"
            data-autofocus
            aria-describedby={invalid ? `${id}-invalid` : undefined}
            aria-invalid={invalid ? true : undefined}
            onChange={(event) => {
              setText(event.target.value);
              setInvalid(null);
            }}
          />
        </div>
        {invalid && (
          <p className="form-error" id={`${id}-invalid`} role="alert">
            {invalid}
          </p>
        )}

        {playlists.isPending ? (
          <p className="playlist-picker__note">Loading playlists…</p>
        ) : shown.length === 0 ? (
          <p className="playlist-picker__note">No playlists found</p>
        ) : (
          <ul className="playlist-picker__list" role="list" aria-label="Your playlists">
            {shown.map((playlist) => (
              <li key={playlist.playlist_id}>
                <button
                  className="playlist-picker__item"
                  type="button"
                  disabled={busy}
                  onClick={() => addTo(playlist)}
                >
                  {playlist.title}
                </button>
              </li>
            ))}
          </ul>
        )}

        <button className="button button--primary" type="button" disabled={busy} onClick={addToNew}>
          New playlist
        </button>
        <p className="playlist-picker__result" role="status">
          {result}
        </p>
      </div>
    </Dialog>
  );
}
