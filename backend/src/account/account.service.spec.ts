import type { AdEventsService } from '../ads/ad-events.service';
import type { HiddenTopicsService } from '../taxonomy/hidden-topics.service';
import { AuthErrorCode } from '../auth/auth-errors';
import { type AccountExport, type AuthService, WRONG_PASSWORD } from '../auth/auth.service';
import type { AuthUser } from '../common/decorators/auth.decorators';
import { ForbiddenError } from '../common/errors/domain-errors';
import type { FollowsService } from '../lists/follows.service';
import type { ListsExport, ListsService } from '../lists/lists.service';
import type { PlaylistExport, PlaylistsService } from '../playlists/playlists.service';
import type { VideosRepository, VideoStatus } from '../videos/videos.repository';
import { AccountService } from './account.service';

/**
 * The export puts together what each owner keeps of the member (their SQL is covered by test/account.e2e-spec.ts
 * and each owner's own spec); here the owners are small fakes holding two members' data, and the spec checks what
 * the export makes of it. Deleting is the account's owner's: its refusals stand as they are.
 */
const ANN = 'a0000000-0000-4000-8000-000000000001';
const BOB = 'b0000000-0000-4000-8000-000000000002';
const T = (n: number) => `2026-11-2${n}T10:00:00.000Z`;

const user = (id: string): AuthUser => ({ id, email: `${id}@example.com`, displayName: 'Member', roleId: 'member', historyPaused: false });
const account = (id: string): AccountExport => ({
  id,
  email: `${id}@example.com`,
  display_name: 'Member',
  role: 'member',
  created_at: T(0),
  history_paused: false,
  sessions: [{ started_at: T(1), expires_at: T(8) }],
});
const emptyLists: ListsExport = { bookmarks: [], watch_later: [], likes: [], history: [] };

function setup() {
  const lists: Record<string, ListsExport> = {
    [ANN]: {
      bookmarks: [{ video_id: 1, added_at: T(3) }],
      watch_later: [{ video_id: 2, added_at: T(3) }],
      likes: [{ video_id: 1, liked_at: T(4) }],
      // Video 9 has been deleted since: its entry stays, without a title.
      history: [
        { video_id: 9, watched_at: T(5), position_seconds: null },
        { video_id: 3, watched_at: T(4), position_seconds: 42 },
      ],
    },
    [BOB]: { ...emptyLists, bookmarks: [{ video_id: 5, added_at: T(1) }] },
  };
  const playlists: Record<string, PlaylistExport[]> = {
    [ANN]: [{ id: 7, title: 'Gym Mix', created_at: T(1), updated_at: T(2), videos: [{ video_id: 3, added_at: T(1) }, { video_id: 2, added_at: T(2) }] }],
    [BOB]: [{ id: 8, title: 'Bob Mix', created_at: T(1), updated_at: T(1), videos: [{ video_id: 5, added_at: T(1) }] }],
  };
  const follows: Record<string, { performer_id: string; name: string; followed_at: string }[]> = {
    [ANN]: [{ performer_id: 'ben-cruz', name: 'Ben Cruz', followed_at: T(2) }],
  };
  const hidden: Record<string, { categories: string[]; performers: string[]; tags: string[] }> = {
    [ANN]: { categories: ['vintage'], performers: [], tags: ['feet'] },
  };
  const impressions: Record<string, { zone_id: number; zone: string; shown_at: string }[]> = {
    [ANN]: [{ zone_id: 4, zone: 'Pre-roll', shown_at: T(3) }],
  };
  const catalogue: { id: number; title: string; status: VideoStatus }[] = [
    { id: 1, title: 'One', status: 'ready' },
    { id: 2, title: 'Two', status: 'ready' },
    // Unpublished since: still the member's, under its title.
    { id: 3, title: 'Three', status: 'failed' },
    { id: 5, title: 'Five', status: 'ready' },
  ];
  const auth = {
    exportAccount: async (id: string) => account(id),
    deleteAccount: async (_who: AuthUser, password: string) => {
      if (password !== 'the right one') throw new ForbiddenError(WRONG_PASSWORD, AuthErrorCode.WrongPassword);
    },
  };
  const service = new AccountService(
    auth as unknown as AuthService,
    { exportLists: async (id: string) => lists[id] ?? emptyLists } as unknown as ListsService,
    { exportFollows: async (id: string) => follows[id] ?? [] } as unknown as FollowsService,
    { exportPlaylists: async (id: string) => playlists[id] ?? [] } as unknown as PlaylistsService,
    { summaries: async (ids: number[]) => catalogue.filter((v) => ids.includes(v.id)) } as unknown as VideosRepository,
    { get: async (id: string) => hidden[id] ?? { categories: [], performers: [], tags: [] } } as unknown as HiddenTopicsService,
    { exportImpressions: async (id: string) => impressions[id] ?? [] } as unknown as AdEventsService,
  );
  return { service };
}

