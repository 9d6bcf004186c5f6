import { useNavigate, useSearchParams } from 'react-router';
import { RegisterForm } from '@/features/auth/components/register-form';
import { refFor, returnPath } from '@/lib/return-path';
import { DocumentTitle } from '@/lib/document-title';
import { PAGE_TITLES } from '@/lib/page-titles';

export function RegisterRoute() {
  const [searchParams] = useSearchParams();
  const navigate = useNavigate();
  const ref = searchParams.get('ref');

  return (
    <section className="auth-page">
      <DocumentTitle>{PAGE_TITLES.register}</DocumentTitle>
      <meta name="robots" content="noindex" />
      <RegisterForm
        loginHref={`/login${ref ? `?ref=${refFor(ref)}` : ''}`}
        onSuccess={() => void navigate(returnPath(ref), { replace: true })}
      />
    </section>
  );
}
