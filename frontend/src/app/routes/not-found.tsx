import { Link } from 'react-router';
import { DocumentTitle } from '@/lib/document-title';
import { PAGE_TITLES } from '@/lib/page-titles';

export function NotFoundRoute() {
  return (
    <section className="message-page">
      <DocumentTitle>{PAGE_TITLES.pageNotFound}</DocumentTitle>
      <h1>Page not found</h1>
      <p>There is nothing at this address.</p>
      <Link className="button" to="/">
        Back to the videos
      </Link>
    </section>
  );
}
