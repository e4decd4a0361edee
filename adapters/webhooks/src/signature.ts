// The webhook signature (docs/api.md "Webhooks"): `X-SVC-Signature: v1=<hex HMAC-SHA256(secret, timestamp + "." + raw body)>`,
// several `v1=` values comma-separated while a secret is being rolled.
import { createHmac, timingSafeEqual } from 'node:crypto';

export const SIGNATURE_HEADER = 'x-svc-signature';
export const TIMESTAMP_HEADER = 'x-svc-timestamp';
export const EVENT_HEADER = 'x-svc-event';

type Body = string | Uint8Array;

/** Hex HMAC-SHA256 of `${timestamp}.${body}` with the secret. */
export function signWebhook(secret: string, timestamp: number | string, body: Body): string {
  const mac = createHmac('sha256', secret);
  mac.update(`${timestamp}.`, 'utf8');
  mac.update(typeof body === 'string' ? Buffer.from(body, 'utf8') : body);
  return mac.digest('hex');
}

/** The header value for these secrets, newest first: `v1=<a>,v1=<b>`. */
export function signatureHeader(secrets: string[], timestamp: number, body: Body): string {
  return secrets.map((s) => `v1=${signWebhook(s, timestamp, body)}`).join(',');
}

export type HeaderSource = Headers | Record<string, string | string[] | undefined>;

function header(headers: HeaderSource, name: string): string | null {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name);
  const rec = headers as Record<string, string | string[] | undefined>;
  const key = Object.keys(rec).find((k) => k.toLowerCase() === name);
  const v = key === undefined ? undefined : rec[key];
  return Array.isArray(v) ? v.join(',') : v ?? null;
}

export interface VerifyOptions {
  /** Largest accepted age (and clock skew) of X-SVC-Timestamp, seconds; default 300. */
  toleranceS?: number;
  /** The receiver's clock; default now. */
  now?: Date | number;
}

/**
 * Whether a delivery is genuine: X-SVC-Timestamp within the tolerance and one of the `v1=` values
 * of X-SVC-Signature matching the raw body (the bytes as received, never re-serialized), compared in
 * constant time. `secret` may list several (a receiver that is rolling its secret).
 * Throws a TypeError when no secret, or an empty one, is given: anyone can sign with the empty key,
 * so a receiver whose secret variable is unset must fail loudly rather than accept forgeries.
 */
export function verifyWebhook(rawBody: Body, headers: HeaderSource, secret: string | string[], opts: VerifyOptions = {}): boolean {
  const secrets = Array.isArray(secret) ? secret : [secret];
  if (!secrets.length || secrets.some((s) => typeof s !== 'string' || s.length === 0)) {
    throw new TypeError('verifyWebhook: the endpoint secret is missing or empty (is its environment variable set?)');
  }
  const ts = header(headers, TIMESTAMP_HEADER);
  const sig = header(headers, SIGNATURE_HEADER);
  if (!ts || !sig || !/^\d{1,12}$/.test(ts.trim())) return false;
  const now = opts.now === undefined ? Date.now() : typeof opts.now === 'number' ? opts.now : opts.now.getTime();
  const tolerance = opts.toleranceS ?? 300;
  if (Math.abs(now / 1000 - Number(ts.trim())) > tolerance) return false;
  const given = sig.split(',').map((p) => p.trim()).filter((p) => p.startsWith('v1=')).map((p) => p.slice(3));
  let ok = false;
  for (const s of secrets) {
    const expected = Buffer.from(signWebhook(s, ts.trim(), rawBody), 'hex');
    for (const g of given) {
      if (!/^[0-9a-f]{64}$/i.test(g)) continue;
      // every candidate is compared, so timing does not tell which (if any) matched
      if (timingSafeEqual(expected, Buffer.from(g, 'hex'))) ok = true;
    }
  }
  return ok;
}
