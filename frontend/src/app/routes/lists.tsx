import { useState, type ReactNode } from 'react';
import { Navigate, useLocation, useParams } from 'react-router';
import { useUser } from '@/features/auth/api/get-user';
import { AccountDeleted, AccountPage } from '@/features/auth/components/account-page';
import { BookmarksPage } from '@/features/lists/components/bookmarks-page';
import { FollowedVideosPage } from '@/features/lists/components/followed-videos-page';
import { FollowingPage } from '@/features/lists/components/following-page';
import { HistoryPage } from '@/features/lists/components/history-page';
import { LikesPage } from '@/features/lists/components/likes-page';
import { ListLayout, ListSkeleton, LoadError } from '@/features/lists/components/list-layout';
import { PlaylistPage } from '@/features/lists/components/playlist-page';
import { PlaylistsPage } from '@/features/lists/components/playlists-page';
import { WatchLaterPage } from '@/features/lists/components/watch-later-page';
import '@/features/lists/lists.css';
import type { User } from '@/lib/api/types';
import { loginHref } from '@/lib/return-path';
import { NotFoundRoute } from './not-found';

// The member's own lists (loaded on demand, see router.tsx). A visitor is sent to log in and brought back here.

interface MembersOnlyProps {
  /** The page's title, shown with placeholder cards while the session loads. */
  title: string;
  children: (user: User) => ReactNode;
}

function MembersOnly({ title, children }: MembersOnlyProps) {
  return (
    <>
      {/* A member's own pages are nobody else's search result. */}
      <meta name="robots" content="noindex" />
      <MembersOnlyContent title={title}>{children}</MembersOnlyContent>
    </>
  );
}

function MembersOnlyContent({ title, children }: MembersOnlyProps) {
  const user = useUser();
  const location = useLocation();

  if (user.isPending) return <ListSkeleton title={title} />;
  if (user.isError) {
    return (
      <ListLayout title={title}>
        <LoadError message="We could not check whether you are logged in." onRetry={() => void user.refetch()} />
      </ListLayout>
    );
  }
  if (!user.data) return <Navigate to={loginHref(location.pathname, location.search)} replace />;
  return children(user.data);
}

export function BookmarksRoute() {
  return <MembersOnly title="Bookmarks">{(user) => <BookmarksPage user={user} />}</MembersOnly>;
}

export function WatchLaterRoute() {
  return <MembersOnly title="Watch later">{(user) => <WatchLaterPage user={user} />}</MembersOnly>;
}

export function HistoryRoute() {
  return <MembersOnly title="History">{(user) => <HistoryPage user={user} />}</MembersOnly>;
}

export function LikesRoute() {
  return <MembersOnly title="Liked videos">{(user) => <LikesPage user={user} />}</MembersOnly>;
}

export function FollowingRoute() {
  return <MembersOnly title="Following">{(user) => <FollowingPage user={user} />}</MembersOnly>;
}

export function FollowedVideosRoute() {
  return <MembersOnly title="New from performers you follow">{(user) => <FollowedVideosPage user={user} />}</MembersOnly>;
}

export function PlaylistsRoute() {
  return <MembersOnly title="Playlists">{(user) => <PlaylistsPage user={user} />}</MembersOnly>;
}

export function AccountRoute() {
  // Once deleted, the page stays to say so (the member is a visitor now: MembersOnly would send them to log in).
  const [deleted, setDeleted] = useState(false);
  if (deleted) return <AccountDeleted />;
  return <MembersOnly title="Your account">{(user) => <AccountPage user={user} onDeleted={() => setDeleted(true)} />}</MembersOnly>;
}

const PLAYLIST_ID = /^[1-9]\d{0,9}$/;

export function PlaylistRoute() {
  const { id } = useParams();
  if (!id || !PLAYLIST_ID.test(id) || Number(id) > 2_147_483_647) return <NotFoundRoute />;
  return (
    <MembersOnly title="Playlist">
      {(user) => <PlaylistPage key={id} playlistId={Number(id)} user={user} />}
    </MembersOnly>
  );
}
