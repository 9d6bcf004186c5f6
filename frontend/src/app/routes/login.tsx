import { useNavigate, useSearchParams } from 'react-router';
import { LoginForm } from '@/features/auth/components/login-form';
import { refFor, returnPath } from '@/lib/return-path';
import { DocumentTitle } from '@/lib/document-title';
import { PAGE_TITLES } from '@/lib/page-titles';

export function LoginRoute() {
  const [searchParams] = useSearchParams();
  const navigate = useNavigate();
  const ref = searchParams.get('ref');

  return (
    <section className="auth-page">
      <DocumentTitle>{PAGE_TITLES.login}</DocumentTitle>
      <meta name="robots" content="noindex" />
      <LoginForm
        registerHref={`/register${ref ? `?ref=${refFor(ref)}` : ''}`}
        onSuccess={() => void navigate(returnPath(ref), { replace: true })}
      />
    </section>
  );
}
