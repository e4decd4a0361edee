// What the OAuth authorization server leaves in the store and nothing else removes, pruned by the
// janitor (docs/configuration.md "Crash leftovers"): shared records (device codes, sessions, consent interactions)
// an hour after they expired; a device code's poll times once the code is gone; and clients
// registered through dynamic registration with which no connection was made for
// UNUSED_CLIENT_RETENTION_MS (a connection lives as long, so such a client has none left; one never
// connected goes that long after its registration). Records bound to a connection go with it.
import type { DocumentRecord, Store } from '@kerf/store';
import { type PruneCursors, sweepOwned } from './owned-sweep.ts';
import { DEVICE_POLLS_COLLECTION, EXPIRED_DEVICE_CODE_GRACE_MS, OAUTH_OWNER, isLive, oauthCollection, type OAuthRecord } from './oauth-records.ts';

/** A registered client with no connection made for this long is deleted (30 days, a connection's lifetime). */
const UNUSED_CLIENT_RETENTION_MS = 30 * 24 * 60 * 60 * 1000;
/** The models whose records live under OAUTH_OWNER until they expire. */
const SHARED_MODELS = ['DeviceCode', 'Session', 'Interaction'] as const;

export interface OAuthPruned { expired: number; polls: number; clients: number }

export type { PruneCursors };

/** One pass at `now`. */
export async function pruneOAuthRecords(store: Store, now: Date, cursors: PruneCursors = new Map()): Promise<OAuthPruned> {
  const expiredBefore = new Date(now.getTime() - EXPIRED_DEVICE_CODE_GRACE_MS);
  let expired = 0;
  for (const model of SHARED_MODELS) {
    expired += await sweepOwned(model, oauthCollection(store, model), OAUTH_OWNER, cursors, (doc) => !isLive(doc.data, expiredBefore));
  }
  const codes = oauthCollection(store, 'DeviceCode');
  const polls = await sweepOwned(DEVICE_POLLS_COLLECTION, store.documents<unknown>(DEVICE_POLLS_COLLECTION), OAUTH_OWNER, cursors,
    async (doc) => doc.key !== null && !(await codes.getUnscoped(doc.key)));
  const clients = await sweepOwned('Client', oauthCollection(store, 'Client'), OAUTH_OWNER, cursors, (doc) => lastUse(doc) < now.getTime() - UNUSED_CLIENT_RETENTION_MS);
  return { expired, polls, clients };
}

/** When a connection was last made with a client, else when it registered (ms). */
function lastUse(doc: DocumentRecord<OAuthRecord>): number {
  const granted = doc.data.lastGrantAt ? Date.parse(doc.data.lastGrantAt) : NaN;
  return Number.isNaN(granted) ? Date.parse(doc.createdAt) : granted;
}
