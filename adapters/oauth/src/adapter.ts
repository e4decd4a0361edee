// oidc-provider's storage Adapter over the store port (documents; layout in @kerf/usecases
// oauth-records), so the authorization server runs on the embedded SQLite store and on MongoDB alike
// and every service process sees the same grants and tokens.
import { isStoreError, type Store } from '@kerf/store';
import { EXPIRED_DEVICE_CODE_GRACE_MS, OAUTH_OWNER, GRANT_BOUND_MODELS, noteClientGrant, oauthCollection, oauthDocId, oauthOwner, isLive, revokeGrantRecords, type OAuthRecord } from '@kerf/usecases';
import type { Adapter, AdapterPayload } from 'oidc-provider';

/** Shared (not per-connection) records are pruned on every PRUNE_EVERY-th create, PRUNE_BATCH oldest at a time. */
const PRUNE_EVERY = 50;
const PRUNE_BATCH = 200;

/** The instant a record with `expiresIn` seconds left expires, or null. */
function expiry(now: Date, expiresIn: number | undefined): string | null {
  return typeof expiresIn === 'number' ? new Date(now.getTime() + expiresIn * 1000).toISOString() : null;
}

/** The lookup key of a record found by a value other than its id (a device's user code, a session's uid). */
function secondaryKey(payload: AdapterPayload): string | undefined {
  if (typeof payload.userCode === 'string') return `user_code:${oauthDocId(payload.userCode)}`;
  if (typeof payload.uid === 'string') return `uid:${oauthDocId(payload.uid)}`;
  return undefined;
}

export class StoreAdapter implements Adapter {
  private readonly docs;
  private creates = 0;

  constructor(private readonly store: Store, private readonly model: string, private readonly now: () => Date = () => new Date()) {
    this.docs = oauthCollection(store, model);
  }

  async upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void> {
    const docId = oauthDocId(id);
    const record: OAuthRecord = { payload: payload as Record<string, unknown>, expiresAt: expiry(this.now(), expiresIn) };
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const existing = await this.docs.getUnscoped(docId);
      if (existing) {
        // fields kept beside oidc-provider's payload (a grant's last use) survive its rewrites
        const next: OAuthRecord = { ...existing.data, ...record };
        try {
          await this.docs.update(existing.accountId, docId, next, { expectedVersion: existing.version });
          await this.noteGrant(record.payload);
          return;
        } catch (err) {
          if (!isStoreError(err, 'conflict')) throw err;
          continue;
        }
      }
      const key = secondaryKey(payload);
      const owner = oauthOwner(this.model, record.payload);
      try {
        await this.docs.create(owner, record, { id: docId, ...(key ? { key } : {}) });
        await this.pruneAfterCreate(owner);
        await this.noteGrant(record.payload);
        return;
      } catch (err) {
        if (!isStoreError(err, 'duplicate')) throw err;
      }
    }
    throw new Error(`could not write ${this.model} ${docId}: concurrent writers`);
  }

  async find(id: string): Promise<AdapterPayload | undefined> {
    return this.live(await this.docs.getUnscoped(oauthDocId(id)));
  }

  async findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
    return this.live(await this.docs.getByKey(OAUTH_OWNER, `user_code:${oauthDocId(userCode)}`));
  }

  async findByUid(uid: string): Promise<AdapterPayload | undefined> {
    return this.live(await this.docs.getByKey(OAUTH_OWNER, `uid:${oauthDocId(uid)}`));
  }

  /**
   * Marks a code or refresh token used, once: of two requests that both read it unused, the second
   * loses the optimistic write and is treated as a reuse (the connection is revoked), so a token
   * can never be exchanged twice, even by concurrent requests in different processes.
   */
  async consume(id: string): Promise<void> {
    const doc = await this.docs.getUnscoped(oauthDocId(id));
    if (!doc) return;
    const reused = async (): Promise<never> => {
      const grantId = doc.data.payload.grantId;
      if (typeof grantId === 'string') await revokeGrantRecords(this.store, grantId);
      // loaded by createProvider already (never at import: see there)
      const { errors } = await import('oidc-provider');
      throw new errors.InvalidGrant(`${this.model} already used`);
    };
    if (doc.data.payload.consumed) return reused();
    const next: OAuthRecord = { ...doc.data, payload: { ...doc.data.payload, consumed: Math.floor(this.now().getTime() / 1000) } };
    try {
      await this.docs.update(doc.accountId, doc.id, next, { expectedVersion: doc.version });
    } catch (err) {
      if (isStoreError(err, 'conflict')) return reused();
      throw err;
    }
  }

  async destroy(id: string): Promise<void> {
    const doc = await this.docs.getUnscoped(oauthDocId(id));
    if (doc) await this.docs.delete(doc.accountId, doc.id);
  }

  async revokeByGrantId(grantId: string): Promise<void> {
    if (this.model === 'Grant' || (GRANT_BOUND_MODELS as readonly string[]).includes(this.model)) {
      await revokeGrantRecords(this.store, grantId);
    }
  }

  /**
   * Expired records are deleted as new ones are written beside them: a connection's tokens on each
   * token it gets (few stay live), the shared codes, sessions and interactions every PRUNE_EVERY
   * creates, oldest first.
   */
  private async pruneAfterCreate(owner: string): Promise<void> {
    if (owner === OAUTH_OWNER && (this.creates = (this.creates + 1) % PRUNE_EVERY) !== 0) return;
    if (owner !== OAUTH_OWNER && !owner.startsWith('grant:')) return;
    const cutoff = new Date(this.now().getTime() - EXPIRED_DEVICE_CODE_GRACE_MS);
    const page = await this.docs.list(owner, { limit: PRUNE_BATCH, order: 'asc' });
    for (const doc of page.items) {
      if (!isLive(doc.data, cutoff)) await this.docs.delete(doc.accountId, doc.id);
    }
  }

  /** A connection written: its client is in use (the janitor prunes clients unused for long). */
  private async noteGrant(payload: Record<string, unknown>): Promise<void> {
    if (this.model === 'Grant' && typeof payload.clientId === 'string') await noteClientGrant(this.store, payload.clientId, this.now());
  }

  private live(doc: { data: OAuthRecord } | null): AdapterPayload | undefined {
    if (!doc) return undefined;
    // a device code is handed back for a while after it expired, so polling answers expired_token
    // (oidc-provider checks `exp` itself) instead of an unknown code
    const grace = this.model === 'DeviceCode' ? EXPIRED_DEVICE_CODE_GRACE_MS : 0;
    if (!isLive(doc.data, new Date(this.now().getTime() - grace))) return undefined;
    return doc.data.payload as AdapterPayload;
  }
}

/** The adapter factory oidc-provider takes (`adapter` option). */
export function storeAdapter(store: Store, now?: () => Date): new (model: string) => Adapter {
  return class extends StoreAdapter {
    constructor(model: string) { super(store, model, now); }
  };
}
