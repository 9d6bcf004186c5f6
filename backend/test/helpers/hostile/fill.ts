import type { TestUser } from '../test-app';
import type { Hostile } from './values';
import { resolveSchema, type NamedSchema, type OpenApiDocument, type Operation } from './openapi';

/**
 * Valid values for whatever the document asks: from the schema alone (types, enums, lengths, patterns,
 * formats), except where only the data can say what is valid (an id that exists, the caller's own user id, a
 * password that matches): those come from the hints below, keyed by field name. A route whose valid request
 * cannot be built from these fails the suite with the route named, rather than being skipped.
 */

/** What the suite creates before each route (afresh after every success that may have used it up). */
export interface Fixtures {
  /** Published, with the category and the performer, in no playlist. */
  videoId: number;
  /** Its `/videos/{stem}/index.m3u8`. */
  streamPath: string;
  /** Published, the one video of member A's playlist. */
  playlistVideoId: number;
  /** Member A's. */
  playlistId: number;
  /** Member B's: another member's resource. */
  foreignPlaylistId: number;
  /** Still processing: exists, but the public never sees it. */
  hiddenVideoId: number;
  categoryId: string;
  performerId: string;
  /** A tag of the published video, and a synonym of it. */
  tagId: string;
  tagAlias: string;
  /** A failed job (retryable). */
  jobId: number;
  doneJobId: number;
  /** Open. */
  removalRequestId: number;
  closedRemovalRequestId: number;
  /** An html zone in the footer. */
  adZoneId: number;
}

export interface Users {
  memberA: TestUser;
  memberB: TestUser;
  admin: TestUser;
  /** Every test user's password. */
  password: string;
}

export interface FillContext {
  fx: Fixtures;
  users: Users;
  /** Who the valid request is built for (their own user id goes into `userId` fields); null: anonymous. */
  caller: TestUser | null;
  /** A number never returned before, for values that must be unique (emails, names, slugs). */
  unique(): number;
}

type Hint = (ctx: FillContext, schema: NamedSchema) => unknown;

const callerId: Hint = (c) => (c.caller ?? c.users.memberA).id;
const taxa = (id: (fx: Fixtures) => string): Hint => (c, schema) => {
  const items = schema.items ?? {};
  // By id: `[{id}]` where the items are objects (update-video), `[id]` where they are strings (upload, multipart).
  return [items.type === 'string' ? id(c.fx) : { id: id(c.fx) }];
};

/**
 * Values that only the data can make valid, by `Schema.field` (that body only) or by `field` (every body and
 * query parameter of that name).
 */
export const FIELD_HINTS: Record<string, Hint> = {
  'RegisterDto.email': (c) => `hostile${c.unique()}@example.com`,
  'LoginDto.email': (c) => c.users.memberA.email,
  'LoginDto.password': (c) => c.users.password,
  'UpdateVideoDto.id': (c) => c.fx.videoId,
  'DeleteVideoDto.id': (c) => c.fx.videoId,
  // Unique: two videos with one stem would share their media folders (409).
  'UpdateVideoDto.url': (c) => `/2024/06/hostile-${c.unique()}.mp4`,
  videoId: (c) => c.fx.videoId,
  // A caption file's language (the multipart body of POST /api/admin/videos/{id}/captions).
  lang: () => 'en',
  // A listing's excluded topics (GET /api/videos): the fixture's category, so that the request narrows something.
  exclude: (c) => `category:${c.fx.categoryId}`,
  video_id: (c) => c.fx.videoId,
  playlist_id: (c) => c.fx.playlistId,
  // A permutation of the playlist's videos.
  video_ids: (c) => [c.fx.playlistVideoId],
  userId: callerId,
  user_id: callerId,
  playlistUserId: callerId,
  urls: (c) => [String(c.fx.videoId)],
  categories: taxa((fx) => fx.categoryId),
  performers: taxa((fx) => fx.performerId),
  'CreateTagSynonymDto.tag': (c) => c.fx.tagId,
  // A member hides the fixture's topics (ids, not the {id, name} of a video's edit).
  'HiddenTopicsDto.categories': (c) => [c.fx.categoryId],
  'HiddenTopicsDto.performers': (c) => [c.fx.performerId],
  'HiddenTopicsDto.tags': (c) => [c.fx.tagId],
  'CreateTagSynonymDto.alias': (c) => `hostile-alias-${c.unique()}`,
  // An ad zone: a banner of the main brand (a vast one is the same with a tag URL; the e2e suite has both).
  'CreateAdZoneDto.placement': () => 'banner-footer',
  'CreateAdZoneDto.kind': () => 'html',
  'CreateAdZoneDto.vastUrl': () => null,
  'CreateAdZoneDto.html': () => '<b>Hostile ad</b>',
  'CreateAdZoneDto.skipAfter': () => null,
  'CreateAdZoneDto.hosts': () => ['https://ads.example'],
  'UpdateAdZoneDto.placement': () => 'banner-footer',
  'UpdateAdZoneDto.kind': () => 'html',
  'UpdateAdZoneDto.vastUrl': () => null,
  'UpdateAdZoneDto.html': () => '<b>Hostile ad</b>',
  'UpdateAdZoneDto.skipAfter': () => null,
  'UpdateAdZoneDto.hosts': () => ['https://ads.example'],
  brands: () => ['default'],
  // Query parameters.
  category: (c) => c.fx.categoryId,
  tag: (c) => c.fx.tagId,
  performer: (c) => c.fx.performerId,
  path: (c) => c.fx.streamPath,
  ids: (c) => String(c.fx.videoId),
  uploadPath: (c) => `/thumbs/hostile/${c.unique()}/poster.png`,
};

