import { render } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { DocumentTitle } from './document-title';

const titles = () => [...document.querySelectorAll('title')].map((title) => title.textContent);

describe('the document title', () => {
  afterEach(() => {
    for (const title of document.querySelectorAll('title')) title.remove();
  });

  it("is one element whatever names it: the server's, kept and renamed", () => {
    document.head.insertAdjacentHTML('beforeend', '<title data-server-head>Pool party - Hunk Tube</title>');
    const { rerender } = render(
      <>
        <DocumentTitle fallback>Hunk Tube</DocumentTitle>
        <DocumentTitle>Pool party - Hunk Tube</DocumentTitle>
      </>,
    );
    expect(titles()).toEqual(['Pool party - Hunk Tube']);
    rerender(
      <>
        <DocumentTitle fallback>Hunk Tube</DocumentTitle>
        <DocumentTitle>Gym videos</DocumentTitle>
      </>,
    );
    expect(titles()).toEqual(['Gym videos']);
  });

  it("is the page's over the layout's, whichever mounted first, and the layout's once the page names none", () => {
    const { rerender } = render(
      <>
        <DocumentTitle>Terms of service</DocumentTitle>
        <DocumentTitle fallback>Hunk Tube</DocumentTitle>
      </>,
    );
    expect(titles()).toEqual(['Terms of service']);
    rerender(<DocumentTitle fallback>Hunk Tube</DocumentTitle>);
    expect(titles()).toEqual(['Hunk Tube']);
  });

  it('is made when the document has none, and left to the last page named when a page leaves', () => {
    const { unmount } = render(<DocumentTitle>Log in</DocumentTitle>);
    expect(titles()).toEqual(['Log in']);
    unmount();
    expect(titles()).toEqual(['Log in']);
  });
});
