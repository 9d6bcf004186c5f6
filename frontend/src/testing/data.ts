import type { Paginated, PlaylistSummary, Site, User, Video, VideoCard } from '@/lib/api/types';

export function makeSite(overrides: Partial<Site> = {}): Site {
  return {
    name: 'Test Tube',
    brand: 'default',
    mediaHosts: { '1': 'https://media1.example.com', default: 'https://media.example.com' },
    imageHost: 'https://img.example.com',
    // The site's configured origin, as the API names it: another than the page's (jsdom's), as on a site whose
    // visitor typed another host.
    origin: 'https://test-tube.example',
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
    atg_title: '',
    jtg_title: '',
    thumbnail: `/thumbs/2024/06/video-${id}/poster.jpg`,
    preview: null,
    views: 0,
    likes: 0,
    featured: 0,
    duration: 60,
    upload_date: '2024-06-01T12:00:00.000Z',
    cdn: 1,
    url: `/2024/06/video-${id}.mp4`,
    ...overrides,
  };
}

export function makePage<T>(data: T[], overrides: Partial<Omit<Paginated<T>, 'data'>> = {}): Paginated<T> {
  return { data, page: 1, limit: 24, total: data.length, ...overrides };
}

/** A video as GET /api/videos/{id} answers it. */
export function makeWatchVideo(overrides: Partial<Video> = {}): Video {
  const card = makeVideo(overrides);
  const stem = card.url.replace(/^\//, '').replace(/\.[^.]+$/, '');
  return {
    categories: [],
    performers: [],
    tags: [],
    chapters: [],
    captions: [],
    stream_path: `/videos/${stem}/index.m3u8`,
    poster: `/thumbs/${stem}/poster.jpg`,
    storyboard: null,
    ...card,
    ...overrides,
  };
}

export function makeUser(overrides: Partial<User> = {}, metadata: Partial<User['user_metadata']> = {}): User {
  return {
    id: '8d3c5a52-4e6f-4f7b-9a51-2f7f0a2b9c11',
    email: 'sam@example.com',
    ...overrides,
    user_metadata: { display_name: 'Sam', role_id: 'member', ...metadata },
  };
}

export function makePlaylist(overrides: Partial<PlaylistSummary> = {}): PlaylistSummary {
  const id = overrides.playlist_id ?? nextId++;
  return {
    playlist_id: id,
    title: `Playlist ${id}`,
    user_id: makeUser().id,
    video_count: 1,
    thumbnail: null,
    ...overrides,
  };
}
