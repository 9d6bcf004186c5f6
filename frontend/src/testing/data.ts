import type { Paginated, Site, VideoCard } from '@/lib/api/types';

export function makeSite(overrides: Partial<Site> = {}): Site {
  return {
    name: 'Test Tube',
    brand: 'default',
    mediaHosts: { '1': 'https://media1.example.com', default: 'https://media.example.com' },
    imageHost: 'https://img.example.com',
    ...overrides,
  };
}

let nextId = 1;

export function makeVideo(overrides: Partial<VideoCard> = {}): VideoCard {
  const id = overrides.id ?? nextId++;
  return {
    id,
    slug: `video-${id}`,
    title: `Video ${id}`,
    atg_title: null,
    jtg_title: null,
    thumbnail: `/thumbs/2024/06/video-${id}/poster.jpg`,
    preview: null,
    views: 0,
    likes: 0,
    featured: false,
    duration: 60,
    upload_date: '2024-06-01T12:00:00.000Z',
    cdn: '1',
    url: `/2024/06/video-${id}.mp4`,
    ...overrides,
  };
}

export function makePage<T>(data: T[], overrides: Partial<Omit<Paginated<T>, 'data'>> = {}): Paginated<T> {
  return { data, page: 1, limit: 24, total: data.length, ...overrides };
}
