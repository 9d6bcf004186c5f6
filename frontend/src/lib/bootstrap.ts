import type { DehydratedState } from '@tanstack/react-query';
import type { HydrationState } from 'react-router';
import type { Site, User } from './api/types';

/**
 * What the server's page says at start (docs/web-client.md › "The bootstrap block"): the site's settings and
 * who is signed in, in `<script type="application/json" id="bootstrap">`, a data block the browser never runs.
 * `user` is null for a guest and left out when the server could not tell; everything is left out when there is
 * no block (Vite's dev server, tests).
 */
export interface Bootstrap {
  site?: Site;
  user?: User | null;
  /** Whether the visitor had answered the 18+ gate (its cookie), as the server drew the page. */
  ageConfirmed?: boolean;
  /** On a page the server rendered (entry-server.tsx): the reads it made and its router's data, to hydrate from. */
  rendered?: Rendered;
}

export interface Rendered {
  queries: DehydratedState;
  router: HydrationState;
}

export const BOOTSTRAP_ID = 'bootstrap';

export function readBootstrap(doc: Document = document): Bootstrap {
  const element = doc.getElementById(BOOTSTRAP_ID);
  if (!(element instanceof HTMLScriptElement) || element.type !== 'application/json') return {};
  try {
    const data: unknown = JSON.parse(element.textContent ?? '');
    if (typeof data !== 'object' || data === null) return {};
    const { site, user, ageConfirmed, rendered } = data as Record<string, unknown>;
    return {
      ...(isSite(site) ? { site } : {}),
      ...(user === null || isUser(user) ? { user } : {}),
      ...(typeof ageConfirmed === 'boolean' ? { ageConfirmed } : {}),
      ...(isRendered(rendered) ? { rendered } : {}),
    };
  } catch {
    return {};
  }
}

function isSite(value: unknown): value is Site {
  const site = value as Partial<Site> | null;
  return typeof site?.name === 'string' && typeof site.brand === 'string' && typeof site.mediaHosts === 'object';
}

function isUser(value: unknown): value is User {
  const user = value as Partial<User> | null;
  return typeof user?.id === 'string' && typeof user.user_metadata === 'object' && user.user_metadata !== null;
}

function isRendered(value: unknown): value is Rendered {
  const rendered = value as Partial<Rendered> | null;
  return Array.isArray(rendered?.queries?.queries) && typeof rendered.router === 'object' && rendered.router !== null;
}