export interface FileSample {
  bytes: Buffer;
  filename: string;
  contentType: string;
}

/** Bytes a file field accepts, by `path field` (the document says only "binary"). */
export const FILE_SAMPLES: Record<string, () => FileSample> = {
  // The sniffing reads the first bytes only: an `ftyp` box passes, and with no worker the job stays queued.
  '/api/admin/videos file': () => ({ bytes: Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypisom'), Buffer.alloc(64)]), filename: 'clip.mp4', contentType: 'video/mp4' }),
  '/api/admin/videos/{id}/captions file': () => ({ bytes: Buffer.from('WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nHostile fixture\n'), filename: 'en.vtt', contentType: 'text/vtt' }),
  '/api/admin/update-thumbnail file': () => ({
    bytes: Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64)]),
    filename: 'poster.png',
    contentType: 'image/png',
  }),
};

interface PathFixture {
  valid: (fx: Fixtures) => string | number;
  /** Valid-looking ids that the caller may not use or that name nothing usable. */
  others: (fx: Fixtures) => Hostile[];
}

/** Path parameters by `segment/{param}`, the segment being the one before the parameter. */
export const PATH_FIXTURES: Record<string, PathFixture> = {
  // The fixture video has English captions; the others name none, or are no language tag.
  'captions/{lang}': { valid: () => 'en', others: () => [{ label: 'a language it has none in', value: 'fr' }, { label: 'not a tag', value: 'english' }] },
  'videos/{id}': { valid: (fx) => fx.videoId, others: (fx) => [{ label: 'unpublished video', value: fx.hiddenVideoId }, { label: 'no such video', value: 2_147_483_647 }] },
  'playlists/{id}': {
    valid: (fx) => fx.playlistId,
    others: (fx) => [{ label: "member B's playlist", value: fx.foreignPlaylistId }, { label: 'no such playlist', value: 2_147_483_647 }],
  },
  'videos/{videoId}': {
    valid: (fx) => fx.playlistVideoId,
    others: (fx) => [{ label: 'video not in the playlist', value: fx.videoId }, { label: 'unpublished video', value: fx.hiddenVideoId }],
  },
  'categories/{id}': { valid: (fx) => fx.categoryId, others: () => [{ label: 'no such category', value: 'no-such-category' }, { label: 'upper case', value: 'NOT-A-SLUG' }] },
  'performers/{id}': { valid: (fx) => fx.performerId, others: () => [{ label: 'no such performer', value: 'no-such-performer' }, { label: 'upper case', value: 'NOT-A-SLUG' }] },
  'tags/{id}': { valid: (fx) => fx.tagId, others: () => [{ label: 'no such tag', value: 'no-such-tag' }, { label: 'upper case', value: 'NOT-A-SLUG' }] },
  'tag-synonyms/{alias}': { valid: (fx) => fx.tagAlias, others: (fx) => [{ label: 'a tag, not a synonym', value: fx.tagId }, { label: 'no such synonym', value: 'no-such-alias' }] },
  // Following is idempotent and any member may follow any performer: the others are ids that name none.
  'following/{performerId}': {
    valid: (fx) => fx.performerId,
    others: () => [{ label: 'no such performer', value: 'no-such-performer' }, { label: 'upper case', value: 'NOT-A-SLUG' }],
  },
  // A resume position is the member's own; any published video takes one, and taking one out is idempotent.
  'history/{videoId}': {
    valid: (fx) => fx.videoId,
    others: (fx) => [{ label: 'unpublished video', value: fx.hiddenVideoId }, { label: 'no such video', value: 2_147_483_647 }],
  },
  'continue-watching/{videoId}': {
    valid: (fx) => fx.videoId,
    others: (fx) => [{ label: 'unpublished video', value: fx.hiddenVideoId }, { label: 'no such video', value: 2_147_483_647 }],
  },
  'jobs/{id}': { valid: (fx) => fx.jobId, others: (fx) => [{ label: 'a job that is done', value: fx.doneJobId }, { label: 'no such job', value: 2_147_483_647 }] },
  // The crawlers' files (seo/): the fixtures' videos are in the first block of ids.
  'sitemaps/{file}': {
    valid: () => 'videos-1.xml',
    others: () => [{ label: 'no such file', value: 'videos-999999.xml' }, { label: 'not a sitemap name', value: 'index.html' }],
  },
  // Any admin may change any zone: the others name none.
  'ad-zones/{id}': { valid: (fx) => fx.adZoneId, others: () => [{ label: 'no such zone', value: 2_147_483_647 }] },
  'ads/{id}': { valid: (fx) => fx.adZoneId, others: () => [{ label: 'no such zone', value: 2_147_483_647 }] },
  'removal-requests/{id}': {
    valid: (fx) => fx.removalRequestId,
    others: (fx) => [{ label: 'a closed request', value: fx.closedRemovalRequestId }, { label: 'no such request', value: 2_147_483_647 }],
  },
};

