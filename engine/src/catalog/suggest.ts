// "Did you mean ...": the catalog ids closest to one that is not in it, by edit distance.

/** At most this many suggestions. */
const MAX_SUGGESTIONS = 3;

/** Edits (insert, delete, replace one character) that turn `a` into `b`. */
function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = row;
  }
  return prev[b.length];
}

/**
 * The ids nearest to `wanted` (case-insensitive), closest first; only those within a third of its
 * length, so a wild guess gets no misleading suggestion.
 */
export function closestIds(wanted: string, ids: Iterable<string>): string[] {
  const w = wanted.toLowerCase();
  const limit = Math.max(2, Math.ceil(w.length / 3));
  return [...ids]
    .map((id) => ({ id, d: editDistance(w, id.toLowerCase()) }))
    .filter((c) => c.d <= limit)
    .sort((x, y) => x.d - y.d || x.id.localeCompare(y.id))
    .slice(0, MAX_SUGGESTIONS)
    .map((c) => c.id);
}

/** " Did you mean a, b or c?" or nothing. */
export function didYouMean(ids: string[]): string {
  if (ids.length === 0) return '';
  const list = ids.length === 1 ? ids[0] : `${ids.slice(0, -1).join(', ')} or ${ids[ids.length - 1]}`;
  return ` Did you mean ${list}?`;
}
