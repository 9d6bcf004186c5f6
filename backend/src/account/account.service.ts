import { AdEventsService } from '../ads/ad-events.service';
import { HiddenTopicsService } from '../taxonomy/hidden-topics.service';
import { Injectable } from '@nestjs/common';
import { AuthService } from '../auth/auth.service';
import type { AuthUser } from '../common/decorators/auth.decorators';
import { FollowsService } from '../lists/follows.service';
import { ListsService } from '../lists/lists.service';
import { PlaylistsService } from '../playlists/playlists.service';
import { VideosRepository } from '../videos/videos.repository';
import type { SiteIdentity } from '../common/http/site-identity';
import type { AccountExportDto } from './dto/account.dto';

/**
 * A member's own data, taken away or removed (issue #16, point 5; docs/decisions.md › "Export and delete"). Each module
 * reads its own tables; this one puts them together. Deleting is the account's: the database removes what
 * hangs on it.
 */
@Injectable()
export class AccountService {
  constructor(
    private readonly auth: AuthService,
    private readonly lists: ListsService,
    private readonly follows: FollowsService,
    private readonly playlists: PlaylistsService,
    private readonly videos: VideosRepository,
    private readonly hidden: HiddenTopicsService,
    private readonly ads: AdEventsService,
  ) {}

  /** `site`: the site the request reached (its name, and its origin for the watch pages' addresses). */
  async export(user: AuthUser, site: Pick<SiteIdentity, 'name' | 'origin'>): Promise<AccountExportDto> {
    const { origin } = site;
    const [account, lists, playlists, following, hidden, adImpressions] = await Promise.all([
      this.auth.exportAccount(user.id),
      this.lists.exportLists(user.id),
      this.playlists.exportPlaylists(user.id),
      this.follows.exportFollows(user.id),
      this.hidden.get(user.id),
      this.ads.exportImpressions(user.id),
    ]);
    const ids = new Set<number>();
    for (const entries of [lists.bookmarks, lists.watch_later, lists.likes, lists.history, ...playlists.map((p) => p.videos)]) {
      for (const entry of entries) ids.add(entry.video_id);
    }
    const titles = new Map((await this.videos.summaries([...ids])).map((video) => [video.id, video.title]));
    const video = <T extends { video_id: number }>(entry: T) => ({
      ...entry,
      title: titles.get(entry.video_id) ?? null,
      page: `${origin}/video/${entry.video_id}`,
    });
    return {
      exported_at: new Date().toISOString(),
      site: site.name,
      account,
      bookmarks: lists.bookmarks.map(video),
      watch_later: lists.watch_later.map(video),
      playlists: playlists.map((playlist) => ({ ...playlist, videos: playlist.videos.map(video) })),
      likes: lists.likes.map(video),
      following,
      history: lists.history.map(video),
      hidden,
      ad_impressions: adImpressions,
    };
  }

  delete(user: AuthUser, password: string): Promise<void> {
    return this.auth.deleteAccount(user, password);
  }
}
