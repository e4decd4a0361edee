// Who a request counts against, and where the counts live. A request with a verified credential
// counts against its account; every other request (no credential, a wrong one, public routes)
// against its client address, so random tokens and failed authentications are limited like anything
// else. The address is the socket's unless the service trusts a proxy (fastify's trustProxy), and an
// IPv6 client counts by its /64, the block one subscriber gets.
//
// The counts are fixed windows in memory, bounded: when full, expired entries are swept; a new key
// that still finds no room shares one overflow bucket. Counts of live keys are never dropped to make
// room (an LRU would hand a flooded-out key a fresh window).
import type { FastifyRequest } from 'fastify';
import type { FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import { isIPv6 } from 'node:net';

/** Keys the in-memory counter keeps at once (per process). */
export const DEFAULT_RATE_LIMIT_KEYS = 50_000;
const OVERFLOW_KEY = '~overflow';

export function rateLimitKey(request: FastifyRequest): string {
  if (request.caller) return `acct:${request.caller.accountId}`;
  const ip = request.ip;
  if (isIPv6(ip) && !ip.startsWith('::ffff:')) return `ip6:${ipv6Prefix64(ip)}`;
  return `ip:${ip}`;
}

/** The first four groups of an IPv6 address, expanded ('2001:db8::1' -> '2001:db8:0:0'). */
function ipv6Prefix64(ip: string): string {
  const [head, tail = ''] = ip.split('%')[0].split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = ip.includes('::') ? [...left, ...Array(8 - left.length - right.length).fill('0'), ...right] : left;
  return groups.slice(0, 4).map((g) => g.toLowerCase().replace(/^0+(?=.)/, '')).join(':');
}

interface Window { current: number; startMs: number }
type Callback = (err: Error | null, res: { current: number; ttl: number }) => void;

/** A store for @fastify/rate-limit (its `store` option): `incr`, `read`, `child`. */
export function boundedStore(maxKeys: number): FastifyRateLimitStoreCtor {
  const windows = new Map<string, Window>();
  let lastSweep = 0;
  const sweep = (now: number, timeWindow: number): void => {
    // at most once per window: a full map of live keys must not cost a scan per request
    if (now - lastSweep < timeWindow) return;
    lastSweep = now;
    for (const [k, w] of windows) if (w.startMs + timeWindow <= now) windows.delete(k);
  };
  return class BoundedStore {
    incr(key: string, cb: Callback, timeWindow: number): void {
      const now = Date.now();
      let w = windows.get(key);
      if (!w) {
        if (windows.size >= maxKeys) sweep(now, timeWindow);
        if (windows.size >= maxKeys) key = OVERFLOW_KEY;
        w = windows.get(key);
      }
      if (!w || w.startMs + timeWindow <= now) {
        w = { current: 0, startMs: now };
        windows.set(key, w);
      }
      w.current++;
      cb(null, { current: w.current, ttl: w.startMs + timeWindow - now });
    }

    read(key: string, cb: Callback, timeWindow: number): void {
      const now = Date.now();
      const w = windows.get(key);
      if (!w || w.startMs + timeWindow <= now) cb(null, { current: 0, ttl: 0 });
      else cb(null, { current: w.current, ttl: w.startMs + timeWindow - now });
    }

    child(): BoundedStore { return this; }
  };
}
