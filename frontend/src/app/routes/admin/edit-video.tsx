import { useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useParams } from 'react-router';
import { editVideoQueryOptions, useEditVideo } from '@/features/admin/api/get-video';
import { useAdminNotice } from '@/features/admin/components/admin-notice';
import { EditVideoPanel } from '@/features/admin/components/edit-video-panel';
import { VideoStatistics } from '@/features/admin/components/video-statistics';
import { ApiError } from '@/lib/api/client';
import type { Video } from '@/lib/api/types';
import { NotFoundRoute } from '../not-found';
import { DocumentTitle } from '@/lib/document-title';

const isVideoId = (id: string | undefined): id is string =>
  Boolean(id && /^[1-9]\d{0,9}$/.test(id) && Number(id) <= 2_147_483_647);

/** /admin/videos/:id — the edit panel for one video, with links back to the list and to its watch page. */
export function AdminEditVideoRoute() {
  const { id } = useParams();
  const valid = isVideoId(id);
  const videoId = valid ? Number(id) : 0;
  const video = useEditVideo(videoId, valid);
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const notice = useAdminNotice();

  if (!valid) return <NotFoundRoute />;

  if (video.isError) {
    const missing = video.error instanceof ApiError && video.error.statusCode === 404;
    return (
      <section className="message-page" role={missing ? undefined : 'alert'}>
        <DocumentTitle>{missing ? 'Video not found' : 'Edit video'}</DocumentTitle>
        <h1>{missing ? 'Video not found' : 'Something went wrong'}</h1>
        <p>{missing ? 'This video does not exist or has been removed.' : 'The video could not be loaded.'}</p>
        {missing ? (
          <Link className="button" to="/admin/videos">
            Back to the videos
          </Link>
        ) : (
          <button className="button" type="button" onClick={() => void video.refetch()}>
            Try again
          </button>
        )}
      </section>
    );
  }

  if (!video.data) {
    return (
      <div className="admin-page" aria-busy="true" aria-label="Loading the video">
        <div className="skeleton skeleton--line skeleton--short" />
        <div className="skeleton admin-skeleton__block" />
      </div>
    );
  }

  // The watch page's cached copy is updated by the save itself (useUpdateVideo); this page's own copy here.
  const saved = (updated: Video) => queryClient.setQueryData(editVideoQueryOptions(updated.id).queryKey, updated);
  const deleted = () => {
    notice.success(`Video ${videoId} deleted.`);
    void navigate('/admin/videos', { replace: true });
  };

  return (
    <div className="admin-page">
      <DocumentTitle>{`Edit: ${video.data.title}`}</DocumentTitle>
      <nav className="admin-page__links" aria-label="This video">
        <Link to="/admin/videos">Back to the videos</Link>
        <Link to={`/video/${videoId}`}>View on the site</Link>
      </nav>
      <EditVideoPanel key={videoId} video={video.data} onSaved={saved} onDeleted={deleted} />
      <VideoStatistics key={`stats-${videoId}`} videoId={videoId} />
    </div>
  );
}
