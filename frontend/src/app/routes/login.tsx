import { useNavigate, useSearchParams } from 'react-router';
import { LoginForm } from '@/features/auth/components/login-form';
import { refFor, returnPath } from '@/lib/return-path';
import { DocumentTitle } from '@/lib/document-title';

export function LoginRoute() {
  const [searchParams] = useSearchParams();
  const navigate = useNavigate();
  const ref = searchParams.get('ref');

  return (
    <section className="auth-page">
      <DocumentTitle>Log in</DocumentTitle>
      <meta name="robots" content="noindex" />
      <LoginForm
        registerHref={`/register${ref ? `?ref=${refFor(ref)}` : ''}`}
        onSuccess={() => void navigate(returnPath(ref), { replace: true })}
      />
    </section>
  );
}
