import { Link } from 'react-router';

export function NotFoundRoute() {
  return (
    <section className="message-page">
      <title>Page not found</title>
      <h1>Page not found</h1>
      <p>There is nothing at this address.</p>
      <Link className="button" to="/">
        Back to the videos
      </Link>
    </section>
  );
}
