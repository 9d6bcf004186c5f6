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
/** Extra category names: the long tail of small, specific categories a real tube site grows. */
const TAIL_CATEGORY_NAMES = [
  'Aussie', 'Bathhouse', 'Bikers', 'Blue Collar', 'British', 'Campus', 'Car Wash', 'Chubby', 'Circus',
  'Construction', 'Cosplay', 'Dancers', 'Doctor', 'Dorm', 'European', 'Farm', 'Festival', 'Fitness Models',
  'Footballers', 'Gingers', 'Glasses', 'Gymnasts', 'Hiking', 'Hot Tub', 'Ice Hockey', 'Jeans', 'Karaoke',
  'Lifeguards', 'Lumberjacks', 'Mechanics', 'Mountain Cabin', 'Nerds', 'Night Club', 'Nordic', 'Painters',
  'Pilots', 'Plumbers', 'Police', 'Rainy Day', 'Retro', 'Rodeo', 'Sailors', 'Skaters', 'Ski Lodge', 'Soccer',
  'Spa', 'Surfers', 'Swimmers', 'Tennis', 'Trainers', 'Truckers', 'Twins', 'Underwear', 'Vacation',
  'Volleyball', 'Waiters', 'Webcam', 'Wedding', 'Yoga', 'Boxing', 'Climbing', 'Cyclists', 'Divers',
  'Golf', 'Lab Coats', 'Librarians', 'Marathon', 'Mustache', 'Neighbours', 'Pizza Delivery', 'Rooftop',
  'Scuba', 'Sports Bar', 'Stadium', 'Studio', 'Tailors', 'Tattoo Parlour', 'Train Ride', 'Tuxedo', 'Zoo Keepers',
];

/** Tag names: the free-form keywords admins add beside categories, from broad (many videos) to specific. */
const TAG_NAMES = [
  'Muscle', 'Hairy', 'Smooth', 'Beard', 'Tattoos', 'Abs', 'Big Dick', 'Kissing', 'Romantic', 'Rough', 'Sweaty',
  'Oiled', 'Piercings', 'Ginger', 'Blond', 'Tall', 'Short', 'Older Younger', 'First Time', 'Couple', 'Group',
  'Toys', 'Feet', 'Underwear', 'Jockstrap', 'Socks', 'Boots', 'Suits', 'Sneakers', 'Hotel', 'Kitchen', 'Bedroom',
  'Garage', 'Sauna', 'Beach', 'Forest', 'Rooftop', 'Night', 'Rain', 'Slow Motion', 'Behind The Scenes', 'Casting',
];


/**
 * Title words, most common first: titles draw them with Zipf weights, so a few words ("hot", "workout") are in a
 * large share of the catalogue and most are rare, as in real titles and real searches.
 */
