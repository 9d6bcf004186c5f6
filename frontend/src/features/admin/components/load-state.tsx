/**
 * What a statistics view says before its figures are there: loading, or that they could not be read with a way
 * to try again. Nothing once they are there (a failed refresh keeps the figures shown).
 */
export function LoadState({ what, query }: { what: string; query: { data?: unknown; isError: boolean; refetch: () => unknown } }) {
  if (query.data) return null;
  if (!query.isError) return <p role="status">Loading the {what}…</p>;
  return (
    <p className="form-error" role="alert">
      The {what} could not be loaded.{' '}
      <button className="button button--quiet" type="button" onClick={() => void query.refetch()}>
        Try again
      </button>
    </p>
  );
}
