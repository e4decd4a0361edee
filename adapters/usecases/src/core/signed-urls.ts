// Short-lived download tokens (behind the 307 targets): the token names a blob and how to send it,
// signed with HMAC-SHA256 under a server secret shared by every process on a store. Where a token is
// redeemed is the transport's (Links.download).
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { isStoreError, type Store } from '@kerf/store';

export const SIGNED_URL_TTL_MS = 15 * 60 * 1000;

export interface DownloadGrant {
  /** blob key */
  k: string;
  /** content type */
  t: string;
  /** file name for Content-Disposition */
  n: string;
  /** expiry, unix ms */
  e: number;
}

export class UrlSigner {
  constructor(private readonly secret: Buffer, private readonly now: () => Date = () => new Date()) {}

  sign(grant: Omit<DownloadGrant, 'e'>, ttlMs = SIGNED_URL_TTL_MS): string {
    const payload = Buffer.from(JSON.stringify({ ...grant, e: this.now().getTime() + ttlMs })).toString('base64url');
    return `${payload}.${this.mac(payload)}`;
  }

  /** The grant of a token, or why it is refused. */
  verify(token: string): DownloadGrant | 'invalid' | 'expired' {
    const dot = token.lastIndexOf('.');
    if (dot <= 0) return 'invalid';
    const payload = token.slice(0, dot);
    // compared as text, not decoded: base64url's last character has spare bits, so a decoded
    // comparison accepts several spellings of one MAC (and a tampered link may still work)
    const given = Buffer.from(token.slice(dot + 1), 'latin1');
    const want = Buffer.from(this.mac(payload), 'latin1');
    if (given.length !== want.length || !timingSafeEqual(given, want)) return 'invalid';
    let grant: DownloadGrant;
    try { grant = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as DownloadGrant; } catch { return 'invalid'; }
    if (typeof grant.e !== 'number' || typeof grant.k !== 'string') return 'invalid';
    if (grant.e < this.now().getTime()) return 'expired';
    return grant;
  }

  private mac(payload: string): string {
    return createHmac('sha256', this.secret).update(payload).digest('base64url');
  }
}

const SYSTEM_ACCOUNT = 'system';
const SECRET_KEY = 'url_signing_secret';

/**
 * The signing secret kept in the store, so that every process on it signs alike and restarts keep
 * links valid. Created with a unique key: of two processes starting together, one wins and both use it.
 */
export async function loadSigningSecret(store: Store): Promise<Buffer> {
  const settings = store.documents<{ value: string }>('settings', { idPrefix: 'set' });
  const existing = await settings.getByKey(SYSTEM_ACCOUNT, SECRET_KEY);
  if (existing) return Buffer.from(existing.data.value, 'base64');
  try {
    const created = await settings.create(SYSTEM_ACCOUNT, { value: randomBytes(32).toString('base64') }, { key: SECRET_KEY });
    return Buffer.from(created.data.value, 'base64');
  } catch (err) {
    if (!isStoreError(err, 'duplicate')) throw err;
    const winner = await settings.getByKey(SYSTEM_ACCOUNT, SECRET_KEY);
    return Buffer.from(winner!.data.value, 'base64');
  }
}