export const TITLE_WORDS = [
  'Hot', 'Workout', 'Party', 'Sweaty', 'Pool', 'Night', 'Muscle', 'Shower', 'Locker', 'Room', 'Summer', 'Massage',
  'Gym', 'Wild', 'Session', 'Beach', 'Rough', 'Private', 'Steamy', 'Trip', 'Secret', 'First', 'Road', 'Late',
  'Slow', 'Day', 'Weekend', 'Big', 'Boys', 'Hunk', 'Buddies', 'Coach', 'Training', 'Wrestling', 'Match',
  'Cabin', 'Office', 'Hours', 'Ranch', 'Visit', 'Sauna', 'Break', 'Hotel', 'Stay', 'Camping', 'Rooftop',
  'Boat', 'Ride', 'Yoga', 'Class', 'Garage', 'Study', 'Midnight', 'Tender', 'Intense', 'Sudden', 'Endless',
  'Naughty', 'Rainy', 'Lazy', 'Sunlit', 'Morning', 'Afternoon', 'Evening', 'Dorm', 'Roommate', 'Neighbour',
  'Stranger', 'Lesson', 'Audition', 'Interview', 'Reunion', 'Vacation', 'Holiday', 'Getaway', 'Adventure',
  'Highway', 'Desert', 'Forest', 'Lake', 'River', 'Island', 'Mountain', 'Valley', 'Barn', 'Stable', 'Kitchen',
  'Backyard', 'Balcony', 'Basement', 'Attic', 'Porch', 'Patio', 'Terrace', 'Penthouse', 'Loft', 'Studio',
  'Warehouse', 'Workshop', 'Library', 'Classroom', 'Campus', 'Stadium', 'Arena', 'Court', 'Field', 'Track',
  'Marathon', 'Sprint', 'Relay', 'Rematch', 'Rivals', 'Partners', 'Teammates', 'Captain', 'Rookie', 'Veteran',
  'Bodybuilder', 'Lifeguard', 'Fireman', 'Sailor', 'Soldier', 'Trucker', 'Cowboy', 'Plumber', 'Mechanic',
  'Painter', 'Carpenter', 'Electrician', 'Bartender', 'Waiter', 'Chef', 'Doctor', 'Nurse', 'Pilot', 'Surfer',
  'Skater', 'Climber', 'Boxer', 'Swimmer', 'Diver', 'Cyclist', 'Golfer', 'Tennis', 'Rugby', 'Soccer',
  'Hockey', 'Volleyball', 'Baseball', 'Football', 'Basketball', 'Oil', 'Foam', 'Bubble', 'Steam', 'Sunset',
  'Sunrise', 'Moonlight', 'Thunder', 'Storm', 'Heatwave', 'Blizzard', 'Snow', 'Ice', 'Fire', 'Candle',
  'Velvet', 'Leather', 'Denim', 'Silk', 'Lace', 'Uniform', 'Jersey', 'Towel', 'Robe', 'Boots', 'Hardhat',
  'Toolbelt', 'Whistle', 'Stopwatch', 'Trophy', 'Medal', 'Champion', 'Underdog', 'Bet', 'Dare', 'Prank',
  'Favour', 'Bargain', 'Deal', 'Surprise', 'Gift', 'Birthday', 'Anniversary', 'Wedding', 'Honeymoon',
  'Farewell', 'Homecoming', 'Graduation', 'Initiation', 'Tryout', 'Casting', 'Rehearsal', 'Backstage',
  'Encore', 'Finale', 'Prologue', 'Chapter', 'Episode', 'Sequel', 'Remix', 'Director', 'Uncensored',
  'Vintage', 'Retro', 'Classic', 'Legendary', 'Infamous', 'Notorious', 'Mysterious', 'Curious', 'Shy',
  'Bold', 'Cheeky', 'Playful', 'Flirty', 'Charming', 'Rugged', 'Bearded', 'Tattooed', 'Pierced', 'Tanned',
  'Freckled', 'Blond', 'Ginger', 'Silver', 'Golden', 'Crimson', 'Emerald', 'Sapphire', 'Obsidian', 'Ivory',
  'Zephyr', 'Quasar', 'Nebula', 'Odyssey', 'Labyrinth', 'Kaleidoscope', 'Serendipity', 'Quixotic',
];
const BRAND_PREFIX = ['Exclusive:', 'Must-See:', 'New:', 'Uncut:', 'Fan Favourite:'];

/**
 * Draws indexes 0..n-1 with Zipf–Mandelbrot weights 1 / (i + 1 + shift)^exponent: index 0 most often. The
 * shift flattens the head (no single performer owns a tenth of the catalogue), the exponent sets the tail.
 */
export function zipfSampler(random: () => number, n: number, exponent = 1, shift = 0): () => number {
  const cumulative = new Float64Array(n);
  let sum = 0;
  for (let i = 0; i < n; i++) cumulative[i] = sum += 1 / Math.pow(i + 1 + shift, exponent);
  return () => {
    const target = random() * sum;
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (cumulative[mid] < target) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
}

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
  /** The tallest rendition's height in lines (480 to 2160): about 3 in 4 HD, 1 in 20 4K. */
  renditionHeight: number;
  uploadDate: Date;
  cdn: number;
  categoryIds: string[];
  performerIds: string[];
  tagIds: string[];
  /** Views per day over the last week, today first (empty for videos nobody watched lately). */
  recentDailyViews: number[];
}

