import type { ReactNode } from 'react';
import { Link, useSearchParams, type To } from 'react-router';
import { useMyList, type MyListPages } from '@/api/lists/get-my-list';
import type { MyList } from '@/api/lists/keys';
import { Pagination } from '@/components/ui/pagination';
import { VideoGrid } from '@/components/ui/video-grid';
import type { Brand, User } from '@/lib/api/types';
import { useSite } from '@/lib/site';
import { countText } from '../utils/count-text';
import { pageSearch, parsePage } from '@/lib/page-param';
import { ListLayout, ListLoading, LoadError } from './list-layout';

type Item<L extends MyList> = MyListPages[L]['data'][number];

/** What a card's extras need to name the video as its card does. */
export interface CardContext {
  brand: Brand | undefined;
}

interface MyListViewProps<L extends MyList> {
  list: L;
  user: User;
  title: string;
  /** The sentence of an empty list, saying how videos get into it. */
  empty: ReactNode;
  /** Controls beside the heading; given the first page's answer once it is there. */
  actions?: (page: MyListPages[L] | undefined) => ReactNode;
  linkFor?: (video: Item<L>) => To;
  footerFor?: (video: Item<L>, context: CardContext) => ReactNode;
}

/** A page of one of the member's lists: the cards with `?page=` pagination, an empty state, a failure with retry. */
export function MyListView<L extends MyList>({ list, user, title, empty, actions, linkFor, footerFor }: MyListViewProps<L>) {
  const [searchParams] = useSearchParams();
  const page = parsePage(searchParams.get('page'));
  const site = useSite();
  const videos = useMyList(list, user.id, page);
  const brand = site.data?.brand;

  // Cards wait for the site too: its brand picks the title, and showing one title then another would flicker.
  const loading = videos.isPending || site.isPending;
  const pageCount = videos.data ? Math.ceil(videos.data.total / videos.data.limit) : 0;
  const items = videos.data?.data as Item<L>[] | undefined;

  return (
    <ListLayout
      title={title}
      subtitle={videos.data && videos.data.total > 0 ? countText(videos.data.total, 'video') : undefined}
      actions={actions?.(videos.data)}
    >
      {videos.isError ? (
        <LoadError message={`Your ${title.toLowerCase()} could not be loaded.`} onRetry={() => void videos.refetch()} />
      ) : loading || !items ? (
        <ListLoading what={title.toLowerCase()} />
      ) : items.length === 0 ? (
        page > 1 ? (
          <div className="notice">
            <p>There is nothing on this page.</p>
            <Link className="button button--quiet" to={{ search: pageSearch(Math.max(Math.min(page - 1, pageCount), 1)) }}>
              Go back a page
            </Link>
          </div>
        ) : (
          <div className="notice lists__empty">
            <p>{empty}</p>
            <Link className="button" to="/">
              Browse videos
            </Link>
          </div>
        )
      ) : (
        <VideoGrid
          videos={items}
          brand={brand}
          imageHost={site.data?.imageHost}
          busy={videos.isPlaceholderData}
          linkFor={linkFor}
          footerFor={footerFor && ((video) => footerFor(video, { brand }))}
          headingLevel={2}
        />
      )}

      {videos.data && <Pagination page={page} pageCount={pageCount} to={(n) => ({ search: pageSearch(n) })} />}
    </ListLayout>
  );
}
