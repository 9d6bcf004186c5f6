import { User } from '../auth/user.entity';
import { Bookmark } from '../lists/bookmark.entity';
import { HistoryEntry } from '../lists/history-entry.entity';
import { Like } from '../lists/like.entity';
import { WatchLaterItem } from '../lists/watch-later-item.entity';
import { IngestJob } from '../media/ingest-job.entity';
import { PlaylistItem } from '../playlists/playlist-item.entity';
import { Playlist } from '../playlists/playlist.entity';
import { Category } from '../taxonomy/category.entity';
import { Performer } from '../taxonomy/performer.entity';
import { VideoDailyStat } from '../videos/video-daily-stat.entity';
import { Video } from '../videos/video.entity';

/** Every entity, each owned by its feature module; the data source registers them all. */
export const ENTITIES = [
  User, Video, VideoDailyStat, Category, Performer, Bookmark, WatchLaterItem, Like, HistoryEntry,
  Playlist, PlaylistItem, IngestJob,
];
