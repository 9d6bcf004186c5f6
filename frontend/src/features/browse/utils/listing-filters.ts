import {
  DURATION_CHOICES, type DurationChoice, formatDuration, listingFilterParams, type ListingFilters, QUALITY_LABELS, UPLOADED_LABELS,
} from '@hunktube/shared';

/** A length choice of the filter bar, or null when the address's range is not one of them (typed by hand). */
export function durationChoice(filters: ListingFilters): DurationChoice | null {
  return DURATION_CHOICES.find((choice) => choice.minDuration === filters.minDuration && choice.maxDuration === filters.maxDuration) ?? null;
}

const minutes = (seconds: number) => (seconds % 60 === 0 ? `${seconds / 60} min` : formatDuration(seconds));

/** How an applied length reads on its chip: the choice's label, else the range itself. */
export function durationLabel(filters: ListingFilters): string | null {
  const { minDuration: min, maxDuration: max } = filters;
  if (min === undefined && max === undefined) return null;
  const choice = durationChoice(filters);
  if (choice) return choice.label;
  if (min !== undefined && max !== undefined) return `${minutes(min)}–${minutes(max)}`;
  return min !== undefined ? `At least ${minutes(min)}` : `At most ${minutes(max!)}`;
}

/** One chip per applied filter: what it reads and the filters without it. */
export function appliedFilters(filters: ListingFilters): { label: string; without: ListingFilters }[] {
  const chips: { label: string; without: ListingFilters }[] = [];
  const length = durationLabel(filters);
  if (length) chips.push({ label: length, without: { ...filters, minDuration: undefined, maxDuration: undefined } });
  if (filters.quality) chips.push({ label: QUALITY_LABELS[filters.quality], without: { ...filters, quality: undefined } });
  if (filters.uploaded) chips.push({ label: UPLOADED_LABELS[filters.uploaded], without: { ...filters, uploaded: undefined } });
  return chips;
}

/** The filters as the parameters a link keeps (defaults left out). */
export const filterKeep = (filters: ListingFilters): Record<string, string> => Object.fromEntries(listingFilterParams(filters));
