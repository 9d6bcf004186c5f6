// The ad zones' shapes (docs/ads.md), as named aliases of the types generated from the OpenAPI document.
import type { components } from '@/lib/api/schema';

type Schemas = components['schemas'];

export type AdZone = Schemas['AdZoneDto'];
export type AdZoneList = Schemas['AdZoneListDto'];
export type CreateAdZone = Schemas['CreateAdZoneDto'];
/** PATCH takes any subset of the fields. */
export type UpdateAdZone = Schemas['UpdateAdZoneDto'];
export type AdCounts = Schemas['AdCountsDto'];
export type AdDay = Schemas['AdDayDto'];
export type AdZoneStats = Schemas['AdZoneStatsDto'];
export type AdStats = Schemas['AdStatsDto'];
export type AdPlacement = AdZone['placement'];
export type AdKind = AdZone['kind'];
