import { slugify } from '@hunktube/shared';

/** A small, fast, seedable PRNG (mulberry32): the same seed gives the same catalogue. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const CATEGORY_NAMES = [
  'Amateur', 'Athletes', 'Bareback', 'Bears', 'Big Muscle Men', 'Bodybuilders', 'Daddies', 'Interracial',
  'Jocks', 'Latino', 'Leather', 'Locker Room', 'Massage', 'Military', 'Outdoor', 'Pool Party', 'POV',
  'Rugby', 'Shower', 'Solo', 'Stripping', 'Tattooed', 'Threesome', 'Uniform', 'Vintage', 'Workout',
  'Wrestling', 'Hairy', 'Smooth', 'Beach', 'Cowboys', 'Firemen', 'Office', 'Road Trip', 'Sauna',
  'Couples', 'Group', 'Kissing', 'Behind the Scenes', 'Casting',
];
const FIRST = [
  'Alex', 'Marco', 'Dante', 'Jake', 'Liam', 'Mateo', 'Rafael', 'Tyler', 'Bruno', 'Cody', 'Diego', 'Ethan',
  'Felix', 'Gabe', 'Hugo', 'Isaac', 'Jonah', 'Kai', 'Leo', 'Milo', 'Nico', 'Owen', 'Pablo', 'Quinn', 'Ryan',
  'Sergio', 'Theo', 'Víctor', 'Wes', 'Xavier', 'Yusuf', 'Zane', 'André', 'Björn', 'Chase', 'Dmitri',
];
const LAST = [
  'Steel', 'Rivers', 'Stone', 'Cruz', 'Knight', 'Blake', 'Hunter', 'Fox', 'Wolfe', 'Santos', 'Cole', 'Reyes',
  'Black', 'Banks', 'Ford', 'Grant', 'Hayes', 'Lane', 'Mason', 'North', 'Price', 'Rhodes', 'Shaw', 'Vega',
  'West', 'Young', 'Moreau', 'Novak', 'Okafor', 'Petrov', 'Quintana', 'Larsen',
];
const ADJECTIVES = [
  'Sweaty', 'Late-Night', 'Sunlit', 'Rough', 'Slow', 'Steamy', 'Secret', 'Wild', 'Lazy', 'Hot', 'Summer',
  'Midnight', 'First', 'Private', 'Tender', 'Intense', 'Sudden', 'Endless', 'Naughty', 'Rainy',
];
const SCENES = [
  'Workout', 'Pool Party', 'Road Trip', 'Locker Room', 'Massage', 'Shower', 'Wrestling Match', 'Cabin Weekend',
  'Beach Day', 'Office Hours', 'Ranch Visit', 'Gym Session', 'Sauna Break', 'Hotel Stay', 'Camping Trip',
  'Rooftop Party', 'Boat Ride', 'Yoga Class', 'Garage Fix', 'Study Night',
];
const BRAND_PREFIX = ['Exclusive:', 'Must-See:', 'New:', 'Uncut:', 'Fan Favourite:'];

export interface GeneratedVideo {
  slug: string;
  url: string;
  title: string;
  atgTitle: string;
  jtgTitle: string;
  views: number;
  likes: number;
  featured: number;
  duration: number | null;
  uploadDate: Date;
  cdn: number;
  categoryIds: string[];
  performerIds: string[];
  /** Views per day over the last week, today first (empty for videos nobody watched lately). */
  recentDailyViews: number[];
}

export interface GeneratedCatalog {
  categories: { id: string; name: string }[];
  performers: { id: string; name: string }[];
  videos: GeneratedVideo[];
}

export interface GenerateOptions {
  videos: number;
  seed?: number;
  /** Makes slugs unique across runs that add to the same database. */
  slugTag?: string;
  now?: Date;
}

/**
 * Synthetic catalogue metadata with the shapes real tube catalogues have: heavy-tailed views (log-normal),
 * likes a few percent of views, durations around 8 minutes with ~5% unknown, uploads denser in recent
 * months, popular categories and performers far more common than the rest (Zipf), ~3% without a
 * category and ~6% without a performer.
 */
export function generateCatalog(options: GenerateOptions): GeneratedCatalog {
  const random = rng(options.seed ?? 42);
  const now = (options.now ?? new Date()).getTime();
  const gauss = () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)];
  const zipf = (n: number) => Math.min(n - 1, Math.floor(Math.exp(random() * Math.log(n + 1))) - 1);

  const categories = CATEGORY_NAMES.map((name) => ({ id: slugify(name), name }));
  const performerCount = Math.max(12, Math.min(5000, Math.round(options.videos / 40)));
  const performers: { id: string; name: string }[] = [];
  const seen = new Set<string>();
  for (let i = 0; performers.length < performerCount; i++) {
    const base = `${FIRST[i % FIRST.length]} ${LAST[Math.floor(i / FIRST.length) % LAST.length]}`;
    const name = i < FIRST.length * LAST.length ? base : `${base} ${Math.floor(i / (FIRST.length * LAST.length)) + 1}`;
    const id = slugify(name);
    if (!seen.has(id)) {
      seen.add(id);
      performers.push({ id, name });
    }
  }

  const tag = options.slugTag ? `-${options.slugTag}` : '';
  const videos: GeneratedVideo[] = [];
  const fiveYears = 5 * 365 * 86_400_000;
  for (let i = 0; i < options.videos; i++) {
    const title = `${pick(ADJECTIVES)} ${pick(SCENES)}${random() < 0.4 ? ` with ${pick(FIRST)}` : ''}`;
    const slug = `${slugify(title, 80)}${tag}-${i + 1}`;
    const uploadDate = new Date(now - Math.pow(random(), 2) * fiveYears);
    const views = Math.min(50_000_000, Math.floor(Math.exp(7 + 1.8 * gauss())));
    const likes = Math.floor(views * (0.005 + random() * 0.045));
    const duration = random() < 0.05 ? null : Math.max(30, Math.min(7200, Math.round(Math.exp(6.2 + 0.6 * gauss()))));
    const month = String(uploadDate.getUTCMonth() + 1).padStart(2, '0');
    const categoryIds = random() < 0.03 ? [] : unique(Array.from({ length: 1 + Math.floor(random() * 4) }, () => categories[zipf(categories.length)].id));
    const performerIds = random() < 0.06 ? [] : unique(Array.from({ length: 1 + Math.floor(random() * 3) }, () => performers[zipf(performers.length)].id));
    videos.push({
      slug,
      url: `/${uploadDate.getUTCFullYear()}/${month}/${slug}.mp4`,
      title,
      atgTitle: random() < 0.7 ? `${pick(BRAND_PREFIX)} ${title}` : '',
      jtgTitle: random() < 0.5 ? `${title} (${pick(['HD', 'Full Scene', 'Director’s Cut'])})` : '',
      views,
      likes,
      featured: random() < 0.03 ? 1 + Math.floor(random() * 5) : 0,
      duration,
      uploadDate,
      cdn: random() < 0.6 ? 1 : random() < 0.9 ? 2 : 3,
      categoryIds,
      performerIds,
      // About a third of the catalogue was watched this week, newer uploads more than old ones.
      recentDailyViews:
        random() < (now - uploadDate.getTime() < 30 * 86_400_000 ? 0.9 : 0.3)
          ? Array.from({ length: 7 }, () => Math.floor(views * 0.01 * random()))
          : [],
    });
  }
  return { categories, performers, videos };
}

function unique<T>(values: T[]): T[] {
  return [...new Set(values)];
}
