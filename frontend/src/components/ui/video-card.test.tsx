import { act, fireEvent, render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { makeVideo } from '@/testing/data';
import { HOVER_DELAY_MS, LONG_PRESS_MS } from './hover-preview';
import { VideoCard } from './video-card';

function renderCard(video = makeVideo({ id: 3, title: 'Pool party', preview: '/thumbs/2024/06/pool-party/preview.mp4' })) {
  const router = createMemoryRouter(
    [
      { path: '/', element: <VideoCard video={video} imageHost="https://img.example.com" /> },
      { path: '/video/:id', element: <p>Watch page</p> },
    ],
    { initialEntries: ['/'] },
  );
  render(<RouterProvider router={router} />);
  return { card: screen.getByRole('article'), router };
}

const preview = () => screen.queryByTestId('hover-preview');

describe('the hover preview of a card', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    window.matchMedia = vi.fn().mockReturnValue({ matches: false }) as unknown as typeof window.matchMedia;
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('plays the muted clip from the image host after the mouse rests on the card, and stops when it leaves', () => {
    const { card } = renderCard();

    fireEvent.pointerEnter(card, { pointerType: 'mouse' });
    act(() => vi.advanceTimersByTime(HOVER_DELAY_MS - 1));
    expect(preview()).toBeNull();
    act(() => vi.advanceTimersByTime(1));

    const clip = preview() as HTMLVideoElement;
    expect(clip).toHaveAttribute('src', 'https://img.example.com/thumbs/2024/06/pool-party/preview.mp4');
    expect(clip.muted).toBe(true);
    expect(clip).toHaveAttribute('aria-hidden', 'true');
    // Shown only once it really plays, so a slow clip never blanks the thumbnail.
    expect(clip).not.toHaveClass('thumbnail__preview--playing');
    fireEvent.playing(clip);
    expect(clip).toHaveClass('thumbnail__preview--playing');

    fireEvent.pointerLeave(card, { pointerType: 'mouse' });
    expect(preview()).toBeNull();
  });

  it('starts when a card appeared under a resting pointer and the pointer then moves over it', () => {
    const { card } = renderCard();
    fireEvent.pointerMove(card, { pointerType: 'mouse' });
    fireEvent.pointerMove(card, { pointerType: 'mouse' });
    act(() => vi.advanceTimersByTime(HOVER_DELAY_MS));
    expect(preview()).not.toBeNull();
  });

  it('starts nothing when the pointer only passes over the card', () => {
    const { card } = renderCard();
    fireEvent.pointerEnter(card, { pointerType: 'mouse' });
    act(() => vi.advanceTimersByTime(100));
    fireEvent.pointerLeave(card, { pointerType: 'mouse' });
    act(() => vi.advanceTimersByTime(1000));
    expect(preview()).toBeNull();
  });

  it('previews on a long press of a finger instead of opening the video', () => {
    const { card, router } = renderCard();
    const link = screen.getByRole('link', { name: 'Pool party' });

    fireEvent.pointerDown(card, { pointerType: 'touch' });
    act(() => vi.advanceTimersByTime(LONG_PRESS_MS));
    expect(preview()).not.toBeNull();
    fireEvent.pointerUp(card, { pointerType: 'touch' });
    fireEvent.click(link);
    expect(router.state.location.pathname).toBe('/');

    // The next tap opens the video as usual.
    fireEvent.pointerDown(card, { pointerType: 'touch' });
    fireEvent.pointerUp(card, { pointerType: 'touch' });
    fireEvent.click(link);
    expect(router.state.location.pathname).toBe('/video/3');
  });

  it('opens the video on a short tap without previewing', () => {
    const { card, router } = renderCard();
    fireEvent.pointerDown(card, { pointerType: 'touch' });
    act(() => vi.advanceTimersByTime(100));
    fireEvent.pointerUp(card, { pointerType: 'touch' });
    act(() => vi.advanceTimersByTime(1000));
    expect(preview()).toBeNull();
    fireEvent.click(screen.getByRole('link', { name: 'Pool party' }));
    expect(router.state.location.pathname).toBe('/video/3');
  });

  it('plays nothing for a visitor who asks for reduced motion', () => {
    window.matchMedia = vi.fn().mockReturnValue({ matches: true }) as unknown as typeof window.matchMedia;
    const { card } = renderCard();
    fireEvent.pointerEnter(card, { pointerType: 'mouse' });
    act(() => vi.advanceTimersByTime(1000));
    expect(preview()).toBeNull();
  });

  it('has nothing to play for a video without a clip', () => {
    const { card } = renderCard(makeVideo({ title: 'No clip', preview: null }));
    fireEvent.pointerEnter(card, { pointerType: 'mouse' });
    act(() => vi.advanceTimersByTime(1000));
    expect(preview()).toBeNull();
  });
});

describe('the picture of a card', () => {
  it('offers a stored thumbnail’s WebP copies at the widths cards show, with the original as the fallback', () => {
    const { card } = renderCard(makeVideo({ id: 4, thumbnail: '/thumbs/2024/06/pool-party/poster.jpg' }));
    const source = card.querySelector('picture > source') as HTMLSourceElement;
    expect(source).toHaveAttribute('type', 'image/webp');
    expect(source.getAttribute('srcset')).toBe(
      [320, 640, 960, 1280].map((w) => `https://img.example.com/thumbs/2024/06/pool-party/poster.jpg.${w}w.webp ${w}w`).join(', '),
    );
    expect(source.getAttribute('sizes')).toMatch(/^\(max-width: 560px\) 100vw, .*, 320px$/);
    expect(card.querySelector('picture > img')).toHaveAttribute('src', 'https://img.example.com/thumbs/2024/06/pool-party/poster.jpg');
  });

  it('takes a thumbnail given as a URL on the image host as stored too', () => {
    const { card } = renderCard(makeVideo({ id: 5, thumbnail: 'https://img.example.com/thumbs/x/cover.png' }));
    expect(card.querySelector('source')?.getAttribute('srcset')).toContain('https://img.example.com/thumbs/x/cover.png.320w.webp 320w');
  });

  it('shows another site’s image as it is, with no copies', () => {
    const { card } = renderCard(makeVideo({ id: 6, thumbnail: 'https://elsewhere.example/pics/p.jpg' }));
    expect(card.querySelector('picture')).toBeNull();
    expect(card.querySelector('img')).toHaveAttribute('src', 'https://elsewhere.example/pics/p.jpg');
    expect(card.querySelector('img')).not.toHaveAttribute('srcset');
  });
});
