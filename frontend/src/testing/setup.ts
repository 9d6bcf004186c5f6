import '@testing-library/jest-dom/vitest';
import { configure } from '@testing-library/react';
import { AGE_CONFIRMED_KEY } from '@/lib/storage';
import { recordRequestBodies } from './mock-fetch';

// findBy* and waitFor wait up to 1 s by default; a 2-core CI machine running other suites can be slower than that.
configure({ asyncUtilTimeout: 5000 });

// Node-environment suites (the generated-types check) load this file too.
if (typeof window !== 'undefined') {
  recordRequestBodies();
  // jsdom does not implement scrolling; the router's scroll restoration calls it on every navigation.
  window.scrollTo = () => {};
  // jsdom has no media playback: play() answers like a browser that starts playing, pause() likewise.
  Object.defineProperty(HTMLMediaElement.prototype, 'play', {
    configurable: true,
    value(this: HTMLMediaElement) {
      this.dispatchEvent(new Event('play'));
      return Promise.resolve();
    },
  });
  Object.defineProperty(HTMLMediaElement.prototype, 'pause', {
    configurable: true,
    value(this: HTMLMediaElement) {
      this.dispatchEvent(new Event('pause'));
    },
  });
  Object.defineProperty(HTMLMediaElement.prototype, 'load', { configurable: true, value() {} });
  // jsdom has storage but keeps it across tests of a file; every test starts with none, except the 18+ gate's
  // answer: pages are tested as a visitor who has already confirmed their age (the gate has tests of its own).
  beforeEach(() => {
    window.localStorage.clear();
    window.sessionStorage.clear();
    window.localStorage.setItem(AGE_CONFIRMED_KEY, 'true');
    // Nor cookies (a guest's hidden topics).
    for (const cookie of document.cookie.split(/;\s*/).filter(Boolean)) document.cookie = `${cookie.split('=')[0]}=; Path=/; Max-Age=0`;
    // Each test starts with a head as a page's: without an earlier test's title or the server's elements.
    for (const element of document.head.querySelectorAll('title, [data-server-head]')) element.remove();
  });
}
