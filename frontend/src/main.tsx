import { StrictMode, startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { App, startHydration } from './app/app';
import { readBootstrap } from './lib/bootstrap';
import { yieldToMain } from './lib/yield-to-main';
import './app/styles.css';

performance.mark('hunktube:app');
const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

const bootstrap = readBootstrap();
if (bootstrap.rendered && root.firstElementChild) {
  // The server rendered this page (docs/web-client.md › "Server rendering"): React takes over its HTML.
  const { rendered } = bootstrap;
  // Three tasks rather than one: the modules' evaluation, the router's and the query cache's start, then the
  // hydration, hydrated as a transition so that React yields to the browser every few milliseconds instead of
  // holding the main thread for the whole page (docs/web-client.md › "Server rendering" and "Boot work").
  void (async () => {
    await yieldToMain();
    const start = await startHydration({ ...bootstrap, rendered });
    await yieldToMain();
    startTransition(() => {
      hydrateRoot(
        root,
        <StrictMode>
          <App start={start} />
        </StrictMode>,
      );
    });
  })();
} else {
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}
