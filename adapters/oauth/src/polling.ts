// RFC 8628 3.5 polling discipline, which oidc-provider leaves to the server: a device code polled
// sooner than its interval answers slow_down and its interval grows by 5 seconds for good. Kept in
// the store, so every process of the service counts the same polls.
import { isStoreError, type Store } from '@kerf/store';
import { DEVICE_POLLS_COLLECTION, OAUTH_OWNER, findOAuthRecord, oauthDocId } from '@kerf/usecases';

export const DEVICE_POLL_INTERVAL_S = 5;
const SLOW_DOWN_STEP_S = 5;

interface PollDoc { lastPollAt: number; intervalS: number }

/** Records a poll; returns the new interval when it came too soon (answer slow_down), else null. */
export async function tooSoon(store: Store, deviceCode: string, now: number = Date.now()): Promise<number | null> {
  // only codes this server issued are counted (a made-up code is oidc-provider's invalid_grant)
  if (!(await findOAuthRecord(store, 'DeviceCode', deviceCode, new Date(now)))) return null;
  const docs = store.documents<PollDoc>(DEVICE_POLLS_COLLECTION);
  const key = oauthDocId(deviceCode);
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const doc = await docs.getByKey(OAUTH_OWNER, key);
    try {
      if (!doc) {
        await docs.create(OAUTH_OWNER, { lastPollAt: now, intervalS: DEVICE_POLL_INTERVAL_S }, { key });
        return null;
      }
      const early = now - doc.data.lastPollAt < doc.data.intervalS * 1000;
      const intervalS = early ? doc.data.intervalS + SLOW_DOWN_STEP_S : doc.data.intervalS;
      await docs.update(OAUTH_OWNER, doc.id, { lastPollAt: now, intervalS }, { expectedVersion: doc.version });
      return early ? intervalS : null;
    } catch (err) {
      if (!isStoreError(err, 'conflict') && !isStoreError(err, 'duplicate')) throw err;
    }
  }
  return DEVICE_POLL_INTERVAL_S; // polled from several places at once: too soon by definition
}
