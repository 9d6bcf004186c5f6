import { StrictMode, startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { App, startHydration } from './app/app';
import { readBootstrap } from './lib/bootstrap';
import './app/styles.css';

performance.mark('hunktube:app');
const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

const bootstrap = readBootstrap();
if (bootstrap.rendered && root.firstElementChild) {
  // The server rendered this page (docs/web-client.md › "Server rendering"): React takes over its HTML.
  const { rendered } = bootstrap;
  // Hydrated as a transition: React then yields to the browser every few milliseconds instead of holding the
  // main thread for the whole page (docs/web-client.md › "Server rendering").
  void startHydration({ ...bootstrap, rendered }).then((start) =>
    startTransition(() => {
      hydrateRoot(
        root,
        <StrictMode>
          <App start={start} />
        </StrictMode>,
      );
    }),
  );
} else {
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}
