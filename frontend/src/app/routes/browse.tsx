import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Link, Navigate, useLocation, useParams, useSearchParams } from 'react-router';
import { CatalogueListing } from '@/features/browse/components/catalogue-listing';
import { TaxonIndex } from '@/features/browse/components/taxon-index';
import { tagQueryOptions, useTag } from '@/api/taxonomy/get-tag';
import { useTaxa, type CreatableTaxonKind } from '@/api/taxonomy/get-taxa';
import { FollowButton } from '@/components/ui/follow-button';
import { useUser } from '@/features/auth/api/get-user';
import { HideTopicButton, HideTopicStatus, hiddenTopicEmpty } from '@/features/hidden-topics/components/hide-topic';
import { useHiddenTopics } from '@/features/hidden-topics/hooks/use-hidden-topics';
import { ApiError } from '@/lib/api/client';
import type { TaxonRef } from '@/lib/api/types';
import { useBrowserValue } from '@/lib/browser-value';
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
export const TagsRoute = () => <TaxonIndex kind="tags" />;

const TOPIC_KIND = { categories: 'category', performers: 'performer' } as const;

/**
 * The videos of one category or performer, named from the index (which is cached), by its id in the path, with
 * "Hide this category" (or performer): docs/decisions.md › "Hidden topics".
 */
function TaxonPage({ kind }: { kind: CreatableTaxonKind }) {
  const { id = '' } = useParams();
  const taxa = useTaxa(kind);
  const taxon = taxa.data?.data.find((entry) => entry.id === id);
  const hiding = useHiddenTopics();
  const topic = TOPIC_KIND[kind];

  if (taxa.isSuccess && !taxon) return <NotFoundRoute />;
  const name = taxon?.name ?? (taxa.isError ? id : '…');

  return (
    <>
      {taxon && <DocumentTitle>{taxonTitle(taxon.name)}</DocumentTitle>}
      <CatalogueListing
        heading={(sort) => (kind === 'performers' ? `${sort} videos with ${name}` : `${sort} ${name} videos`)}
        filter={kind === 'categories' ? { category: id } : { performer: id }}
        empty={hiding.isHidden(topic, id) ? hiddenTopicEmpty(topic) : kind === 'categories' ? 'No videos in this category yet.' : 'No videos with this performer yet.'}
      >
        <p className="catalogue__back">
          <Link to={`/${kind}`}>{kind === 'categories' ? 'All categories' : 'All performers'}</Link>
          {kind === 'performers' && taxon && <PerformerFollow performer={taxon} />}
          {taxon && <HideTopicButton kind={topic} id={taxon.id} hiding={hiding} />}
        </p>
        <HideTopicStatus kind={topic} id={id} hiding={hiding} />
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

/**
 * The videos of one tag, by the id in the path, read on its own (GET /api/tags/{id}): the tags are many, and a
 * synonym's address (/tags/muscled) answers as its tag (muscle). Such an address moves to the tag's own, in the
 * browser (the server draws the tag's page there, its head naming the tag's address as canonical); an id that is
 * neither is "Page not found".
 */
function TagPage() {
  const { id = '' } = useParams();
  const { search } = useLocation();
  const tag = useTag(id);
  // Once hydrated: <Navigate> moves in an effect, which a server render never runs (React Router warns there).
  const inBrowser = useBrowserValue(() => true, false);
  const queryClient = useQueryClient();
  const hiding = useHiddenTopics();
  const moved = tag.data && tag.data.id !== id ? tag.data : null;
  // The tag's own address then shows at once what the synonym's answered, instead of reading it again.
  useEffect(() => {
    if (moved) queryClient.setQueryData(tagQueryOptions(moved.id).queryKey, moved);
  }, [moved, queryClient]);

  if (tag.error instanceof ApiError && (tag.error.statusCode === 404 || tag.error.statusCode === 400)) return <NotFoundRoute />;
  // The tag's own id once known: a synonym's page lists the tag's videos, under the same query as the tag's page.
  const tagId = tag.data?.id ?? id;
  const name = tag.data?.name ?? (tag.isError ? id : '…');

  return (
    <>
      {inBrowser && moved && <Navigate replace to={{ pathname: `/tags/${encodeURIComponent(moved.id)}`, search }} />}
      {tag.data && <DocumentTitle>{taxonTitle(tag.data.name)}</DocumentTitle>}
      <CatalogueListing
        heading={(sort) => `${sort} videos tagged ${name}`}
        filter={{ tag: tagId }}
        empty={hiding.isHidden('tag', tagId) ? hiddenTopicEmpty('tag') : 'No videos with this tag yet.'}
      >
        <p className="catalogue__back">
          <Link to="/tags">All tags</Link>
          {tag.data && <HideTopicButton kind="tag" id={tag.data.id} hiding={hiding} />}
        </p>
        <HideTopicStatus kind="tag" id={tagId} hiding={hiding} />
      </CatalogueListing>
    </>
  );
}

export const TagRoute = () => <TagPage />;
