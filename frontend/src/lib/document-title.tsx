import { useLayoutEffect } from 'react';

/**
 * The document's one `<DocumentTitle>`. React 19 would hoist every `<DocumentTitle>` it renders into the head beside the one the
 * server wrote (the layout's, the page's and the server's: two or three titles after hydration), so pages name
 * their title here instead and `document.title` changes the text of the one element there is: the server's,
 * index.html's, or one the browser adds when there is none. A page's title wins over the layout's fallback (the
 * site's name); the texts are the pages' own (lib/page-titles.ts), which the server's render writes in the head too.
 */
interface Entry {
  text: string;
  fallback: boolean;
}

const mounted: Entry[] = [];

function show(): void {
  const entry = mounted.findLast((candidate) => !candidate.fallback) ?? mounted.findLast((candidate) => candidate.fallback);
  if (entry && document.title !== entry.text) document.title = entry.text;
}

/** Names the document; `fallback` for the layout's title, shown while no page names one. Renders nothing. */
export function DocumentTitle({ children, fallback = false }: { children: string; fallback?: boolean }) {
  // Before paint, in the same commit as the page (as React's own <DocumentTitle> was).
  useLayoutEffect(() => {
    const entry = { text: children, fallback };
    mounted.push(entry);
    show();
    return () => {
      mounted.splice(mounted.indexOf(entry), 1);
      show();
    };
  }, [children, fallback]);
  return null;
}