describe('AccountService', () => {
  const site = { name: 'HunkTube', origin: 'https://hunk.example' };

  it("exports the member's account, lists, playlists and follows, each video with its title now and its watch page on the site", async () => {
    const { service } = setup();
    const before = Date.now();
    const exported = await service.export(user(ANN), site);
    expect(Date.parse(exported.exported_at)).toBeGreaterThanOrEqual(before - 1);
    expect(exported).toEqual({
      exported_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      site: 'HunkTube',
      account: account(ANN),
      bookmarks: [{ video_id: 1, added_at: T(3), title: 'One', page: 'https://hunk.example/video/1' }],
      watch_later: [{ video_id: 2, added_at: T(3), title: 'Two', page: 'https://hunk.example/video/2' }],
      playlists: [
        {
          id: 7,
          title: 'Gym Mix',
          created_at: T(1),
          updated_at: T(2),
          videos: [
            { video_id: 3, added_at: T(1), title: 'Three', page: 'https://hunk.example/video/3' },
            { video_id: 2, added_at: T(2), title: 'Two', page: 'https://hunk.example/video/2' },
          ],
        },
      ],
      likes: [{ video_id: 1, liked_at: T(4), title: 'One', page: 'https://hunk.example/video/1' }],
      following: [{ performer_id: 'ben-cruz', name: 'Ben Cruz', followed_at: T(2) }],
      history: [
        { video_id: 9, watched_at: T(5), position_seconds: null, title: null, page: 'https://hunk.example/video/9' },
        { video_id: 3, watched_at: T(4), position_seconds: 42, title: 'Three', page: 'https://hunk.example/video/3' },
      ],
      hidden: { categories: ['vintage'], performers: [], tags: ['feet'] },
      ad_impressions: [{ zone_id: 4, zone: 'Pre-roll', shown_at: T(3) }],
    });
  });

  it('exports nothing of another member, and empty lists for a member who kept nothing', async () => {
    const { service } = setup();
    const bob = await service.export(user(BOB), { name: 'Brand Two', origin: 'https://two.example' });
    expect(bob).toMatchObject({
      site: 'Brand Two',
      account: { id: BOB },
      bookmarks: [{ video_id: 5, added_at: T(1), title: 'Five', page: 'https://two.example/video/5' }],
      watch_later: [],
      likes: [],
      history: [],
      following: [],
      hidden: { categories: [], performers: [], tags: [] },
      ad_impressions: [],
      playlists: [{ id: 8, videos: [{ video_id: 5, title: 'Five', page: 'https://two.example/video/5' }] }],
    });
    const nobody = 'c0000000-0000-4000-8000-000000000003';
    expect(await service.export(user(nobody), site)).toMatchObject({ bookmarks: [], watch_later: [], playlists: [], likes: [], following: [], history: [] });
  });

  it("leaves the deletion to the account's owner: its refusal of a wrong password stands as it is", async () => {
    const { service } = setup();
    const error = await service.delete(user(ANN), 'a wrong one').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ForbiddenError);
    expect(error).toMatchObject({ message: WRONG_PASSWORD, code: AuthErrorCode.WrongPassword, status: 403 });
    await expect(service.delete(user(ANN), 'the right one')).resolves.toBeUndefined();
  });
});
