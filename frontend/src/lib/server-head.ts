/**
 * The head the server's render wrote for the page it was asked for (docs/web-client.md › "One author per page"):
 * title, description, canonical URL, Open Graph, JSON-LD, each element marked `data-server-head`.
 * They describe that address only: the first navigation to another path removes them, and until then the
 * pages skip what the server already says (the watch page's JSON-LD), so that no two disagree.
 */
export const SERVER_HEAD_ATTRIBUTE = 'data-server-head';
const SELECTOR = `[${SERVER_HEAD_ATTRIBUTE}]`;

let describedPath: string | null = null;

/** The part of React Router's data router this needs. */
interface Navigations {
  state: { location: { pathname: string } };
  subscribe(listener: (state: { location: { pathname: string } }) => void): () => void;
}

/** Starts following the router: the server's head holds for the path the app started at, until it moves. */
export function trackServerHead(router: Navigations): void {
  describedPath = document.querySelector(SELECTOR) ? router.state.location.pathname : null;
  if (describedPath === null) return;
  const unsubscribe = router.subscribe((state) => {
    if (state.location.pathname === describedPath) return;
    for (const element of document.querySelectorAll(SELECTOR)) {
      // The one <title> stays: DocumentTitle keeps its text (lib/document-title.tsx).
      if (element.tagName === 'TITLE') element.removeAttribute(SERVER_HEAD_ATTRIBUTE);
      else element.remove();
    }
    describedPath = null;
    unsubscribe();
  });
}

/** Whether the server's head describes this path (so a page need not add what it says). */
export function serverHeadDescribes(pathname: string): boolean {
  // Rendering on the server (entry-server.tsx): the document's head is written from the route table.
  if (typeof document === 'undefined') return true;
  return describedPath === pathname;
}
