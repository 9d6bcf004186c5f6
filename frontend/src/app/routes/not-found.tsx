import { Link } from 'react-router';
import { DocumentTitle } from '@/lib/document-title';

export function NotFoundRoute() {
  return (
    <section className="message-page">
      <DocumentTitle>Page not found</DocumentTitle>
      <h1>Page not found</h1>
      <p>There is nothing at this address.</p>
      <Link className="button" to="/">
        Back to the videos
      </Link>
    </section>
  );
}
