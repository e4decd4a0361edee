// Bearer authentication against the store's API keys. 401 without or with a bad credential; a
// request that passes carries its account, and every lookup is scoped to it (foreign ids are 404).
import type { FastifyRequest } from 'fastify';
import type { Store } from '@kerf/store';
import { ApiError } from '@kerf/usecases/errors.ts';

export interface Caller { accountId: string; keyId: string; operator: boolean }

declare module 'fastify' {
  interface FastifyRequest { caller?: Caller }
}

export function bearerToken(request: FastifyRequest): string | null {
  const h = request.headers.authorization;
  if (typeof h !== 'string') return null;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(h);
  return m ? m[1] : null;
}

export async function authenticate(store: Store, request: FastifyRequest): Promise<Caller> {
  const token = bearerToken(request);
  if (!token) {
    const hasHeader = typeof request.headers.authorization === 'string';
    throw new ApiError(401, 'authentication_error', hasHeader ? 'invalid_authorization_header' : 'missing_api_key',
      hasHeader ? 'The Authorization header must be `Bearer <API key>`.' : 'No API key provided: send `Authorization: Bearer <API key>`.',
      { headers: { 'www-authenticate': 'Bearer realm="kerf"' } });
  }
  const key = await store.apiKeys.authenticate(token);
  if (!key) {
    throw new ApiError(401, 'authentication_error', 'invalid_api_key', 'The API key is not valid or has been revoked.',
      { headers: { 'www-authenticate': 'Bearer realm="kerf", error="invalid_token"' } });
  }
  return { accountId: key.accountId, keyId: key.keyId, operator: key.operator };
}

/** The authenticated caller of a route (auth ran in onRequest). */
export function callerOf(request: FastifyRequest): Caller {
  if (!request.caller) throw new ApiError(401, 'authentication_error', 'missing_api_key', 'Authentication required.');
  return request.caller;
}
