// Request ids of every transport are ours (`req_...`): error envelopes and logs carry them.
import { pooledRandomBytes } from '@kerf/common';

/** Request ids are ours (`req_...`); a caller-supplied X-Request-Id is kept only when it is short and printable. */
export function genRequestId(req: { headers: Record<string, string | string[] | undefined> }): string {
  const given = req.headers['x-request-id'];
  if (typeof given === 'string' && /^[A-Za-z0-9_.:-]{8,64}$/.test(given)) return given;
  // from the store's pooled draw: a randomBytes call per request was ~2 % of a quote's main thread
  return `req_${pooledRandomBytes(12).toString('base64url')}`;
}
