import { normalizePlaylistTitle, PLAYLIST_TITLE_MAX_LENGTH, validatePlaylistTitle } from '@hunktube/shared';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { ApiError } from '@/lib/api/client';
import { useRenamePlaylist } from '../api/rename-playlist';

interface RenamePlaylistFormProps {
  playlistId: number;
  /** The current title, which the field starts with. */
  title: string;
  userId: string;
  /** Called once renamed, or when the title was left as it was. */
  onDone: () => void;
  onCancel: () => void;
}

/** Postgres' unique-violation code, which the API keeps for "you already have that title". */
const DUPLICATE = '23505';

function failureMessage(error: unknown, title: string): string {
  if (error instanceof ApiError) {
    if (error.statusCode === 409 || error.errorCode === DUPLICATE) return `You already have a playlist called “${title}”.`;
    // The API's own words for the title rule.
    if (error.statusCode === 400 && error.serverError) return error.serverError;
    if (error.statusCode === 404) return 'This playlist no longer exists.';
  }
  return 'The playlist could not be renamed. Try again.';
}

/** An inline form that renames a playlist, checking the same title rule as the API before sending. */
export function RenamePlaylistForm({ playlistId, title, userId, onDone, onCancel }: RenamePlaylistFormProps) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [text, setText] = useState(title);
  const [message, setMessage] = useState<string | null>(null);
  const rename = useRenamePlaylist(userId);

  useEffect(() => {
    input.current?.select();
  }, []);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const invalid = validatePlaylistTitle(text);
    setMessage(invalid);
    if (invalid) return;
    const next = normalizePlaylistTitle(text);
    if (next === title) {
      onDone();
      return;
    }
    rename.mutate(
      { id: playlistId, title: next },
      { onSuccess: onDone, onError: (error) => setMessage(failureMessage(error, next)) },
    );
  };

  return (
    <form
      className="rename-form"
      aria-label={`Rename ${title}`}
      noValidate
      onSubmit={submit}
      onKeyDown={(event) => {
        if (event.key === 'Escape') {
          event.stopPropagation();
          onCancel();
        }
      }}
    >
      <div className="field">
        <label htmlFor={`${id}-title`}>Playlist title</label>
        <input
          ref={input}
          id={`${id}-title`}
          type="text"
          value={text}
          maxLength={PLAYLIST_TITLE_MAX_LENGTH}
          autoComplete="off"
          aria-invalid={message ? true : undefined}
          aria-describedby={message ? `${id}-error` : undefined}
          onChange={(event) => {
            setText(event.target.value);
            setMessage(null);
          }}
        />
      </div>
      {message && (
        <p className="form-error" id={`${id}-error`} role="alert">
          {message}
        </p>
      )}
      <div className="rename-form__buttons">
        <button className="button button--primary" type="submit" disabled={rename.isPending}>
          {rename.isPending ? 'Saving…' : 'Save'}
        </button>
        <button className="button button--quiet" type="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
