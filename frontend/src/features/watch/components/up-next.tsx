import { Link } from 'react-router';
import type { Brand, VideoCard } from '@/lib/api/types';
import { brandTitle } from '@/lib/site';

interface UpNextProps {
  heading: string;
  videos: readonly VideoCard[];
  currentId: number;
  /** The query string that keeps the context on each link. */
  search: string;
  brand?: Brand;
}

/** The playlist or queue being played, in order, the current video marked. */
export function UpNext({ heading, videos, currentId, search, brand }: UpNextProps) {
  const position = videos.findIndex((video) => video.id === currentId);
  return (
    <nav className="up-next" aria-label={heading}>
      <h2 className="up-next__heading">
        {heading}
        {position >= 0 && (
          <span className="up-next__position">
            {' '}
            {position + 1} / {videos.length}
          </span>
        )}
      </h2>
      <ol className="up-next__list">
        {videos.map((video) => (
          <li key={video.id}>
            <Link
              className="up-next__link"
              to={`/video/${video.id}${search}`}
              aria-current={video.id === currentId ? 'page' : undefined}
            >
              {brandTitle(video, brand)}
            </Link>
          </li>
        ))}
      </ol>
    </nav>
  );
}
