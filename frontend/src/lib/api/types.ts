// The API's shapes, as named aliases of the types that openapi-typescript generates from the backend's OpenAPI
// document (schema.d.ts, `npm run gen:api -w frontend`). Nothing here restates a field the document has.
import type { Brand } from '@hunktube/shared';
import type { components } from './schema';

type Schemas = components['schemas'];

export type VideoCard = Schemas['VideoCardDto'];
export type Video = Schemas['VideoDto'];
export type TaxonRef = Schemas['TaxonRefDto'];
export type VideoCardPage = Schemas['VideoCardPageDto'];
export type Paginated<T> = Omit<VideoCardPage, 'data'> & { data: T[] };

export type BookmarkList = Schemas['BookmarkListDto'];
export type BookmarkState = Schemas['BookmarkStateDto'];
export type WatchLaterState = Schemas['WatchLaterStateDto'];
/** The document types the accepted-and-ignored `video` as an empty object; the client sends the card it holds. */
export type ListAction = Omit<Schemas['ListActionDto'], 'video'> & { video?: VideoCard };
export type WatchedVideo = Omit<Schemas['WatchedVideoDto'], 'video'> & { video?: VideoCard };
export type ContinueWatching = Schemas['ContinueWatchingDto'];
export type ContinueWatchingCard = Schemas['ContinueWatchingCardDto'];
export type UpdateDuration = Schemas['UpdateDurationDto'];
export type VideoId = Schemas['VideoIdDto'];

export type PlaylistSummary = Schemas['PlaylistSummaryDto'];
export type PlaylistList = Schemas['PlaylistListDto'];
export type PlaylistRef = Schemas['PlaylistRefDto'];
export type PlaylistVideos = Schemas['PlaylistVideosDto'];
export type CreatePlaylist = Schemas['CreatePlaylistDto'];
export type CreatedPlaylist = Schemas['CreatedPlaylistDto'];
export type AddToPlaylist = Schemas['AddToPlaylistDto'];
export type NoError = Schemas['NoErrorDto'];

export type RegisterBody = Schemas['RegisterDto'];
export type LoginBody = Schemas['LoginDto'];
export type UpdateProfileBody = Schemas['UpdateProfileDto'];

export type { Brand };
/** GET /api/site; `brand` narrowed to the values BRAND allows. */
export type Site = Omit<Schemas['SiteDto'], 'brand' | 'mediaHosts'> & {
  brand: Brand;
  /** Media hosts keyed by a video's `cdn` value, plus "default"; an empty string means this site. */
  mediaHosts: Record<string, string>;
};
export type User = Schemas['UserDto'];
export type Session = Schemas['SessionDto'];
export type RelatedVideos = Schemas['RelatedVideosDto'];
export type SecureUrl = Schemas['SecureUrlDto'];
export type ViewCount = Schemas['ViewsDto'];
export type LikeCount = Schemas['LikesDto'];
export type DurationValue = Schemas['DurationDto'];

/** The body of every non-2xx answer. */
export type ApiErrorBody = Schemas['ErrorResponse'];

export type Taxon = Schemas['TaxonDto'];
export type TaxonList = Schemas['TaxonListDto'];
export type CreatedTaxon = Schemas['CreatedTaxonDto'];
export type UpdatedVideo = Schemas['UpdatedVideoDto'];
export type Job = Schemas['JobDto'];
export type JobList = Schemas['JobListDto'];
export type UploadAccepted = Schemas['UploadAcceptedDto'];

export type HistoryVideoCard = Schemas['HistoryVideoCardDto'];
export type HistoryPage = Schemas['HistoryPageDto'];
export type HistoryPaused = Schemas['HistoryPausedDto'];
export type UpdatePlaylist = Schemas['UpdatePlaylistDto'];
export type RenamedPlaylist = Schemas['PlaylistDto'];
export type ReorderPlaylist = Schemas['ReorderPlaylistDto'];
export type ClientIp = Schemas['ClientIpDto'];
export type ThumbnailUrl = Schemas['ThumbnailUrlDto'];
/** POST /api/admin/refresh-views: `flushed` counts the videos whose buffered counts were written. */
export type RefreshedViews = Schemas['RefreshViewsDto'];

export type CreateRemovalRequest = Schemas['CreateRemovalRequestDto'];
export type RemovalRequestCreated = Schemas['RemovalRequestCreatedDto'];
export type RemovalRequest = Schemas['RemovalRequestDto'];
export type RemovalRequestList = Schemas['RemovalRequestListDto'];
export type RemovalRequestResponse = Schemas['RemovalRequestResponseDto'];
export type CloseRemovalRequest = Schemas['CloseRemovalRequestDto'];
export type RemovalReason = RemovalRequest['reason'];

export type FollowedPerformer = Schemas['FollowedPerformerDto'];
export type FollowingList = Schemas['FollowingListDto'];
