// Where the OAuth authorization server keeps its records (grants = connections, tokens, codes,
// registered clients), in the store's documents. The oauth adapter writes them through oidc-provider;
// the use cases read them to accept access tokens and to list and revoke a person's connections, so
// the layout is defined once, here.
//
// Layout: one collection per oidc-provider model (`oauth_accesstoken`, `oauth_grant`, ...). Document
// ids are sha256 of the artifact's id, so a leaked database holds no usable token. A grant is kept
// under its person's account (connections are listed by account); a token bound to a grant under
// the grant's id (revoking a connection lists its tokens); everything else under OAUTH_OWNER.
import { createHash } from 'node:crypto';
import { isStoreError, type DocumentCollection, type Store } from '@kerf/store';
import { SCOPES, type Caller } from '../core/index.ts';

export const OAUTH_OWNER = 'oauth';

/** The models whose records belong to a grant (revoked with it). */
export const GRANT_BOUND_MODELS = ['AccessToken', 'AuthorizationCode', 'RefreshToken', 'DeviceCode', 'BackchannelAuthenticationRequest'] as const;

export interface OAuthRecord {
  /** oidc-provider's payload, as it gave it. */
  payload: Record<string, unknown>;
  /** ISO time after which the record is gone; null: no expiry. */
  expiresAt: string | null;
  /** Grants only: when a token of this connection last authenticated a request. */
  lastUsedAt?: string | null;
  /** Grants only: the client's name as the person saw it on the consent page. */
  clientName?: string;
  /** Registered clients only: when a connection (grant) was last made with it. */
  lastGrantAt?: string | null;
}

/** The device flow's poll times (RFC 8628 slow_down), one per device code under OAUTH_OWNER, keyed by the code's document id. */
export const DEVICE_POLLS_COLLECTION = 'oauth_device_polls';

/** An expired device code is still found this long, so polling answers expired_token instead of an unknown code. */
export const EXPIRED_DEVICE_CODE_GRACE_MS = 60 * 60 * 1000;

export function oauthCollection(store: Store, model: string): DocumentCollection<OAuthRecord> {
  return store.documents<OAuthRecord>(`oauth_${model.toLowerCase()}`);
}

export function oauthDocId(id: string): string {
  return createHash('sha256').update(id).digest('base64url');
}

/** The owner a new record is kept under (see the layout above). */
export function oauthOwner(model: string, payload: Record<string, unknown>): string {
  if (model === 'Grant' && typeof payload.accountId === 'string') return payload.accountId;
  if ((GRANT_BOUND_MODELS as readonly string[]).includes(model) && typeof payload.grantId === 'string') return `grant:${payload.grantId}`;
  return OAUTH_OWNER;
}

export function isLive(record: OAuthRecord, now: Date): boolean {
  return record.expiresAt === null || Date.parse(record.expiresAt) > now.getTime();
}

/** A record by oidc-provider id, or null when missing or expired. */
export async function findOAuthRecord(store: Store, model: string, id: string, now: Date): Promise<{ owner: string; version: number; record: OAuthRecord } | null> {
  const doc = await oauthCollection(store, model).getUnscoped(oauthDocId(id));
  if (!doc || !isLive(doc.data, now)) return null;
  return { owner: doc.accountId, version: doc.version, record: doc.data };
}

/** Deletes every record bound to the grant, then the grant itself. */
export async function revokeGrantRecords(store: Store, grantId: string): Promise<void> {
  for (const model of GRANT_BOUND_MODELS) {
    const tokens = oauthCollection(store, model);
    for (;;) {
      const page = await tokens.list(`grant:${grantId}`, { limit: 500 });
      for (const doc of page.items) await tokens.delete(doc.accountId, doc.id);
      if (!page.hasMore) break;
    }
  }
  const grants = oauthCollection(store, 'Grant');
  const grant = await grants.getUnscoped(oauthDocId(grantId));
  if (grant) await grants.delete(grant.accountId, grant.id);
}

/**
 * Notes on a registered client that a connection was made with it (the janitor keeps clients in
 * use). Clients that are not stored (the device client, metadata-document clients) have nothing to note.
 */
export async function noteClientGrant(store: Store, clientId: string, now: Date): Promise<void> {
  const clients = oauthCollection(store, 'Client');
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const doc = await clients.getUnscoped(oauthDocId(clientId));
    if (!doc) return;
    try {
      await clients.update(doc.accountId, doc.id, { ...doc.data, lastGrantAt: now.toISOString() }, { expectedVersion: doc.version });
      return;
    } catch (err) {
      if (!isStoreError(err, 'conflict')) throw err;
    }
  }
}

/** How often a connection's last-used time is written (auth stays a read on hot paths). */
const LAST_USED_RESOLUTION_MS = 60_000;

/**
 * The caller behind an OAuth access token: live, its connection (grant) not revoked or expired,
 * scopes as granted. null when the token is not one of ours.
 */
export async function oauthCaller(store: Store, token: string, now: Date): Promise<Caller | null> {
  if (token.length > 200) return null;
  const found = await findOAuthRecord(store, 'AccessToken', token, now);
  if (!found) return null;
  const { payload } = found.record;
  if (typeof payload.grantId !== 'string' || typeof payload.accountId !== 'string') return null;
  // A token bound to a key (DPoP `jkt`, mTLS `x5t#S256`) is good only with proof of that key, which
  // this API does not check: never accept one as a plain Bearer token. None is issued now
  // (adapters/oauth/src/provider.ts turns DPoP off); this holds for any stored from before.
  if (payload.jkt !== undefined || payload['x5t#S256'] !== undefined) return null;
  const grants = oauthCollection(store, 'Grant');
  const grant = await grants.getUnscoped(oauthDocId(payload.grantId));
  if (!grant || !isLive(grant.data, now) || grant.accountId !== payload.accountId) return null;
  const lastUsed = grant.data.lastUsedAt ? Date.parse(grant.data.lastUsedAt) : 0;
  if (now.getTime() - lastUsed > LAST_USED_RESOLUTION_MS) {
    // a lost race with a concurrent write only loses this timestamp
    await grants.update(grant.accountId, grant.id, { ...grant.data, lastUsedAt: now.toISOString() }, { expectedVersion: grant.version }).catch(() => undefined);
  }
  const granted = typeof payload.scope === 'string' ? payload.scope.split(' ') : [];
  return {
    accountId: payload.accountId,
    scopes: SCOPES.filter((s) => granted.includes(s)),
    via: 'oauth',
    credentialId: payload.grantId,
    operator: false,
  };
}
