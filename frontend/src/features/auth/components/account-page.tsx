import { useId, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { Dialog } from '@/components/ui/dialog';
import { ApiError } from '@/lib/api/client';
import type { User } from '@/lib/api/types';
import { useDeleteAccount, useDownloadMyData } from '../api/account';
import { DocumentTitle } from '@/lib/document-title';


/**
 * The member's account (docs/decisions.md › "Export and delete"): who they are here, a copy of their data to take away,
 * and the way to leave for good.
 */
export function AccountPage({ user, onDeleted }: { user: User; onDeleted: () => void }) {
  const id = useId();
  const download = useDownloadMyData();
  const [deleting, setDeleting] = useState(false);
  const isAdmin = user.user_metadata.role_id === 'admin';

  return (
    <section className="account" aria-labelledby={`${id}-title`}>
      <DocumentTitle>Your account</DocumentTitle>
      <h1 id={`${id}-title`}>Your account</h1>
      <dl className="account__facts">
        <div>
          <dt>Display name</dt>
          <dd>{user.user_metadata.display_name}</dd>
        </div>
        <div>
          <dt>Email</dt>
          <dd>{user.email}</dd>
        </div>
      </dl>

      <section className="panel account__section" aria-labelledby={`${id}-data`}>
        <h2 id={`${id}-data`}>Your data</h2>
        <p>
          A copy of everything this site keeps about you, as a JSON file: your account, bookmarks, watch later,
          playlists, liked videos, the performers you follow, your hidden topics and your history.
        </p>
        <button className="button" type="button" disabled={download.isPending} onClick={() => download.mutate()}>
          {download.isPending ? 'Preparing your data…' : 'Download my data'}
        </button>
        {download.isError && (
          <p className="form-error" role="alert">
            Your data could not be prepared. Please try again.
          </p>
        )}
      </section>

      <section className="panel account__section" aria-labelledby={`${id}-hidden`}>
        <h2 id={`${id}-hidden`}>Hidden topics</h2>
        <p>The categories, performers and tags whose videos you never want to see, left out of every listing.</p>
        <Link className="button button--quiet" to="/me/hidden">
          Your hidden topics
        </Link>
      </section>

      <section className="panel account__section" aria-labelledby={`${id}-delete`}>
        <h2 id={`${id}-delete`}>Delete your account</h2>
        {isAdmin ? (
          <p>An admin account is managed on the server: it cannot be deleted here.</p>
        ) : (
          <>
            <p>
              Deleting your account removes it at once with everything personal: your bookmarks, watch later,
              playlists, likes, the performers you follow, your history and every session. Views and likes you
              gave stay counted on the videos, linked to no one. This cannot be undone.
            </p>
            <button className="button button--danger" type="button" onClick={() => setDeleting(true)}>
              Delete my account
            </button>
          </>
        )}
      </section>
      {deleting && <DeleteAccountDialog onClose={() => setDeleting(false)} onDeleted={onDeleted} />}
    </section>
  );
}

function DeleteAccountDialog({ onClose, onDeleted }: { onClose: () => void; onDeleted: () => void }) {
  const id = useId();
  const [password, setPassword] = useState('');
  const remove = useDeleteAccount(onDeleted);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    remove.mutate(password);
  };

  return (
    <Dialog open title="Delete your account?" onClose={onClose}>
      <form className="confirm" onSubmit={onSubmit}>
        <p className="confirm__text">Enter your password to delete your account and everything personal with it. This cannot be undone.</p>
        <div className="field">
          <label htmlFor={`${id}-password`}>Your password</label>
          <input
            id={`${id}-password`}
            type="password"
            autoComplete="current-password"
            value={password}
            onChange={(event) => setPassword(event.target.value)}
            aria-describedby={remove.isError ? `${id}-error` : undefined}
            aria-invalid={remove.isError || undefined}
            required
            data-autofocus
          />
        </div>
        {remove.isError && (
          <p className="form-error" id={`${id}-error`} role="alert">
            {deleteFailure(remove.error)}
          </p>
        )}
        <div className="confirm__buttons">
          <button className="button button--quiet" type="button" onClick={onClose}>
            Cancel
          </button>
          <button className="button button--danger" type="submit" disabled={remove.isPending}>
            {remove.isPending ? 'Deleting…' : 'Delete my account'}
          </button>
        </div>
      </form>
    </Dialog>
  );
}

/** Why the account was not deleted, in the API's words when it gave some. */
function deleteFailure(error: unknown): string {
  if (!(error instanceof ApiError)) return 'The server could not be reached. Please try again.';
  if (error.errorCode === 'WRONG_PASSWORD') return 'That is not your password.';
  return error.serverError ?? 'Your account could not be deleted. Please try again.';
}

/** Where the account page leaves a member who deleted their account: now a visitor, told it is done. */
export function AccountDeleted() {
  return (
    <section className="account" aria-labelledby="account-deleted">
      <DocumentTitle>Account deleted</DocumentTitle>
      <h1 id="account-deleted">Your account has been deleted</h1>
      <p role="status">Everything that was yours on this site went with it, and this browser is signed out.</p>
      <p>
        <Link className="button" to="/">
          Go to the home page
        </Link>
      </p>
    </section>
  );
}
