// The rate limit every transport applies: who a request counts against, and the counting.
//
// A request with a verified credential counts against its account (or, for a signed link, against
// that link); every other request (no credential, a wrong one, a public route) against its client
// address, so random tokens and failed authentications are limited like anything else. The address
// is the one the transport determined (fastify's trustProxy: X-Forwarded-For only from a configured
// proxy); an IPv6 client counts by its /64, the block one subscriber gets.
//
// The counts live in the store (RateCounters, shared by every process on it) or, when the service
// is told so, in a bounded map in this process: when full, ended windows are swept; a new key that
// still finds no room shares one overflow count. Live keys' counts are never dropped to make room
// (an LRU would hand a flooded-out key a fresh window).
import { isIPv6 } from 'node:net';
import type { RateCount, RateCounters } from '@kerf/store';
import { UseCaseError } from './errors.ts';

/** Keys the in-process counter keeps at once. */
export const DEFAULT_RATE_LIMIT_KEYS = 50_000;
const OVERFLOW_KEY = '~overflow';

export interface RateLimit {
  /** Requests allowed per window. */
  max: number;
  windowMs: number;
}

/** Where a counted request stands, for the transport's X-RateLimit-* headers. */
export interface RateLimitState {
  limit: number;
  remaining: number;
  resetSeconds: number;
}

/** The subject of a request from a client address. */
export function addressSubject(ip: string): string {
  if (isIPv6(ip) && !ip.toLowerCase().startsWith('::ffff:')) return `ip6:${ipv6Prefix64(ip)}`;
  return `ip:${ip.toLowerCase().replace(/^::ffff:/, '')}`;
}

/** The first four groups of an IPv6 address, expanded ('2001:db8::1' -> '2001:db8:0:0'). */
function ipv6Prefix64(ip: string): string {
  const [head, tail = ''] = ip.split('%')[0].split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = ip.includes('::') ? [...left, ...Array(8 - left.length - right.length).fill('0'), ...right] : left;
  return groups.slice(0, 4).map((g) => g.toLowerCase().replace(/^0+(?=.)/, '')).join(':');
}

/** A limit over counters: `take` counts one request of a subject and refuses it past the limit. */
export class RateLimiter {
  /** `scope` keeps this limit's counts apart from other limits' on the same counters. */
  constructor(readonly limit: RateLimit, private readonly counters: RateCounters, private readonly scope = 'req') {}

  /** Counts the request; past the limit throws rate_limit_exceeded with Retry-After (the window's end). */
  async take(subject: string): Promise<RateLimitState> {
    const { max, windowMs } = this.limit;
    const { count, ttlMs } = await this.counters.hit(`${this.scope}:${subject}`, windowMs);
    const resetSeconds = Math.max(1, Math.ceil(ttlMs / 1000));
    if (count > max) {
      throw new UseCaseError('rate_limited', 'rate_limit_error', 'rate_limit_exceeded',
        `Rate limit exceeded: at most ${max} requests per ${Math.round(windowMs / 1000)} s; retry after ${resetSeconds} s.`, { retryable: true, retryAfterSeconds: resetSeconds });
    }
    return { limit: max, remaining: max - count, resetSeconds };
  }
}

interface Window { count: number; endMs: number }

/** Counters in this process's memory, at most `maxKeys` keys (one process: no sharing). */
export function boundedRateCounters(maxKeys = DEFAULT_RATE_LIMIT_KEYS, now: () => number = Date.now): RateCounters {
  const windows = new Map<string, Window>();
  let lastSweep = 0;
  const sweep = (at: number, windowMs: number): void => {
    // at most once per window: a full map of live keys must not cost a scan per request
    if (at - lastSweep < windowMs) return;
    lastSweep = at;
    for (const [k, w] of windows) if (w.endMs <= at) windows.delete(k);
  };
  return {
    async hit(key: string, windowMs: number): Promise<RateCount> {
      const at = now();
      let w = windows.get(key);
      if (!w) {
        if (windows.size >= maxKeys) sweep(at, windowMs);
        if (windows.size >= maxKeys) key = OVERFLOW_KEY;
        w = windows.get(key);
      }
      if (!w || w.endMs <= at) {
        w = { count: 0, endMs: at + windowMs };
        windows.set(key, w);
      }
      w.count++;
      return { count: w.count, ttlMs: Math.max(1, w.endMs - at) };
    },
  };
}
