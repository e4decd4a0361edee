// API key plaintext and its at-rest form. Keys carry 256 random bits, so a plain sha256 (no salt,
// no slow hash) is enough: there is nothing to brute-force, and lookup by hash stays an index hit.
import { createHash, randomBytes } from 'node:crypto';

const API_KEY_PREFIX = 'kerf_live_';
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const SECRET_CHARS = 43; // 43 base62 chars > 256 bits
/** Characters of the plaintext kept for display (`kerf_live_` + 4). */
const DISPLAY_PREFIX_CHARS = API_KEY_PREFIX.length + 4;
const API_KEY_PATTERN = new RegExp(`^${API_KEY_PREFIX}[0-9A-Za-z]{${SECRET_CHARS}}$`);

export function generateApiKey(): string {
  let secret = '';
  while (secret.length < SECRET_CHARS) {
    for (const b of randomBytes(64)) {
      // Rejection sampling keeps every character equally likely (248 = 4 * 62).
      if (b < 248 && secret.length < SECRET_CHARS) secret += BASE62[b % 62];
    }
  }
  return API_KEY_PREFIX + secret;
}

export function looksLikeApiKey(plaintext: unknown): plaintext is string {
  return typeof plaintext === 'string' && API_KEY_PATTERN.test(plaintext);
}

export function hashApiKey(plaintext: string): string {
  return createHash('sha256').update(plaintext, 'utf8').digest('hex');
}

export function displayPrefix(plaintext: string): string {
  return plaintext.slice(0, DISPLAY_PREFIX_CHARS);
}
