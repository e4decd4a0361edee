// One janitor pass over the records one owner keeps in a collection, a bounded slice at a time:
// shared by the OAuth records (oauth-prune.ts) and the sign-in throttle (sign-in-prune.ts), which
// nothing else removes once they are stale.
import { isStoreError, type DocumentCollection, type DocumentRecord } from '@kerf/store';

/** Records each collection's scan reads per pass; the next pass goes on from there. */
const RECORDS_PER_PASS = 2000;
const PAGE = 500;

/** Where each collection's scan stopped, carried from one pass to the next. */
export type PruneCursors = Map<string, string | null>;

/**
 * Deletes the `owner`'s records `stale` picks among the collection's next RECORDS_PER_PASS, oldest
 * first, going on where the last pass stopped (`cursors` under `name`) and starting over after the newest.
 */
export async function sweepOwned<T>(name: string, docs: DocumentCollection<T>, owner: string, cursors: PruneCursors,
  stale: (doc: DocumentRecord<T>) => boolean | Promise<boolean>): Promise<number> {
  let cursor = cursors.get(name) ?? null;
  let removed = 0;
  for (let read = 0; read < RECORDS_PER_PASS;) {
    let page;
    try {
      page = await docs.list(owner, { limit: PAGE, order: 'asc', cursor });
    } catch (err) {
      if (!isStoreError(err, 'invalid_cursor') || cursor === null) throw err;
      cursor = null; // a cursor the store no longer takes: start over
      continue;
    }
    for (const doc of page.items) if ((await stale(doc)) && (await docs.delete(doc.accountId, doc.id))) removed++;
    read += page.items.length;
    cursor = page.hasMore ? page.nextCursor : null;
    if (cursor === null) break;
  }
  cursors.set(name, cursor);
  return removed;
}
