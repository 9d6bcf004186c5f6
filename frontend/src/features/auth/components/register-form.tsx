import {
  DISPLAY_NAME_MAX_LENGTH,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  passwordProblem,
  WEAK_PASSWORD,
  type PasswordProblem,
} from '@hunktube/shared';
import { useId, useRef, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { ApiError } from '@/lib/api/client';
import { useRegister } from '../api/register';
import { AuthFormError } from './auth-form-error';

interface RegisterFormProps {
  onSuccess: () => void;
  /** Where the "Log in" link points, keeping the visitor's ref. */
  loginHref: string;
}

/** The rule's message as the field shows it; the length one reworded (the API's reads as a validation message). */
const fieldMessage = (problem: PasswordProblem) =>
  problem.rule === 'length' ? `The password must be ${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters long` : problem.message;

/**
 * The sign-up form. It applies the password rule (`@hunktube/shared`'s password-rule.ts) before sending, all but
 * its list of common passwords: the list is about 180 kB compressed, more than the rest of the sign-up page, so it
 * stays on the server, whose WEAK_PASSWORD answer the password field shows like the form's own checks.
 */
export function RegisterForm({ onSuccess, loginHref }: RegisterFormProps) {
  const register = useRegister();
  const id = useId();
  const passwordInput = useRef<HTMLInputElement>(null);
  const [problem, setProblem] = useState<string | null>(null);

  const weakOnServer = register.error instanceof ApiError && register.error.errorCode === WEAK_PASSWORD ? register.error.message : null;
  const passwordError = problem ?? weakOnServer;

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const body = {
      displayName: String(form.get('displayName') ?? ''),
      email: String(form.get('email') ?? ''),
      password: String(form.get('password') ?? ''),
    };
    const broken = passwordProblem(body.password, { email: body.email, displayName: body.displayName }, null);
    if (broken) {
      register.reset();
      setProblem(fieldMessage(broken));
      passwordInput.current?.focus();
      return;
    }
    setProblem(null);
    register.mutate(body, { onSuccess });
  };

  /** Any change to the fields the rule reads makes its last verdict stale. */
  const onChange = () => {
    if (problem) setProblem(null);
    if (weakOnServer) register.reset();
  };

  return (
    <form className="auth-form" onSubmit={onSubmit} onChange={onChange} aria-labelledby={`${id}-title`}>
      <h1 id={`${id}-title`}>Sign up</h1>
      <AuthFormError error={weakOnServer ? null : register.error} />
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
          ref={passwordInput}
          id={`${id}-password`}
          name="password"
          type="password"
          autoComplete="new-password"
          aria-describedby={passwordError ? `${id}-password-hint ${id}-password-error` : `${id}-password-hint`}
          aria-invalid={passwordError ? true : undefined}
          required
        />
        <p className="field__hint" id={`${id}-password-hint`}>
          At least {PASSWORD_MIN_LENGTH} characters, not a common password, and not containing your e-mail name or your
          display name.
        </p>
        {passwordError && (
          <p className="form-error" id={`${id}-password-error`} role="alert">
            {passwordError}
          </p>
        )}
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
