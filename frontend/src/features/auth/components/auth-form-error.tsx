import { ApiError } from '@/lib/api/client';

/** The API's own message for a failed sign-in or sign-up; a network failure gets a plain one. */
export function AuthFormError({ error }: { error: unknown }) {
  if (!error) return null;
  const message =
    error instanceof ApiError ? error.message : 'The server could not be reached. Please try again.';
  return (
    <p className="form-error" role="alert">
      {message}
    </p>
  );
}
