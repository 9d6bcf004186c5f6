import type { AuthService } from '../auth/auth.service';
import type { JobOutcomes, JobsService } from '../jobs/jobs.service';
import { INGEST_KIND } from '../media/ingest.service';
import type { OpenRemovalSummary, RemovalRequestsService } from '../removal-requests/removal-requests.service';
import type { TaxaRepository, TaxonKind } from '../taxa/taxa.repository';
import type { SiteDay, SiteRanking, SiteStatsService } from '../videos/site-stats.service';
import type { VideosRepository, VideoStatus } from '../videos/videos.repository';
import { DashboardService } from './dashboard.service';

/**
 * The dashboard puts together what each owner answers (their SQL is covered by test/dashboard.e2e-spec.ts): here
 * the owners are small fakes holding their figures by day, and the spec checks how the figures are joined, added
 * up, rounded and named.
 */
const DAYS = ['2026-11-25', '2026-11-26', '2026-11-27'];

function setup(fields: { ingests?: Partial<JobOutcomes>; rankings?: SiteRanking[] } = {}) {
  /** Views and likes by day, as the site's statistics keep them (every day of the period, oldest first). */
  const site = {
    daily: async (days: number): Promise<SiteDay[]> =>
      DAYS.slice(-days).map((day, i) => ({ day, views: [10, 0, 25][i], likes: [1, 0, 4][i] })),
    read: async (): Promise<SiteRanking[]> => fields.rankings ?? [],
  };
  /** Sign-ups on some of the days only. */
  const auth = { signupsPerDay: async () => new Map([['2026-11-25', 2], ['2026-11-27', 5]]) };
  /** Ingest jobs: only those of the ingest kind are the dashboard's. */
  const jobs = {
    outcomes: async (kind: string): Promise<JobOutcomes> =>
      kind === INGEST_KIND
        ? {
            daily: new Map([['2026-11-26', { created: 3, done: 2, failed: 1 }]]),
            queued: 4,
            running: 1,
            mediaSeconds: 100,
            processingSeconds: 47,
            ...fields.ingests,
          }
        : { daily: new Map(), queued: 99, running: 99, mediaSeconds: 0, processingSeconds: 0 },
  };
  const removalSummary: OpenRemovalSummary = {
    open: 2,
    oldest_at: '2026-11-20T08:00:00.000Z',
    by_age: [{ band: 'over-30-days', count: 0 }],
    by_reason: [{ reason: 'copyright', count: 2 }],
  };
  const removals = { openSummary: async () => removalSummary };
  /** The catalogue now: a video since unpublished, another deleted (absent). */
  const catalogue: { id: number; title: string; status: VideoStatus }[] = [
    { id: 1, title: 'First Now', status: 'ready' },
    { id: 2, title: 'Unpublished Since', status: 'processing' },
    { id: 3, title: 'Third Now', status: 'ready' },
  ];
  const videos = { summaries: async (ids: number[]) => catalogue.filter((v) => ids.includes(v.id)) };
  const taxonNames: Record<TaxonKind, Record<string, string>> = {
    categories: { bears: 'Bears Renamed', outdoor: 'Outdoor' },
    performers: { 'ben-cruz': 'Ben Cruz' },
    tags: {},
  };
  const taxa = {
    refs: async (kind: TaxonKind, ids: string[]) => ids.filter((id) => id in taxonNames[kind]).map((id) => ({ id, name: taxonNames[kind][id] })),
  };
  const dashboard = new DashboardService(
    site as unknown as SiteStatsService,
    auth as unknown as AuthService,
    jobs as unknown as JobsService,
    removals as unknown as RemovalRequestsService,
    videos as unknown as VideosRepository,
    taxa as unknown as TaxaRepository,
  );
  return { dashboard, removalSummary };
}

describe('DashboardService', () => {
  it("joins each day's views, likes, new members and ingests, a day an owner has nothing for counting 0", async () => {
    const { dashboard } = setup();
    const answer = await dashboard.dashboard(7);
    expect(answer.days).toBe(7);
    expect(answer.daily).toEqual([
      { day: '2026-11-25', views: 10, likes: 1, members: 2, uploads: 0, ingests_done: 0, ingests_failed: 0 },
      { day: '2026-11-26', views: 0, likes: 0, members: 0, uploads: 3, ingests_done: 2, ingests_failed: 1 },
      { day: '2026-11-27', views: 25, likes: 4, members: 5, uploads: 0, ingests_done: 0, ingests_failed: 0 },
    ]);
  });

  it('adds every column up over the period', async () => {
    const { dashboard } = setup();
    expect((await dashboard.dashboard(7)).totals).toEqual({ views: 35, likes: 5, members: 7, uploads: 3, ingests_done: 2, ingests_failed: 1 });
  });

  it('answers the ingest queue and its speed, to a tenth: minutes of media, and seconds of processing per minute', async () => {
    const { dashboard } = setup();
    // 100 s of media is 1.67 minutes; 47 s of processing over them is 28.2 s a minute.
    expect((await dashboard.dashboard(7)).ingest).toEqual({ queued: 4, running: 1, media_minutes: 1.7, seconds_per_media_minute: 28.2 });
  });

  it('answers no speed when no media was processed in the period', async () => {
    const { dashboard } = setup({ ingests: { mediaSeconds: 0, processingSeconds: 12 } });
    expect((await dashboard.dashboard(7)).ingest).toEqual({ queued: 4, running: 1, media_minutes: 0, seconds_per_media_minute: null });
  });

  it('names the rankings as they are now, leaving out videos no longer published and taxa since deleted', async () => {
    const { dashboard } = setup({
      rankings: [
        {
          period: 'day',
          computed_at: '2026-11-27T10:00:00.000Z',
          videos: [
            { id: 3, views: 9 },
            { id: 2, views: 8 },
            { id: 4, views: 7 },
            { id: 1, views: 6 },
          ],
          categories: [
            { id: 'gone', views: 20, videos: 2 },
            { id: 'bears', views: 15, videos: 3 },
          ],
          performers: [{ id: 'ben-cruz', views: 9, videos: 1 }],
        },
        { period: 'week', computed_at: '2026-11-27T10:00:00.000Z', videos: [{ id: 1, views: 60 }], categories: [{ id: 'outdoor', views: 60, videos: 1 }], performers: [] },
      ],
    });
    expect((await dashboard.dashboard(7)).rankings).toEqual([
      {
        period: 'day',
        computed_at: '2026-11-27T10:00:00.000Z',
        videos: [
          { id: 3, title: 'Third Now', views: 9 },
          { id: 1, title: 'First Now', views: 6 },
        ],
        categories: [{ id: 'bears', name: 'Bears Renamed', views: 15, videos: 3 }],
        performers: [{ id: 'ben-cruz', name: 'Ben Cruz', views: 9, videos: 1 }],
      },
      {
        period: 'week',
        computed_at: '2026-11-27T10:00:00.000Z',
        videos: [{ id: 1, title: 'First Now', views: 60 }],
        categories: [{ id: 'outdoor', name: 'Outdoor', views: 60, videos: 1 }],
        performers: [],
      },
    ]);
  });

  it('answers empty rankings when none is stored yet, and the open removal requests as their owner sums them up', async () => {
    const { dashboard, removalSummary } = setup();
    const answer = await dashboard.dashboard(7);
    expect(answer.rankings).toEqual([]);
    expect(answer.removals).toEqual(removalSummary);
  });
});
