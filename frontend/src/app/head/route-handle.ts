import type { PageHead } from './document';

/**
 * What the route table says of a route for its document (React Router's `handle`, app/router.tsx): its head and
 * whether the server draws it. Names and plain values only: the code that writes heads (page-heads.ts) is the
 * server's render's, and stays out of the browser's scripts.
 */
export interface RouteHandle {
  /** A head written from the page's data (page-heads.ts › HEADS), or a fixed one (the title defaults to the site's name). */
  head?: HeadName | FixedHead;
  /**
   * Drawn on the server as well as its head: the modules of the web client that draw it (their style sheets go
   * in the head, their scripts on the page's first script); absent for pages the browser draws.
   */
  draws?: string[];
}

export type HeadName = 'watch' | 'embed' | 'home' | 'search' | 'categories' | 'performers' | 'tags' | 'category' | 'performer' | 'tag';

export type FixedHead = Omit<PageHead, 'title'> & { title?: string };