export interface GeneratedCatalog {
  categories: { id: string; name: string }[];
  performers: { id: string; name: string }[];
  tags: { id: string; name: string }[];
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
 * Synthetic catalogue metadata with the shapes real tube catalogues have, so that benchmarks over it mean
 * something: title words by Zipf (a handful of words in a large share of the titles, most words rare);
 * 120 categories by Zipf (the biggest in about a third of the videos, the smallest in a few hundredths of a
 * percent); performers by a flattened Zipf (the busiest in about 1% of the videos, most in a handful);
 * heavy-tailed views (log-normal) with likes a few percent of them; durations around 8 minutes with ~5%
 * unknown; uploads over eight years, denser in recent months; ~3% without a category, ~6% without a performer;
 * 0 to 5 tags by Zipf (drawn from a generator of their own, so that a seed's other draws stay as they were).
 */
export function generateCatalog(options: GenerateOptions): GeneratedCatalog {
  const random = rng(options.seed ?? 42);
  const now = (options.now ?? new Date()).getTime();
  const gauss = () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)];

  const categories = [...CATEGORY_NAMES, ...TAIL_CATEGORY_NAMES].map((name) => ({ id: slugify(name), name }));
  const performerCount = Math.max(12, Math.min(40_000, Math.round(options.videos / 25)));
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
  const word = zipfSampler(random, TITLE_WORDS.length, 1.05);
  const category = zipfSampler(random, categories.length, 1.2);
  const performer = zipfSampler(random, performers.length, 1, 30);
  const tags = TAG_NAMES.map((name) => ({ id: slugify(name), name }));
  const tagRandom = rng((options.seed ?? 42) + 1);
  const tagOf = zipfSampler(tagRandom, tags.length, 1.1);

  const tag = options.slugTag ? `-${options.slugTag}` : '';
  const videos: GeneratedVideo[] = [];
  const eightYears = 8 * 365 * 86_400_000;
  for (let i = 0; i < options.videos; i++) {
    const words = Array.from({ length: 2 + Math.floor(random() * 3) }, () => TITLE_WORDS[word()]);
    const title = `${unique(words).join(' ')}${random() < 0.4 ? ` with ${pick(FIRST)}` : ''}`;
    const slug = `${slugify(title, 80)}${tag}-${i + 1}`;
    const uploadDate = new Date(now - Math.pow(random(), 2) * eightYears);
    const views = Math.min(50_000_000, Math.floor(Math.exp(7 + 1.8 * gauss())));
    const likes = Math.floor(views * (0.005 + random() * 0.045));
    const duration = random() < 0.05 ? null : Math.max(30, Math.min(7200, Math.round(Math.exp(6.2 + 0.6 * gauss()))));
    const month = String(uploadDate.getUTCMonth() + 1).padStart(2, '0');
    const categoryIds = random() < 0.03 ? [] : unique(Array.from({ length: 1 + Math.floor(random() * 4) }, () => categories[category()].id));
    const performerIds = random() < 0.06 ? [] : unique(Array.from({ length: 1 + Math.floor(random() * 3) }, () => performers[performer()].id));
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
      // By position rather than drawn, so that every other draw of a seed stays as it was.
      renditionHeight: RENDITION_HEIGHTS[i % RENDITION_HEIGHTS.length],
      uploadDate,
      cdn: random() < 0.6 ? 1 : random() < 0.9 ? 2 : 3,
      categoryIds,
      performerIds,
      tagIds: unique(Array.from({ length: Math.floor(tagRandom() * 6) }, () => tags[tagOf()].id)),
      // About a third of the catalogue was watched this week, newer uploads more than old ones.
      recentDailyViews:
        random() < (now - uploadDate.getTime() < 30 * 86_400_000 ? 0.9 : 0.3)
          ? Array.from({ length: 7 }, () => Math.floor(views * 0.01 * random()))
          : [],
    });
  }
  return { categories, performers, tags, videos };
}

/** Tallest renditions of a generated catalogue, one per video in turn: 15% below HD, 80% HD, 5% 4K. */
const RENDITION_HEIGHTS = [480, 720, 1080, 720, 360, 1080, 720, 1080, 720, 480, 1080, 720, 1080, 720, 1080, 720, 480, 1080, 720, 2160];

function unique<T>(values: T[]): T[] {
  return [...new Set(values)];
}
