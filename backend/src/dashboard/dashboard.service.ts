import { Injectable } from '@nestjs/common';
import { AuthService } from '../auth/auth.service';
import { JobsService } from '../jobs/jobs.service';
import { INGEST_KIND } from '../media/ingest.service';
import { RemovalRequestsService } from '../removal-requests/removal-requests.service';
import { TaxaRepository } from '../taxa/taxa.repository';
import type { StatsPeriod } from '../videos/dto/video-stats.dto';
import { SiteStatsService, type RankedTaxon, type SiteRanking } from '../videos/site-stats.service';
import { VideosRepository } from '../videos/videos.repository';
import type { DashboardDayDto, DashboardDto, DashboardTotalsDto, RankingDto } from './dto/dashboard.dto';

const TOTALS: (keyof DashboardTotalsDto)[] = ['views', 'likes', 'members', 'uploads', 'ingests_done', 'ingests_failed'];

/**
 * The admins' site dashboard (issue #15, docs/decisions.md › "Dashboard"). Owns no table: each owner answers its part (the
 * videos their views, likes and rankings; auth the new members; jobs the ingests; removal requests their open
 * queue), all at once, and this puts them together with the names as they are now.
 */
@Injectable()
export class DashboardService {
  constructor(
    private readonly site: SiteStatsService,
    private readonly auth: AuthService,
    private readonly jobs: JobsService,
    private readonly removals: RemovalRequestsService,
    private readonly videos: VideosRepository,
    private readonly taxa: TaxaRepository,
  ) {}

  async dashboard(days: StatsPeriod): Promise<DashboardDto> {
    const [views, members, ingests, rankings, removals] = await Promise.all([
      this.site.daily(days),
      this.auth.signupsPerDay(days),
      this.jobs.outcomes(INGEST_KIND, days),
      this.site.read().then((stored) => this.named(stored)),
      this.removals.openSummary(),
    ]);
    const daily: DashboardDayDto[] = views.map(({ day, views: viewed, likes }) => {
      const jobs = ingests.daily.get(day);
      return {
        day,
        views: viewed,
        likes,
        members: members.get(day) ?? 0,
        uploads: jobs?.created ?? 0,
        ingests_done: jobs?.done ?? 0,
        ingests_failed: jobs?.failed ?? 0,
      };
    });
    const totals = Object.fromEntries(TOTALS.map((key) => [key, daily.reduce((sum, d) => sum + d[key], 0)])) as unknown as DashboardTotalsDto;
    const minutes = ingests.mediaSeconds / 60;

    return {
      days,
      daily,
      totals,
      ingest: {
        queued: ingests.queued,
        running: ingests.running,
        media_minutes: Math.round(minutes * 10) / 10,
        seconds_per_media_minute: minutes > 0 ? Math.round((ingests.processingSeconds / minutes) * 10) / 10 : null,
      },
      rankings,
      removals,
    };
  }

  /** The rankings with titles and names as they are now; a video since unpublished or deleted drops out. */
  private async named(rankings: SiteRanking[]): Promise<RankingDto[]> {
    const videoIds = [...new Set(rankings.flatMap((r) => r.videos.map((v) => v.id)))];
    const ids = (kind: 'categories' | 'performers') => [...new Set(rankings.flatMap((r) => r[kind].map((t) => t.id)))];
    const [videos, categories, performers] = await Promise.all([
      this.videos.summaries(videoIds),
      this.taxa.refs('categories', ids('categories')),
      this.taxa.refs('performers', ids('performers')),
    ]);
    const titles = new Map(videos.filter((v) => v.status === 'ready').map((v) => [v.id, v.title]));
    const names = (refs: { id: string; name: string }[]) => new Map(refs.map((ref) => [ref.id, ref.name]));
    const categoryNames = names(categories);
    const performerNames = names(performers);
    const taxa = (entries: RankedTaxon[], known: Map<string, string>) =>
      entries.filter((t) => known.has(t.id)).map((t) => ({ id: t.id, name: known.get(t.id) as string, views: t.views, videos: t.videos }));
    return rankings.map((r) => ({
      period: r.period,
      computed_at: r.computed_at,
      videos: r.videos.filter((v) => titles.has(v.id)).map((v) => ({ id: v.id, title: titles.get(v.id) as string, views: v.views })),
      categories: taxa(r.categories, categoryNames),
      performers: taxa(r.performers, performerNames),
    }));
  }
}
