import { useParams } from 'react-router';
import { useUser } from '@/features/auth/api/get-user';
import { FinishProfile } from '@/features/auth/components/finish-profile';
import { WatchPage, WatchSkeleton } from '@/features/watch/components/watch-page';
import { isVideoId } from '@/lib/video-id';
import { NotFoundRoute } from './not-found';

// Loaded on demand (see router.tsx): the player and hls.js stay out of the other pages' scripts.
export default function WatchRoute() {
  const { id } = useParams();
  const user = useUser();

  if (!isVideoId(id)) return <NotFoundRoute />;
  // Member actions (bookmarks, queue, history) depend on who is watching: wait for the session answer.
  if (user.isPending) return <WatchSkeleton />;

  const signedIn = user.data ?? null;
  return (
    <WatchPage videoId={Number(id)} user={signedIn}>
      {signedIn && <FinishProfile user={signedIn} />}
    </WatchPage>
  );
}
