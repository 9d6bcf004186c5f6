import { useId, type FormEvent } from 'react';
import { Link } from 'react-router';
import { useLogin } from '../api/login';
import { AuthFormError } from './auth-form-error';

interface LoginFormProps {
  onSuccess: () => void;
  /** Where the "Sign up" link points, keeping the visitor's ref. */
  registerHref: string;
}

export function LoginForm({ onSuccess, registerHref }: LoginFormProps) {
  const login = useLogin();
  const id = useId();

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    login.mutate(
      { email: String(form.get('email') ?? ''), password: String(form.get('password') ?? '') },
      { onSuccess },
    );
  };

  return (
    <form className="auth-form" onSubmit={onSubmit} aria-labelledby={`${id}-title`}>
      <h1 id={`${id}-title`}>Log in</h1>
      <AuthFormError error={login.error} />
      <div className="field">
        <label htmlFor={`${id}-email`}>Email</label>
        <input id={`${id}-email`} name="email" type="email" autoComplete="email" required />
      </div>
      <div className="field">
        <label htmlFor={`${id}-password`}>Password</label>
        <input id={`${id}-password`} name="password" type="password" autoComplete="current-password" required />
      </div>
      <button className="button button--primary" type="submit" disabled={login.isPending}>
        {login.isPending ? 'Logging in…' : 'Log in'}
      </button>
      <p className="auth-form__switch">
        New here? <Link to={registerHref}>Sign up</Link>
      </p>
    </form>
  );
}
