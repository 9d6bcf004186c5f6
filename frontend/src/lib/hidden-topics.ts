import { type ExcludedTopics, formatExclude, HIDDEN_TOPICS_COOKIE, parseExclude } from '@hunktube/shared';
import { type QueryClient, queryOptions, useQuery } from '@tanstack/react-query';
import type { User } from './api/types';
import { USER_QUERY_KEY, useSessionUser } from './session';

/*
 * What a visitor's reads leave out (docs/decisions.md › "Hidden topics"). A member's hidden topics are kept by
 * the API, which leaves them out of every listing, the related row, the cards and Continue watching by itself;
 * a guest's are kept in this browser, in the `hidden_topics` cookie (`exclude`'s syntax), and sent as `exclude`
 * with those reads. The server's render reads the same cookie (backend/src/web/pages.service.ts) and draws the
 * page with the same reads (entry-server.tsx seeds the value below), so that the browser hydrates it unchanged.
 */

/** Nothing hidden. */
export const NO_TOPICS: ExcludedTopics = { categories: [], performers: [], tags: [] };

/** Kept a year, as the 18+ gate's answer. */
const COOKIE_MAX_AGE = 365 * 24 * 3600;

/**
 * The guest's list as `exclude`'s canonical value (formatExclude), read from the cookie as the server reads it:
 * '' for none, and for a value that is not such a list.
 */
export function readHiddenCookie(cookies: string = typeof document === 'undefined' ? '' : document.cookie): string {
  for (const part of cookies.split(/;\s*/)) {
    const eq = part.indexOf('=');
    if (eq < 0 || part.slice(0, eq) !== HIDDEN_TOPICS_COOKIE) continue;
    let value: string;
    try {
      value = decodeURIComponent(part.slice(eq + 1));
    } catch {
      return '';
    }
    const topics = parseExclude(value);
    return topics ? formatExclude(topics) : '';
  }
  return '';
}

/** Keeps the guest's list in the cookie (path /, a year, SameSite=Lax; the client writes it, so not httpOnly); '' removes it. */
export function writeHiddenCookie(value: string): void {
  try {
    document.cookie = value
      ? `${HIDDEN_TOPICS_COOKIE}=${encodeURIComponent(value)}; Path=/; Max-Age=${COOKIE_MAX_AGE}; SameSite=Lax`
      : `${HIDDEN_TOPICS_COOKIE}=; Path=/; Max-Age=0; SameSite=Lax`;
  } catch {
    // Cookies refused: the list lasts as long as the page.
  }
}

/**
 * The guest's list under ['hidden-topics', 'guest'], as `exclude`'s value: in the query cache rather than a module
 * variable, so that each page the server renders has its own (its request's, seeded by entry-server.tsx).
 */
export const GUEST_HIDDEN_KEY = ['hidden-topics', 'guest'] as const;

export const guestHiddenQueryOptions = () =>
  queryOptions({
    queryKey: GUEST_HIDDEN_KEY,
    // In the browser, the cookie, read at the first use (as the server read it for the page it rendered).
    queryFn: () => readHiddenCookie(),
    initialData: () => readHiddenCookie(),
    staleTime: Infinity,
  });

/** The server's render: the page's guest list (its request's cookie, canonical; '' for a member). */
export const seedGuestHidden = (queryClient: QueryClient, value: string) => queryClient.setQueryData(GUEST_HIDDEN_KEY, value);

/** A guest changed their list: kept in the cookie, and every read that carries it is asked again under its new key. */
export function setGuestHidden(queryClient: QueryClient, value: string): void {
  writeHiddenCookie(value);
  queryClient.setQueryData(GUEST_HIDDEN_KEY, value);
}

/** What the reads carry as `exclude`: a guest's list; nothing for a member (the API applies theirs). */
const excludeFor = (user: User | null | undefined, guest: string | undefined): string => (user ? '' : (guest ?? ''));

/**
 * The `exclude` value the listings, the related row and the guest's cards read with (in their query keys, so
 * that a change reads them again): the guest's hidden topics, '' for a member. Until the session is known, the
 * guest's (a member's reads are then made again without it, once).
 */
export function useHiddenExclude(): string {
  const user = useSessionUser();
  const guest = useQuery(guestHiddenQueryOptions()).data;
  return excludeFor(user, guest);
}

/** The same outside a component (the server's head reads the listing's first card as its grid will). */
export function hiddenExcludeOf(queryClient: QueryClient): string {
  const guest = queryClient.getQueryData<string>(GUEST_HIDDEN_KEY) ?? readHiddenCookie();
  return excludeFor(queryClient.getQueryData<User | null>(USER_QUERY_KEY), guest);
}

/** Two `exclude` values as one (a page's own and the visitor's hidden topics); either may be empty. */
export function mergeExclude(own: string | undefined, hidden: string): string {
  if (!own) return hidden;
  if (!hidden) return own;
  const a = parseExclude(own);
  const b = parseExclude(hidden);
  // Not a list: sent as it is, for the API to refuse as it would alone.
  if (!a || !b) return `${own},${hidden}`;
  return formatExclude({ categories: [...a.categories, ...b.categories], performers: [...a.performers, ...b.performers], tags: [...a.tags, ...b.tags] });
}
