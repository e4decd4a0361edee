// Who is asking: every use case takes a Caller, and checks its scope itself, so REST, MCP, the web
// site and the CLI enforce the same rules (scopes: README.md "Agents: OAuth and the web sign-in"; catalogs are readable by all).
import type { Store } from '@kerf/store';
import { UseCaseError } from './errors.ts';
import { oauthCaller } from './oauth-records.ts';

export const SCOPES = ['designs', 'dfm', 'quotes', 'carts', 'orders', 'webhooks', 'payments'] as const;
export type Scope = (typeof SCOPES)[number];

/** How the caller came in. */
export type CallerVia = 'api_key' | 'oauth' | 'session' | 'cli';

export interface Caller {
  accountId: string;
  scopes: readonly Scope[];
  via: CallerVia;
  /** the API key (or token) id, for logs */
  credentialId: string | null;
  /** may call operator actions */
  operator: boolean;
}

/** An API key stands for its account: every scope. */
export function apiKeyCaller(key: { accountId: string; keyId: string; operator: boolean }): Caller {
  return { accountId: key.accountId, scopes: SCOPES, via: 'api_key', credentialId: key.keyId, operator: key.operator };
}

/** The local CLI runs as its user on their own files: no account, every scope. */
export function localCaller(): Caller {
  return { accountId: 'local', scopes: SCOPES, via: 'cli', credentialId: null, operator: false };
}

export function requireScope(caller: Caller, scope: Scope): void {
  if (!caller.scopes.includes(scope)) {
    throw new UseCaseError('forbidden', 'permission_error', 'insufficient_scope',
      `This credential lacks the '${scope}' scope needed for this operation; reconnect granting it.`, { details: { required_scope: scope } });
  }
}

/** The credential of an `Authorization: Bearer <token>` header value (RFC 6750); null when absent or of another form. */
export function parseBearer(header: string | undefined): string | null {
  const m = header === undefined ? null : /^Bearer\s+(\S+)\s*$/i.exec(header);
  return m ? m[1] : null;
}

/**
 * The caller behind a bearer credential (null: none was sent): an API key (every scope) or an OAuth
 * access token (the scopes its connection granted). Header syntax is the transport's;
 * this decides whether the credential is good.
 */
export async function authenticate(store: Store, token: string | null, malformedHeader = false, now: Date = new Date()): Promise<Caller> {
  if (!token) {
    throw malformedHeader
      ? new UseCaseError('unauthenticated', 'authentication_error', 'invalid_authorization_header', 'The Authorization header must be `Bearer <API key>`.')
      : new UseCaseError('unauthenticated', 'authentication_error', 'missing_api_key', 'No API key provided: send `Authorization: Bearer <API key>`.');
  }
  const key = await store.apiKeys.authenticate(token);
  if (key) return apiKeyCaller(key);
  const agent = await oauthCaller(store, token, now);
  if (agent) return agent;
  throw new UseCaseError('unauthenticated', 'authentication_error', 'invalid_api_key', 'The API key or access token is not valid, has expired or has been revoked.');
}

/**
 * Account management (API keys, saved cards, web sessions, connections) is for the person: an API
 * key or their signed-in session, never an agent's OAuth token.
 */
export function requireAccountOwner(caller: Caller): void {
  if (caller.via === 'oauth') {
    throw new UseCaseError('forbidden', 'permission_error', 'agent_not_allowed',
      'Agent credentials (OAuth access tokens) cannot manage API keys, saved cards, web sessions or connections; do this on the account page.');
  }
}
