/** The list with the item at `from` moved to `to` (both clamped to the list); the input is left as it was. */
export function moveItem<T>(list: readonly T[], from: number, to: number): T[] {
  const next = list.slice();
  if (from < 0 || from >= list.length) return next;
  const target = Math.min(Math.max(to, 0), list.length - 1);
  const [item] = next.splice(from, 1);
  next.splice(target, 0, item);
  return next;
}

/**
 * The items in the order of `ids`. Items whose id is not named keep their relative order after the named ones,
 * so a list that changed meanwhile (a video added elsewhere) loses nothing.
 */
export function orderByIds<T extends { id: number }>(list: readonly T[], ids: readonly number[]): T[] {
  const rank = new Map(ids.map((id, index) => [id, index]));
  const named = list.filter((item) => rank.has(item.id));
  const others = list.filter((item) => !rank.has(item.id));
  named.sort((a, b) => (rank.get(a.id) ?? 0) - (rank.get(b.id) ?? 0));
  return [...named, ...others];
}
