import { DISPLAY_NAME_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '@hunktube/shared';
import { useId, type FormEvent } from 'react';
import { Link } from 'react-router';
import { useRegister } from '../api/register';
import { AuthFormError } from './auth-form-error';

interface RegisterFormProps {
  onSuccess: () => void;
  /** Where the "Log in" link points, keeping the visitor's ref. */
  loginHref: string;
}

export function RegisterForm({ onSuccess, loginHref }: RegisterFormProps) {
  const register = useRegister();
  const id = useId();

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    register.mutate(
      {
        displayName: String(form.get('displayName') ?? ''),
        email: String(form.get('email') ?? ''),
        password: String(form.get('password') ?? ''),
      },
      { onSuccess },
    );
  };

  return (
    <form className="auth-form" onSubmit={onSubmit} aria-labelledby={`${id}-title`}>
      <h1 id={`${id}-title`}>Sign up</h1>
      <AuthFormError error={register.error} />
      <div className="field">
        <label htmlFor={`${id}-name`}>Display name</label>
        <input id={`${id}-name`} name="displayName" autoComplete="nickname" maxLength={DISPLAY_NAME_MAX_LENGTH} required />
      </div>
      <div className="field">
        <label htmlFor={`${id}-email`}>Email</label>
        <input id={`${id}-email`} name="email" type="email" autoComplete="email" required />
      </div>
      <div className="field">
        <label htmlFor={`${id}-password`}>Password</label>
        <input
          id={`${id}-password`}
          name="password"
          type="password"
          autoComplete="new-password"
          aria-describedby={`${id}-password-hint`}
          required
        />
        <p className="field__hint" id={`${id}-password-hint`}>
          At least {PASSWORD_MIN_LENGTH} characters.
        </p>
      </div>
      <button className="button button--primary" type="submit" disabled={register.isPending}>
        {register.isPending ? 'Signing up…' : 'Sign up'}
      </button>
      <p className="auth-form__switch">
        Already have an account? <Link to={loginHref}>Log in</Link>
      </p>
    </form>
  );
}
