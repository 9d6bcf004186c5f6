import { UploadForm } from '@/features/admin/components/upload-form';
import '@/features/admin/admin-manage.css';

/** /admin/upload: a new video, its upload progress and then its processing job. */
export function AdminUploadRoute() {
  return (
    <section className="admin-page admin-page--narrow" aria-labelledby="admin-upload-heading">
      <div className="admin-page__head">
        <h1 id="admin-upload-heading">Upload a video</h1>
      </div>
      <UploadForm />
    </section>
  );
}
