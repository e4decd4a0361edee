// Opaque resource ids: `<prefix>_<time><random>`, the one form of the store's ids and the use cases'
// (the service hands newId to them as the context's). The time part (ms, Crockford base32) makes ids
// created later sort later, which keeps (createdAt, id) ordering close to insertion order and puts a
// new id at the end of an index (random ids put each new quote on a page of its own in the primary
// key's index); the 80 random bits make them unguessable.
import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';
const TIME_CHARS = 10; // 50 bits of milliseconds: enough until the year 37000
const RANDOM_CHARS = 16; // 80 bits

/** Random bytes drawn per refill: one randomBytes call serves hundreds of ids (it costs ~2 us a call). */
const POOL_BYTES = 4096;

let pool = Buffer.alloc(0);
let used = 0;

/** `n` (<= POOL_BYTES) fresh random bytes, each handed out once, from a pool refilled by randomBytes. */
export function pooledRandomBytes(n: number): Buffer {
  if (used + n > pool.length) {
    pool = randomBytes(POOL_BYTES);
    used = 0;
  }
  const bytes = pool.subarray(used, used + n);
  used += n;
  return bytes;
}

export function newId(prefix: string, now: Date = new Date()): string {
  return idOf(prefix, now.getTime(), pooledRandomBytes(RANDOM_CHARS));
}

/**
 * newId's shape from given parts: `timeMs` (whole ms, 0 <= timeMs < 2^50) and `bytes` (at least 16;
 * each gives one character). For ids that must come out the same again (an idempotent request's).
 */
export function idOf(prefix: string, timeMs: number, bytes: Uint8Array): string {
  let t = timeMs;
  let time = '';
  for (let i = 0; i < TIME_CHARS; i++) {
    time = ALPHABET[t % 32] + time;
    t = Math.floor(t / 32);
  }
  let rand = '';
  for (let i = 0; i < RANDOM_CHARS; i++) rand += ALPHABET[bytes[i] % 32];
  return `${prefix}_${time}${rand}`;
}
