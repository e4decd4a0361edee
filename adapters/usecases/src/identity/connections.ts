// OAuth connections: an agent's grant on a person's account, listed and revoked on
// the account page. Only the person manages them: an API key or their web session, never an agent.
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  requireAccountOwner, SCOPES, type Caller, type Scope, type UseCaseContext, notFound, ConnectionInput, ListConnectionsInput,
  validateInput,
} from '../core/index.ts';
import { isLive, oauthCollection, oauthDocId, revokeGrantRecords } from './oauth-records.ts';

export interface Connection {
  id: string;
  object: 'connection';
  client_id: string;
  client_name: string;
  scopes: Scope[];
  created_at: string;
  last_used_at: string | null;
  expires_at: string | null;
}

/** Connections listed at once; a person with more revokes some first. */
const MAX_LISTED = 200;

function grantedScopes(payload: Record<string, unknown>): Scope[] {
  const resources = (payload.resources ?? {}) as Record<string, unknown>;
  const words = Object.values(resources).flatMap((s) => (typeof s === 'string' ? s.split(' ') : []));
  return SCOPES.filter((s) => words.includes(s));
}

export async function listConnections(ctx: UseCaseContext, caller: Caller, input: unknown): Promise<{ object: 'list'; data: Connection[] }> {
  requireAccountOwner(caller);
  validateInput(ListConnectionsInput, input ?? {});
  const page = await oauthCollection(ctx.store, 'Grant').list(caller.accountId, { limit: MAX_LISTED });
  const now = ctx.now();
  const data = page.items.filter((d) => isLive(d.data, now) && typeof d.data.payload.jti === 'string').map((d): Connection => {
    const p = d.data.payload;
    const clientId = String(p.clientId ?? '');
    return {
      id: String(p.jti),
      object: 'connection',
      client_id: clientId,
      client_name: d.data.clientName ?? clientId,
      scopes: grantedScopes(p),
      created_at: d.createdAt,
      last_used_at: d.data.lastUsedAt ?? null,
      expires_at: d.data.expiresAt,
    };
  });
  return { object: 'list', data };
}

/** Revokes the connection: its grant, refresh and access tokens stop working at once. */
export async function revokeConnection(ctx: UseCaseContext, caller: Caller, input: unknown): Promise<{ id: string; object: 'connection'; revoked: true }> {
  requireAccountOwner(caller);
  const { connection_id } = validateInput(ConnectionInput, input, { location: 'path' });
  const grant = await oauthCollection(ctx.store, 'Grant').get(caller.accountId, oauthDocId(connection_id));
  if (!grant) throw notFound('connection', connection_id, 'connection_id');
  await revokeGrantRecords(ctx.store, connection_id);
  return { id: connection_id, object: 'connection', revoked: true };
}

/**
 * What a consent grants: the requested scopes the person left checked; `payments` only together
 * with `carts`. Catalogs and the account summary need no scope.
 */
export function consentedScopes(requested: readonly string[], checked: readonly string[]): Scope[] {
  const granted = SCOPES.filter((s) => requested.includes(s) && checked.includes(s));
  return granted.includes('payments') && !granted.includes('carts') ? granted.filter((s) => s !== 'payments') : granted;
}

/** A pending authorization (authorize or device) as the consent page shows it. */
export interface ConsentRequest {
  uid: string;
  kind: 'authorization' | 'device';
  clientId: string;
  clientName: string;
  /** Where the browser goes back to (authorization requests); null for devices. */
  redirectHost: string | null;
  /** The API scopes the client asked for. */
  requestedScopes: string[];
}

/**
 * The port between the web site's consent page and the authorization server (the oauth adapter
 * fills it; the service hands it to the web plugin). It works on the raw request and response
 * because the authorization server keeps its interaction in its own cookies.
 */
export interface ConsentPort {
  /** The request behind the interaction cookie, or null when there is none or it expired. */
  request(req: IncomingMessage, res: ServerResponse): Promise<ConsentRequest | null>;
  /** Connects with the scopes granted (the others are declined); returns where the browser goes next. */
  approve(req: IncomingMessage, res: ServerResponse, accountId: string, granted: readonly string[]): Promise<string>;
  deny(req: IncomingMessage, res: ServerResponse): Promise<string>;
}