/** The fixture for a path parameter, or why there is none (a new route: add it to PATH_FIXTURES). */
export function pathFixture(op: Operation, param: string): PathFixture | string {
  const segment = new RegExp(`([^/]+)/\\{${param}\\}`).exec(op.path)?.[1];
  const key = `${segment}/{${param}}`;
  return (
    PATH_FIXTURES[key] ??
    `${op.key}: no fixture for the path parameter {${param}} (key "${key}"); add one to PATH_FIXTURES in test/helpers/hostile/fill.ts`
  );
}

/** Builds valid values for one document's schemas. */
export class Filler {
  constructor(private readonly doc: OpenApiDocument) {}

  resolve(schema: NamedSchema | undefined): NamedSchema {
    return resolveSchema(this.doc, schema);
  }

  /** A valid value for `field` (of the object schema `owner`, if any) with `schema`. */
  value(ctx: FillContext, schema: NamedSchema, field?: string, owner?: string): unknown {
    const hint = field === undefined ? undefined : (FIELD_HINTS[`${owner}.${field}`] ?? FIELD_HINTS[field]);
    if (hint) return hint(ctx, schema);
    if (schema.enum?.length) return schema.enum[0];
    switch (schema.type ?? (schema.properties ? 'object' : undefined)) {
      case 'string':
        return this.string(ctx, schema);
      case 'number':
      case 'integer':
        return this.number(schema);
      case 'boolean':
        return true;
      case 'array': {
        const items = this.resolve(schema.items);
        return Array.from({ length: Math.max(1, schema.minItems ?? 1) }, () => this.value(ctx, items));
      }
      case 'object':
        return this.object(ctx, schema);
      default:
        return 'hostile';
    }
  }

  /** Every property (optional ones too, so that each can be left out or spoiled). */
  object(ctx: FillContext, schema: NamedSchema): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const [name, property] of Object.entries(schema.properties ?? {})) {
      const resolved = this.resolve(property);
      if (resolved.format === 'binary') continue;
      out[name] = this.value(ctx, resolved, name, schema.refName);
    }
    return out;
  }

  private string(ctx: FillContext, schema: NamedSchema): string {
    if (schema.format === 'uuid') return (ctx.caller ?? ctx.users.memberA).id;
    if (schema.format === 'date-time') return new Date().toISOString();
    if (schema.format === 'email') return `hostile${ctx.unique()}@example.com`;
    const n = ctx.unique();
    let text = schema.pattern ? `hostile-${n}` : `Hostile ${n}`;
    while (text.length < (schema.minLength ?? 0)) text += 'x';
    return text.slice(0, schema.maxLength ?? text.length);
  }

  private number(schema: NamedSchema): number {
    if (schema.minimum === undefined) return 1;
    const exclusive = schema.exclusiveMinimum === true;
    return Math.ceil(schema.minimum) + (exclusive ? 1 : 0);
  }
}
