import { Link, useParams, useSearchParams } from 'react-router';
import { CatalogueListing } from '@/features/browse/components/catalogue-listing';
import { TaxonIndex } from '@/features/browse/components/taxon-index';
import { useTaxa, type TaxonKind } from '@/api/taxonomy/get-taxa';
import { FollowButton } from '@/components/ui/follow-button';
import { useUser } from '@/features/auth/api/get-user';
import type { TaxonRef } from '@/lib/api/types';
import { NotFoundRoute } from './not-found';
import { DocumentTitle } from '@/lib/document-title';
import { PAGE_TITLES, searchTitle, taxonTitle } from '@/lib/page-titles';

export function SearchRoute() {
  const [searchParams] = useSearchParams();
  const q = (searchParams.get('q') ?? '').trim();

  if (!q) {
    return (
      <section className="message-page">
        <DocumentTitle>{PAGE_TITLES.search}</DocumentTitle>
        <meta name="robots" content="noindex" />
        <h1>Search</h1>
        <p>Type what you are looking for in the search box above: a title, a word, a name.</p>
      </section>
    );
  }

  return (
    <>
      <DocumentTitle>{searchTitle(q)}</DocumentTitle>
      {/* Result pages are endless variations of the catalogue; search engines should index the catalogue itself. */}
      <meta name="robots" content="noindex" />
      <CatalogueListing
        heading={() => `Results for “${q}”`}
        filter={{ q }}
        keep={{ q }}
        empty={
          <>
            No videos match “{q}”. Try fewer or other words, or <Link to="/categories">browse the categories</Link>.
          </>
        }
      />
    </>
  );
}

export const CategoriesRoute = () => <TaxonIndex kind="categories" />;
export const PerformersRoute = () => <TaxonIndex kind="performers" />;

/** The videos of one category or performer, named from the index (which is cached), by its id in the path. */
function TaxonPage({ kind }: { kind: TaxonKind }) {
  const { id = '' } = useParams();
  const taxa = useTaxa(kind);
  const taxon = taxa.data?.data.find((entry) => entry.id === id);

  if (taxa.isSuccess && !taxon) return <NotFoundRoute />;
  const name = taxon?.name ?? (taxa.isError ? id : '…');

  return (
    <>
      {taxon && <DocumentTitle>{taxonTitle(taxon.name)}</DocumentTitle>}
      <CatalogueListing
        heading={(sort) => (kind === 'performers' ? `${sort} videos with ${name}` : `${sort} ${name} videos`)}
        filter={kind === 'categories' ? { category: id } : { performer: id }}
        empty={kind === 'categories' ? 'No videos in this category yet.' : 'No videos with this performer yet.'}
      >
        <p className="catalogue__back">
          <Link to={`/${kind}`}>{kind === 'categories' ? 'All categories' : 'All performers'}</Link>
          {kind === 'performers' && taxon && <PerformerFollow performer={taxon} />}
        </p>
      </CatalogueListing>
    </>
  );
}

/** Following the performer whose page this is: once the session is known (a guest is offered to log in). */
function PerformerFollow({ performer }: { performer: TaxonRef }) {
  const user = useUser();
  if (user.isPending) return null;
  return <FollowButton performer={performer} user={user.data ?? null} />;
}

export const CategoryRoute = () => <TaxonPage kind="categories" />;
export const PerformerRoute = () => <TaxonPage kind="performers" />;
