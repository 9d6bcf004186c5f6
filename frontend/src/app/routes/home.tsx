import { useSearchParams } from 'react-router';
import { Pagination } from '@/components/ui/pagination';
import { VideoGrid, VideoGridSkeleton } from '@/components/ui/video-grid';
import { useVideos } from '@/features/browse/api/get-videos';
import { SortTabs } from '@/features/browse/components/sort-tabs';
import { catalogueSearch, parsePage, parseSort, SORT_LABELS } from '@/features/browse/utils/catalogue-search';
import { useSite } from '@/lib/site';

const PAGE_SIZE = 24;

export function HomeRoute() {
  const [searchParams] = useSearchParams();
  const sort = parseSort(searchParams.get('sort'));
  const page = parsePage(searchParams.get('page'));

  const site = useSite();
  const videos = useVideos({ sort, page, limit: PAGE_SIZE });

  // Cards wait for the site too: its brand picks the title, and showing one title then another would flicker.
  const loading = videos.isPending || site.isPending;
  const pageCount = videos.data ? Math.ceil(videos.data.total / videos.data.limit) : 0;

  return (
    <section className="catalogue" aria-labelledby="catalogue-heading">
      <div className="catalogue__head">
        <h1 id="catalogue-heading">{SORT_LABELS[sort]} videos</h1>
        <SortTabs current={sort} />
      </div>

      {videos.isError ? (
        <div className="notice" role="alert">
          <p>The videos could not be loaded.</p>
          <button className="button" type="button" onClick={() => void videos.refetch()}>
            Try again
          </button>
        </div>
      ) : loading ? (
        <VideoGridSkeleton />
      ) : videos.data.data.length === 0 ? (
        <p className="notice">{page > 1 ? 'There are no videos on this page.' : 'No videos yet.'}</p>
      ) : (
        <VideoGrid
          videos={videos.data.data}
          brand={site.data?.brand}
          imageHost={site.data?.imageHost}
          busy={videos.isPlaceholderData}
        />
      )}

      {videos.data && (
        <Pagination page={page} pageCount={pageCount} to={(n) => ({ search: catalogueSearch(sort, n) })} />
      )}
    </section>
  );
}
