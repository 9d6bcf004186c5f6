import { Link, useParams } from 'react-router';
import { NotFoundRoute } from './not-found';

// Stands in for the watch page (player, details, related videos), which a later change adds.
export function WatchPlaceholderRoute() {
  const { id } = useParams();
  if (!id || !/^[1-9]\d*$/.test(id)) return <NotFoundRoute />;

  return (
    <section className="message-page">
      <h1>Video {id}</h1>
      <p>The watch page comes later.</p>
      <Link className="button" to="/">
        Back to the videos
      </Link>
    </section>
  );
}
