import { render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { makeVideo } from '@/testing/data';
import { FIRST_ROW, VideoGrid } from './video-grid';

function renderGrid(first: boolean) {
  const videos = Array.from({ length: 8 }, (_, i) => makeVideo({ id: i + 1, title: `Video ${i + 1}`, thumbnail: `/thumbs/${i + 1}/poster.jpg` }));
  const router = createMemoryRouter([{ path: '/', element: <VideoGrid videos={videos} first={first} /> }]);
  const { container } = render(<RouterProvider router={router} />);
  return [...container.querySelectorAll('img')];
}

describe('the images of a grid of cards', () => {
  it('loads the first row of a grid at the top of its page at once, the first image first, and the rest lazily', () => {
    const images = renderGrid(true);
    expect(screen.getAllByRole('article')).toHaveLength(8);
    expect(images.map((img) => img.getAttribute('loading'))).toEqual([
      ...Array(FIRST_ROW).fill('eager'),
      ...Array(8 - FIRST_ROW).fill('lazy'),
    ]);
    expect(images.map((img) => img.getAttribute('fetchpriority'))).toEqual(['high', ...Array(7).fill(null)]);
  });

  it('loads every image lazily in a grid further down (related videos, lists)', () => {
    const images = renderGrid(false);
    expect(images.every((img) => img.getAttribute('loading') === 'lazy' && !img.hasAttribute('fetchpriority'))).toBe(true);
  });
});
