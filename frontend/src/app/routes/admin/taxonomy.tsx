import { TagSynonymsSection } from '@/features/admin/components/tag-synonyms-section';
import { TaxonomySection } from '@/features/admin/components/taxonomy-section';
import '@/features/admin/admin-manage.css';

/** /admin/taxonomy: categories and performers created and renamed; tags renamed and deleted; tag synonyms. */
export function AdminTaxonomyRoute() {
  return (
    <section className="admin-page" aria-labelledby="admin-taxonomy-heading">
      <div className="admin-page__head">
        <h1 id="admin-taxonomy-heading">Categories, performers and tags</h1>
      </div>
      <div className="taxonomy-grid">
        <TaxonomySection kind="categories" />
        <TaxonomySection kind="performers" />
        <TaxonomySection kind="tags" />
        <TagSynonymsSection />
      </div>
    </section>
  );
}
