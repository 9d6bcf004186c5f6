import { DISPLAY_NAME_MAX_LENGTH, DISPLAY_NAME_MIN_LENGTH } from '@hunktube/shared';
import { useId, useState, type FormEvent } from 'react';
import type { User } from '@/lib/api/types';
import { useUpdateProfile } from '../api/update-profile';
import { AuthFormError } from './auth-form-error';

/**
 * For a signed-in user whose account has no role yet (registered, profile not completed): asks for the display
 * name and confirms it. Saving makes the user a member, and the panel goes away.
 */
export function FinishProfile({ user }: { user: User }) {
  const id = useId();
  const update = useUpdateProfile();
  const [displayName, setDisplayName] = useState(user.user_metadata.display_name);

  if (user.user_metadata.role_id !== null) return null;

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    update.mutate({ displayName: displayName.trim() });
  };

  return (
    <section className="panel finish-profile" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Finish your profile</h2>
      <p>Choose the name other members see.</p>
      <form className="finish-profile__form" onSubmit={onSubmit}>
        <div className="field">
          <label htmlFor={`${id}-name`}>Display name</label>
          <input
            id={`${id}-name`}
            value={displayName}
            onChange={(event) => setDisplayName(event.target.value)}
            minLength={DISPLAY_NAME_MIN_LENGTH}
            maxLength={DISPLAY_NAME_MAX_LENGTH}
            autoComplete="nickname"
            required
          />
        </div>
        <button className="button button--primary" type="submit" disabled={update.isPending}>
          Save
        </button>
      </form>
      <AuthFormError error={update.error} />
    </section>
  );
}
