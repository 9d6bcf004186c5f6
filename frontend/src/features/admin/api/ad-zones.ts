import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, ok } from '@/lib/api/client';
import type { AdZone, AdZoneList, CreateAdZone, UpdateAdZone } from './ad-types';

/** The zones under ['admin', 'ads', 'zones'], their figures under ['admin', 'ads', 'stats', …]; ['admin', 'ads'] covers both. */
export const adKeys = {
  all: ['admin', 'ads'] as const,
  zones: ['admin', 'ads', 'zones'] as const,
  allStats: (days: number) => ['admin', 'ads', 'stats', 'all', days] as const,
  zoneStats: (id: number, days: number) => ['admin', 'ads', 'stats', 'zone', id, days] as const,
};

/** GET /api/admin/ad-zones: every ad zone, by id (docs/ads.md). */
export const useAdZones = () =>
  useQuery({
    queryKey: adKeys.zones,
    queryFn: ({ signal }) => ok(api.GET('/api/admin/ad-zones', { signal })),
  });

/**
 * A zone's change shows in the list and in the figures (their names, placements and on/off; a deleted zone's
 * figures go with it): both are read again.
 */
function useInvalidateAds() {
  const queryClient = useQueryClient();
  return () => {
    void queryClient.invalidateQueries({ queryKey: adKeys.all });
  };
}

/** POST /api/admin/ad-zones: 201 with the zone; 400 naming the bad field. */
export function useCreateAdZone() {
  const invalidate = useInvalidateAds();
  return useMutation({
    mutationFn: (zone: CreateAdZone) => ok(api.POST('/api/admin/ad-zones', { body: zone })),
    onSuccess: invalidate,
  });
}

/** PATCH /api/admin/ad-zones/{id} with the fields that changed: the zone; 400 naming the bad field, 404 unknown. */
export function useUpdateAdZone() {
  const queryClient = useQueryClient();
  const invalidate = useInvalidateAds();
  return useMutation({
    mutationFn: ({ id, changes }: { id: number; changes: UpdateAdZone }): Promise<AdZone> =>
      ok(api.PATCH('/api/admin/ad-zones/{id}', { params: { path: { id } }, body: changes })),
    onSuccess: (saved) => {
      // The list shows the saved zone at once (an on/off switch does not flip back while the list is read again).
      queryClient.setQueryData<AdZoneList>(adKeys.zones, (list) => list && { ...list, data: list.data.map((zone) => (zone.id === saved.id ? saved : zone)) });
      invalidate();
    },
  });
}

/** DELETE /api/admin/ad-zones/{id}: 204, its figures gone with it; 404 unknown. */
export function useDeleteAdZone() {
  const invalidate = useInvalidateAds();
  return useMutation({
    mutationFn: (id: number) => ok(api.DELETE('/api/admin/ad-zones/{id}', { params: { path: { id } } })),
    // A zone already gone (404) is gone from the list too.
    onSettled: invalidate,
  });
}
