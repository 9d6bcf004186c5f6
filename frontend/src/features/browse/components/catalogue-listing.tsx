import { useId, type ReactNode } from 'react';
import { Link, useSearchParams } from 'react-router';
import { hasListingFilters, parseListingFilters } from '@hunktube/shared';
import { useVideos, type GetVideosParams } from '@/api/videos/get-videos';
import { parseSort, SORT_LABELS } from '@/api/videos/sorts';
import { Pagination } from '@/components/ui/pagination';
import { VideoGrid, VideoGridSkeleton } from '@/components/ui/video-grid';
import { BannerSlot } from '@/lib/ad-slots';
import { useSite } from '@/lib/site';
import { parsePage } from '@/lib/page-param';
import { catalogueSearch } from '../utils/catalogue-search';
import { filterKeep } from '../utils/listing-filters';
import { ListingFilterBar } from './listing-filter-bar';
import { SortTabs } from './sort-tabs';

export const PAGE_SIZE = 24;

interface CatalogueListingProps {
  /** The page's heading; the current sort's label is passed in to build it. */
  heading: (sortLabel: string) => ReactNode;
  /** The filter of this listing (a category, a performer, a search). */
  filter?: Omit<GetVideosParams, 'sort' | 'page' | 'limit'>;
  /** Query parameters the view keeps in its links besides sort and page (a search's `q`). */
  keep?: Record<string, string>;
  /** What to say when the first page is empty. */
  empty: ReactNode;
  /** Content between the heading and the grid (a featured row, a description). */
  children?: ReactNode;
}

/**
 * A catalogue page: heading, sort tabs, filters, a paginated grid of cards, and its loading, error and empty
 * states. Sort, filters and page live in the address, so every view can be shared, reloaded and reached with the
 * back button.
 */
export function CatalogueListing({ heading, filter = {}, keep, empty, children }: CatalogueListingProps) {
  const headingId = useId();
  const [searchParams] = useSearchParams();
  const sort = parseSort(searchParams.get('sort'));
  const page = parsePage(searchParams.get('page'));
  const filters = parseListingFilters((name) => searchParams.get(name));
  // The sort tabs and the pages keep the filters; the filters keep the sort.
  const links = { ...keep, ...filterKeep(filters) };
  const filtered = hasListingFilters(filters);

  const site = useSite();
  const videos = useVideos({ ...filter, ...filters, sort, page, limit: PAGE_SIZE });

  // Cards wait for the site too: its brand picks the title, and showing one title then another would flicker.
  const loading = videos.isPending || site.isPending;
  const pageCount = videos.data ? Math.ceil(videos.data.total / videos.data.limit) : 0;

  return (
    <section className="catalogue" aria-labelledby={headingId}>
      <div className="catalogue__head">
        <h1 id={headingId}>{heading(SORT_LABELS[sort])}</h1>
        <SortTabs current={sort} keep={links} />
      </div>
      {/* A filtered view is one of endless variations of the catalogue: not for search engines (the server's head says so too). */}
      {filtered && <meta name="robots" content="noindex" />}
      <ListingFilterBar filters={filters} sort={sort} keep={keep} />
      {children}

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
        <p className="notice">
          {page > 1 ? (
            'There are no videos on this page.'
          ) : filtered ? (
            <>
              No videos match these filters. <Link to={{ search: catalogueSearch(sort, 1, keep) }}>Clear the filters</Link>
            </>
          ) : (
            empty
          )}
        </p>
      ) : (
        <VideoGrid
          videos={videos.data.data}
          brand={site.data?.brand}
          imageHost={site.data?.imageHost}
          busy={videos.isPlaceholderData}
          // At the top of the page (under the featured row on home, whose first card is as urgent).
          first
          // The page's own cards, right under its h1 (the featured row's h2 ends before them).
          headingLevel={2}
        />
      )}

      {/* After the grid, before the pages: reserved only where that is out of sight (docs/ads.md › "Web client"). */}
      <BannerSlot placement="banner-listing" />

      {videos.data && (
        <Pagination page={page} pageCount={pageCount} to={(n) => ({ search: catalogueSearch(sort, n, links) })} />
      )}
    </section>
  );
}
