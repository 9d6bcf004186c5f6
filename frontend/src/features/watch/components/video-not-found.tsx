import { Link } from 'react-router';
import { DocumentTitle } from '@/lib/document-title';
import { PAGE_TITLES } from '@/lib/page-titles';

/**
 * What an unknown or unpublished video shows. Inside another site's frame (`newTab`) the link opens the site in a
 * tab of its own: no other page of the site may be framed.
 */
/** What the watch page and the embed show when the video could not be read (not a 404): a way to try again. */
export function VideoLoadFailed({ onRetry }: { onRetry: () => void }) {
  return (
    <section className="message-page" role="alert">
      <h1>Something went wrong</h1>
      <p>The video could not be loaded.</p>
      <button className="button" type="button" onClick={onRetry}>
        Try again
      </button>
    </section>
  );
}

export function VideoNotFound({ newTab = false }: { newTab?: boolean }) {
  return (
    <section className="message-page">
      <DocumentTitle>{PAGE_TITLES.videoNotFound}</DocumentTitle>
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
