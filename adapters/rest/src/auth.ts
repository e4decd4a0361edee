// Bearer credentials: the header's syntax is HTTP's, whether the credential is good is the use
// cases' (authenticate). A request that passes carries its Caller; every lookup is scoped to it.
import type { FastifyRequest } from 'fastify';
import type { Store } from '@kerf/store';
import { authenticate, parseBearer, type Caller } from '@kerf/usecases';
import { HttpError } from './http-errors.ts';

declare module 'fastify' {
  interface FastifyRequest {
    caller?: Caller;
    /** Why authentication failed: thrown once the rate limiter has counted the request. */
    authError?: unknown;
  }
}

/** The dropship API's legacy credential header (docs/commerce.md "Dropship"): the API key itself. */
const LEGACY_KEY_HEADER = 'svc_key';

function bearerToken(request: FastifyRequest): string | null {
  const h = request.headers.authorization;
  if (typeof h !== 'string') {
    const legacy = request.headers[LEGACY_KEY_HEADER];
    return typeof legacy === 'string' && legacy.trim() && request.url.startsWith('/v1/dropship') ? legacy.trim() : null;
  }
  return parseBearer(h);
}

export async function authenticateRequest(store: Store, request: FastifyRequest): Promise<Caller> {
  return authenticate(store, bearerToken(request), typeof request.headers.authorization === 'string');
}

/** The authenticated caller of a route (auth ran in onRequest). */
export function callerOf(request: FastifyRequest): Caller {
  if (!request.caller) throw new HttpError(401, 'authentication_error', 'missing_api_key', 'Authentication required.');
  return request.caller;
}
