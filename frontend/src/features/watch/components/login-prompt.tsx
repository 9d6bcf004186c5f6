import { Link, useLocation } from 'react-router';
import { CloseIcon } from '@/components/ui/dialog';
import { loginHref } from '@/lib/return-path';

export type PromptKind = 'bookmark' | 'watch-later' | 'playlist';

const PROMPT_TEXT: Record<PromptKind, string> = {
  bookmark: 'Log in to bookmark your favorite videos and more',
  'watch-later': 'Log in to add videos to your watch later queue and more',
  playlist: 'Log in to add videos to playlists and more',
};

/** Asks a visitor to log in, linking to the login page that brings them back here. */
export function LoginPrompt({ kind, onClose }: { kind: PromptKind; onClose: () => void }) {
  const location = useLocation();
  return (
    <div className="login-prompt" role="status">
      <Link className="login-prompt__link" to={loginHref(location.pathname, location.search)}>
        {PROMPT_TEXT[kind]}
      </Link>
      <button className="icon-button icon-button--small" type="button" aria-label="Dismiss" onClick={onClose}>
        <CloseIcon />
      </button>
    </div>
  );
}
