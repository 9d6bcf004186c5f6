import { JobsTable } from '@/features/admin/components/jobs-table';
import '@/features/admin/admin-manage.css';

/** /admin/jobs: the processing jobs, live while any is moving. */
export function AdminJobsRoute() {
  return (
    <section className="admin-page" aria-labelledby="admin-jobs-heading">
      <div className="admin-page__head">
        <h1 id="admin-jobs-heading">Jobs</h1>
      </div>
      <JobsTable />
    </section>
  );
}
