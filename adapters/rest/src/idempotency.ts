// Idempotency-Key on POST (interface.md rule 7): runs after validation so an invalid request never
// consumes a key. Same key + same request while running -> 409 idempotency_key_in_use; finished ->
// the stored response again with Idempotent-Replayed: true; different request -> 409
// idempotency_key_reused. 5xx responses are forgotten so a retry runs again.
import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Store } from '@kerf/store';
import { HttpError } from './http-errors.ts';
import { callerOf } from './auth.ts';
import { isMultipartBody } from './multipart.ts';

const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;
/** Response headers worth replaying. */
const REPLAYED_HEADERS = ['location', 'preference-applied'];

declare module 'fastify' {
  interface FastifyRequest { idempotencyKey?: string }
}

export function fingerprint(request: FastifyRequest): string {
  const h = createHash('sha256');
  h.update(`${request.method} ${request.routeOptions.url}\n`);
  const body = request.body;
  if (isMultipartBody(body)) {
    for (const name of Object.keys(body.files).sort()) {
      const f = body.files[name];
      h.update(`file ${name} ${f.filename} `).update(createHash('sha256').update(f.bytes).digest('hex')).update('\n');
    }
    for (const name of Object.keys(body.fields).sort()) h.update(`field ${name}=${JSON.stringify(body.fields[name])}\n`);
  } else {
    h.update(JSON.stringify(body ?? null));
  }
  return h.digest('hex');
}

/** preHandler: returns true when the reply was already sent (replay or conflict). */
export async function beginIdempotent(store: Store, request: FastifyRequest, reply: FastifyReply): Promise<boolean> {
  const raw = request.headers['idempotency-key'];
  if (raw === undefined) return false;
  const key = Array.isArray(raw) ? raw[0] : raw;
  if (!KEY_PATTERN.test(key)) {
    throw new HttpError(400, 'invalid_request_error', 'invalid_idempotency_key', 'Idempotency-Key must be 1-255 printable ASCII characters.', { param: 'Idempotency-Key' });
  }
  const { accountId } = callerOf(request);
  const result = await store.idempotency.begin(accountId, key, fingerprint(request));
  switch (result.state) {
    case 'started':
      request.idempotencyKey = key;
      return false;
    case 'replay':
      for (const [k, v] of Object.entries(result.headers)) reply.header(k, v);
      reply.header('idempotent-replayed', 'true');
      // A replayed creation is not a second creation (interface.md: 200 idempotent replay).
      await reply.code(result.status === 201 ? 200 : result.status).type('application/json').send(result.body);
      return true;
    case 'mismatch':
      throw new HttpError(409, 'idempotency_error', 'idempotency_key_reused',
        'This Idempotency-Key was already used with a different request; use a new key for a new request.', { param: 'Idempotency-Key', retryable: false });
    case 'in_progress':
      throw new HttpError(409, 'idempotency_error', 'idempotency_key_in_use',
        'A request with this Idempotency-Key is still being processed; retry after a moment.', { param: 'Idempotency-Key', retryable: true, retryAfterSeconds: 1 });
  }
}

/** onSend: remember the response for replays (or forget the key after a 5xx). */
export async function finishIdempotent(store: Store, request: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<void> {
  const key = request.idempotencyKey;
  if (!key || !request.caller) return;
  request.idempotencyKey = undefined;
  const { accountId } = request.caller;
  if (reply.statusCode >= 500) { await store.idempotency.abandon(accountId, key); return; }
  let body: unknown = null;
  if (typeof payload === 'string') { try { body = JSON.parse(payload); } catch { body = payload; } }
  const headers: Record<string, string> = {};
  for (const h of REPLAYED_HEADERS) {
    const v = reply.getHeader(h);
    if (typeof v === 'string') headers[h] = v;
  }
  await store.idempotency.finish(accountId, key, { status: reply.statusCode, body, headers });
}
