import { Link } from 'react-router';
import { VideoTable } from '@/features/admin/components/video-table';
import '@/features/admin/admin-manage.css';

/** /admin/videos: the catalogue as a table, with search, sort and bulk edits. */
export function AdminVideosRoute() {
  return (
    <section className="admin-page" aria-labelledby="admin-videos-heading">
      <div className="admin-page__head">
        <h1 id="admin-videos-heading">Videos</h1>
        <Link className="button" to="/admin/upload">
          Upload a video
        </Link>
      </div>
      <VideoTable />
    </section>
  );
}
