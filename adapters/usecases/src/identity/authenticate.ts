// Turning a credential into a Caller: an API key (every scope) or an agent's OAuth access token (the
// scopes its connection granted). Transports parse their headers and hand the credential here.
import type { Store } from '@kerf/store';
import { UseCaseError, apiKeyCaller, type Caller } from '../core/index.ts';
import { oauthCaller } from './oauth-records.ts';

/**
 * The two ways in, named to every caller that sent none: agents that sign in with OAuth read this
 * as much as scripts holding an API key do.
 */
const WAYS_IN = 'Either an API key (made on the account page of the web site) or an OAuth access token (an agent signs in through the authorization server named at /.well-known/oauth-protected-resource).';

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
      ? new UseCaseError('unauthenticated', 'authentication_error', 'invalid_authorization_header', `The Authorization header must be \`Bearer <API key or OAuth access token>\`. ${WAYS_IN}`)
      : new UseCaseError('unauthenticated', 'authentication_error', 'missing_api_key', `No credentials provided: send \`Authorization: Bearer <API key or OAuth access token>\`. ${WAYS_IN}`);
  }
  const key = await store.apiKeys.authenticate(token);
  if (key) return apiKeyCaller(key);
  const agent = await oauthCaller(store, token, now);
  if (agent) return agent;
  throw new UseCaseError('unauthenticated', 'authentication_error', 'invalid_api_key', 'The API key or access token is not valid, has expired or has been revoked.');
}
