import { Link } from 'react-router';

/**
 * What an unknown or unpublished video shows. Inside another site's frame (`newTab`) the link opens the site in a
 * tab of its own: no other page of the site may be framed.
 */
export function VideoNotFound({ newTab = false }: { newTab?: boolean }) {
  return (
    <section className="message-page">
      <title>Video not found</title>
      <h1>Video not found</h1>
      <p>This video does not exist or has been removed.</p>
      {newTab ? (
        <a className="button" href="/" target="_blank" rel="noopener">
          Back to the videos
        </a>
      ) : (
        <Link className="button" to="/">
          Back to the videos
        </Link>
      )}
    </section>
  );
}
