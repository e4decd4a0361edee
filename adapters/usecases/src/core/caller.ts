// Who is asking: every use case takes a Caller, and checks its scope itself, so REST, MCP, the web
// site and the CLI enforce the same rules (scopes: docs/agents.md "Agents: OAuth and the web sign-in"; catalogs are readable by all).
import { UseCaseError } from './errors.ts';

export const SCOPES = ['designs', 'dfm', 'quotes', 'carts', 'orders', 'webhooks', 'payments'] as const;
export type Scope = (typeof SCOPES)[number];
/**
 * Granted only when asked for and ticked by the person: a consent page shows them unchecked, and a
 * client that asks for no scope gets the others (DEFAULT_SCOPE in @kerf/oauth).
 */
export const OPTIONAL_SCOPES: readonly Scope[] = ['webhooks', 'payments'];

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
