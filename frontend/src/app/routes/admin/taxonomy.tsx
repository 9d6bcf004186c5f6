import { TaxonomySection } from '@/features/admin/components/taxonomy-section';
import '@/features/admin/admin-manage.css';

/** /admin/taxonomy: categories and performers, created and renamed. */
export function AdminTaxonomyRoute() {
  return (
    <section className="admin-page" aria-labelledby="admin-taxonomy-heading">
      <div className="admin-page__head">
        <h1 id="admin-taxonomy-heading">Categories and performers</h1>
      </div>
      <div className="taxonomy-grid">
        <TaxonomySection kind="categories" />
        <TaxonomySection kind="performers" />
      </div>
    </section>
  );
}
