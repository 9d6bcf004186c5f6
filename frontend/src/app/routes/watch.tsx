import { useParams } from 'react-router';
import { useUser } from '@/features/auth/api/get-user';
import { FinishProfile } from '@/features/auth/components/finish-profile';
import { WatchPage, WatchSkeleton } from '@/features/watch/components/watch-page';
import { NotFoundRoute } from './not-found';

// Loaded on demand (see router.tsx): the player and hls.js stay out of the other pages' scripts.
export default function WatchRoute() {
  const { id } = useParams();
  const user = useUser();

  if (!id || !/^[1-9]\d{0,9}$/.test(id) || Number(id) > 2_147_483_647) return <NotFoundRoute />;
  // Member actions (bookmarks, queue, history) depend on who is watching: wait for the session answer.
  if (user.isPending) return <WatchSkeleton />;

  const signedIn = user.data ?? null;
  return (
    <WatchPage videoId={Number(id)} user={signedIn}>
      {signedIn && <FinishProfile user={signedIn} />}
    </WatchPage>
  );
}
