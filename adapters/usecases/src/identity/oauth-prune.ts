// What the OAuth authorization server leaves in the store and nothing else removes, pruned by the
// janitor (docs/configuration.md "Crash leftovers"): shared records (device codes, sessions, consent interactions)
// an hour after they expired; a device code's poll times once the code is gone; and clients
// registered through dynamic registration with which no connection was made for
// UNUSED_CLIENT_RETENTION_MS (a connection lives as long, so such a client has none left; one never
// connected goes that long after its registration). Records bound to a connection go with it.
import { isStoreError, type DocumentCollection, type DocumentRecord, type Store } from '@kerf/store';
import { DEVICE_POLLS_COLLECTION, EXPIRED_DEVICE_CODE_GRACE_MS, OAUTH_OWNER, isLive, oauthCollection, type OAuthRecord } from './oauth-records.ts';

/** A registered client with no connection made for this long is deleted (30 days, a connection's lifetime). */
const UNUSED_CLIENT_RETENTION_MS = 30 * 24 * 60 * 60 * 1000;
/** The models whose records live under OAUTH_OWNER until they expire. */
const SHARED_MODELS = ['DeviceCode', 'Session', 'Interaction'] as const;
/** Records each collection's scan reads per pass; the next pass goes on from there. */
const RECORDS_PER_PASS = 2000;
const PAGE = 500;

export interface OAuthPruned { expired: number; polls: number; clients: number }

/** Where each collection's scan stopped, carried from one pass to the next. */
export type PruneCursors = Map<string, string | null>;

/** One pass at `now`. */
export async function pruneOAuthRecords(store: Store, now: Date, cursors: PruneCursors = new Map()): Promise<OAuthPruned> {
  const expiredBefore = new Date(now.getTime() - EXPIRED_DEVICE_CODE_GRACE_MS);
  let expired = 0;
  for (const model of SHARED_MODELS) {
    expired += await sweep(model, oauthCollection(store, model), cursors, (doc) => !isLive(doc.data, expiredBefore));
  }
  const codes = oauthCollection(store, 'DeviceCode');
  const polls = await sweep(DEVICE_POLLS_COLLECTION, store.documents<unknown>(DEVICE_POLLS_COLLECTION), cursors,
    async (doc) => doc.key !== null && !(await codes.getUnscoped(doc.key)));
  const clients = await sweep('Client', oauthCollection(store, 'Client'), cursors, (doc) => lastUse(doc) < now.getTime() - UNUSED_CLIENT_RETENTION_MS);
  return { expired, polls, clients };
}

/** When a connection was last made with a client, else when it registered (ms). */
function lastUse(doc: DocumentRecord<OAuthRecord>): number {
  const granted = doc.data.lastGrantAt ? Date.parse(doc.data.lastGrantAt) : NaN;
  return Number.isNaN(granted) ? Date.parse(doc.createdAt) : granted;
}

/**
 * Deletes the OAUTH_OWNER records `stale` picks among the collection's next RECORDS_PER_PASS, oldest
 * first, going on where the last pass stopped and starting over after the newest.
 */
async function sweep<T>(name: string, docs: DocumentCollection<T>, cursors: PruneCursors, stale: (doc: DocumentRecord<T>) => boolean | Promise<boolean>): Promise<number> {
  let cursor = cursors.get(name) ?? null;
  let removed = 0;
  for (let read = 0; read < RECORDS_PER_PASS;) {
    let page;
    try {
      page = await docs.list(OAUTH_OWNER, { limit: PAGE, order: 'asc', cursor });
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
