import { InitialSchema1763769600000 } from './1763769600000-initial-schema';
import { RemovalRequests1779408000000 } from './1779408000000-removal-requests';
import { ScheduledTasks1795000000000 } from './1795000000000-scheduled-tasks';
import { CatalogueAtScale1800000000000 } from './1800000000000-catalogue-at-scale';
import { Sessions1805000000000 } from './1805000000000-sessions';
import { RemovalRequestReports1810000000000 } from './1810000000000-removal-request-reports';
import { PerformerFollows1815000000000 } from './1815000000000-performer-follows';
import { ContinueWatching1820000000000 } from './1820000000000-continue-watching';
import { VideoStatistics1825000000000 } from './1825000000000-video-statistics';
import { SiteDashboard1830000000000 } from './1830000000000-site-dashboard';
import { JobNotBefore1835000000000 } from './1835000000000-job-not-before';
import { HlsKeys1840000000000 } from './1840000000000-hls-keys';
import { MediaPlacements1845000000000 } from './1845000000000-media-placements';
import { ListingFilters1850000000000 } from './1850000000000-listing-filters';
import { VideoChapters1855000000000 } from './1855000000000-video-chapters';
import { VideoCaptions1860000000000 } from './1860000000000-video-captions';
import { Tags1865000000000 } from './1865000000000-tags';
import { HiddenTopics1870000000000 } from './1870000000000-hidden-topics';
import { AdZones1875000000000 } from './1875000000000-ad-zones';
import { AppliedCounterBatches1880000000000 } from './1880000000000-applied-counter-batches';

/** Every migration in order; listed explicitly so that compiled and test runs load the same set. */
export const MIGRATIONS = [InitialSchema1763769600000, RemovalRequests1779408000000, ScheduledTasks1795000000000, CatalogueAtScale1800000000000, Sessions1805000000000, RemovalRequestReports1810000000000, PerformerFollows1815000000000, ContinueWatching1820000000000, VideoStatistics1825000000000, SiteDashboard1830000000000, JobNotBefore1835000000000, HlsKeys1840000000000, MediaPlacements1845000000000, ListingFilters1850000000000, VideoChapters1855000000000, VideoCaptions1860000000000, Tags1865000000000, HiddenTopics1870000000000, AdZones1875000000000, AppliedCounterBatches1880000000000];
