import type { components } from '@/lib/api/schema';

/** One zone that may fill a slot: GET /api/ads answers the active zones of this site that apply to this viewer. */
export type AdSlot = components['schemas']['AdSlotDto'];
export type AdPlacement = AdSlot['placement'];
export type AdSlotList = components['schemas']['AdSlotListDto'];

export interface AdSlotsRequest {
  placement: AdPlacement;
  /** The embeddable player asks: only the zones marked for embeds. */
  embed: boolean;
  videoId?: number;
}

