// Who a request counts against under the rate limit (the limiter itself is the use cases'
// RateLimiter): a verified account, a signed link, else the client address the transport determined.
import { createHash } from 'node:crypto';
import { addressSubject, type Caller, type RateLimitState, type UrlSigner } from '@kerf/usecases';

/** The subject of a request: its verified caller's account, else its client address. */
export function requestSubject(caller: Pick<Caller, 'accountId'> | null | undefined, ip: string): string {
  return caller ? `acct:${caller.accountId}` : addressSubject(ip);
}

/** The subject of a request whose credential is a signed link (an upload link): the link when it verifies, else null. */
export function signedLinkSubject(signer: UrlSigner, token: string | undefined): string | null {
  if (!token) return null;
  const grant = signer.verify(token);
  return typeof grant === 'object' ? `link:${createHash('sha256').update(grant.k).digest('hex').slice(0, 32)}` : null;
}

/** The X-RateLimit-* headers of a counted request (the use case counts; header names belong to the transport). */
export function rateLimitHeaders(state: RateLimitState): Record<string, string> {
  return { 'x-ratelimit-limit': String(state.limit), 'x-ratelimit-remaining': String(state.remaining), 'x-ratelimit-reset': String(state.resetSeconds) };
}
