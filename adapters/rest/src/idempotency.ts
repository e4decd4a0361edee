// Idempotency-Key on POST (docs/api.md "Idempotency"): runs after validation so an invalid request never
// consumes a key. Same key + same request while running -> 409 idempotency_key_in_use; finished ->
// the stored response again with Idempotent-Replayed: true; different request -> 409
// idempotency_key_reused.
//
// Crash safety: a running request renews its key every third of the lease, so a key whose process
// died is free again within one lease (not after 10 minutes). The ids such a request mints are
// derived from the key's seed, so when the same request runs again (its process died, or it ended in
// a 5xx) it mints the same ids: a resource the first run created collides instead of being created
// twice, and the answer is that resource as its GET shows it. Outcomes a retry may change (a 5xx,
// an error marked retryable, such as design_not_ready) are not stored under the key.
import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { idOf } from '@kerf/common';
import { isStoreError, type Store } from '@kerf/store';
import type { UseCaseContext } from '@kerf/usecases';
import { HttpError } from './http-errors.ts';
import { callerOf } from './auth.ts';
import { isMultipartBody } from './multipart.ts';

const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;
/** Response headers worth replaying. */
const REPLAYED_HEADERS = ['location', 'preference-applied'];

/** Default lease of a running request's key, ms (KERF_IDEMPOTENCY_LEASE_MS). */
const DEFAULT_IDEMPOTENCY_LEASE_MS = 30_000;

/** One idempotent request under way: its key, the seed its ids come from, its lease renewal. */
export interface IdempotentRun {
  key: string;
  seed: string;
  resumed: boolean;
  minted: Map<string, number>;
  renewal: NodeJS.Timeout;
}

declare module 'fastify' {
  interface FastifyRequest { idempotencyKey?: string; idempotentRun?: IdempotentRun }
}

const runs = new AsyncLocalStorage<IdempotentRun>();

/**
 * What a creation route makes, to find it again when its request is resumed: the prefix of the
 * resource's id, where GET shows it and the status the creation answers with. A route not listed
 * (or whose resource is not found) answers a resumed collision with 409 rather than creating twice.
 */
const CREATES: Record<string, { prefix: string; path: string; status: number }> = {
  'POST /v1/analyze': { prefix: 'des', path: '/v1/designs/', status: 202 },
  'POST /v1/quotes': { prefix: 'quo', path: '/v1/quotes/', status: 201 },
  'POST /v1/dfm': { prefix: 'dfm', path: '/v1/dfm/', status: 201 },
  'POST /v1/review-links': { prefix: 'rvl', path: '/v1/review-links/', status: 201 },
  'POST /v1/carts': { prefix: 'crt', path: '/v1/carts/', status: 201 },
};

/** The n-th id with this prefix that a request with this seed mints (same shape as newId's). */
function derivedId(seed: string, prefix: string, n: number): string {
  const digest = createHash('sha256').update(`${seed}\0${prefix}\0${n}`).digest();
  // the time part from the seed too: the same request must mint the same ids when it runs again
  return idOf(prefix, digest.readUIntBE(0, 6) % 2 ** 50, digest.subarray(6));
}

/** The use-case context of the REST routes: inside an idempotent request, ids come from its seed. */
export function idempotentContext(ctx: UseCaseContext): UseCaseContext {
  return {
    ...ctx,
    newId(prefix: string): string {
      const run = runs.getStore();
      if (!run) return ctx.newId(prefix);
      const n = run.minted.get(prefix) ?? 0;
      run.minted.set(prefix, n + 1);
      return derivedId(run.seed, prefix, n);
    },
  };
}

/** Runs a route handler inside its request's idempotent run (if any), so that newId sees it. */
export function withinRun<T>(request: FastifyRequest, handler: () => T): T {
  return request.idempotentRun ? runs.run(request.idempotentRun, handler) : handler();
}

export function fingerprint(request: FastifyRequest): string {
  const h = createHash('sha256');
  h.update(`${request.method} ${request.routeOptions.url}\n`);
  const body = request.body;
  if (isMultipartBody(body)) {
    for (const name of Object.keys(body.files).sort()) {
      const f = body.files[name];
      h.update(`file ${name} ${f.filename} `).update(f.bytes.sha256).update('\n');
    }
    for (const name of Object.keys(body.fields).sort()) h.update(`field ${name}=${JSON.stringify(body.fields[name])}\n`);
  } else {
    h.update(JSON.stringify(body ?? null));
  }
  return h.digest('hex');
}

/** preHandler: returns true when the reply was already sent (replay or conflict). */
export async function beginIdempotent(store: Store, request: FastifyRequest, reply: FastifyReply, leaseMs = DEFAULT_IDEMPOTENCY_LEASE_MS): Promise<boolean> {
  const raw = request.headers['idempotency-key'];
  if (raw === undefined) return false;
  const key = Array.isArray(raw) ? raw[0] : raw;
  if (!KEY_PATTERN.test(key)) {
    throw new HttpError(400, 'invalid_request_error', 'invalid_idempotency_key', 'Idempotency-Key must be 1-255 printable ASCII characters.', { param: 'Idempotency-Key' });
  }
  const { accountId } = callerOf(request);
  const result = await store.idempotency.begin(accountId, key, fingerprint(request), { staleAfterMs: leaseMs });
  switch (result.state) {
    case 'started': {
      request.idempotencyKey = key;
      const renewal = setInterval(() => { store.idempotency.renew(accountId, key).catch(() => false); }, Math.max(100, Math.floor(leaseMs / 3)));
      renewal.unref();
      request.idempotentRun = { key, seed: result.seed, resumed: result.resumed, minted: new Map(), renewal };
      return false;
    }
    case 'replay':
      for (const [k, v] of Object.entries(result.headers)) reply.header(k, v);
      reply.header('idempotent-replayed', 'true');
      // A replayed creation is not a second creation: 200, not 201.
      await reply.code(result.status === 201 ? 200 : result.status).type('application/json').send(result.body);
      return true;
    case 'mismatch':
      throw new HttpError(409, 'idempotency_error', 'idempotency_key_reused',
        'This Idempotency-Key was already used with a different request; use a new key for a new request.', { param: 'Idempotency-Key', retryable: false });
    case 'in_progress':
      throw new HttpError(409, 'idempotency_error', 'idempotency_key_in_use',
        'A request with this Idempotency-Key is still being processed; retry after a moment.', { param: 'Idempotency-Key', retryable: true, retryAfterSeconds: Math.max(1, Math.ceil(leaseMs / 1000)) });
  }
}

/**
 * A resumed request collided with what its first run created: answer with that resource as GET shows
 * it (and store that answer under the key). true when the reply was sent.
 */
export async function answerResumed(app: FastifyInstance, request: FastifyRequest, reply: FastifyReply, err: unknown): Promise<boolean> {
  const run = request.idempotentRun;
  if (!run?.resumed || !isStoreError(err, 'duplicate')) return false;
  const made = CREATES[`${request.method} ${request.routeOptions.url}`];
  const url = made ? `${made.path}${derivedId(run.seed, made.prefix, 0)}` : null;
  const found = url ? await app.inject({ method: 'GET', url, headers: { authorization: request.headers.authorization ?? '' } }) : null;
  if (!found || found.statusCode !== 200) {
    throw new HttpError(409, 'idempotency_error', 'idempotency_key_in_use',
      'The first request with this Idempotency-Key stopped part-way and its result cannot be shown; nothing was created twice. Check the resources it may have made, and use a new key for a new request.',
      { param: 'Idempotency-Key', retryable: false });
  }
  reply.header('location', url!);
  await reply.code(made!.status).type('application/json').send(found.body);
  return true;
}

/** An outcome a retry of the same request may change: not stored under the key. */
function retryableOutcome(status: number, body: unknown): boolean {
  if (status >= 500 || status === 429) return true;
  return status >= 400 && (body as { error?: { retryable?: unknown } } | null)?.error?.retryable === true;
}

/** onSend: remember the response for replays, or free the key when a retry may fare otherwise. */
export async function finishIdempotent(store: Store, request: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<void> {
  const key = request.idempotencyKey;
  if (!key || !request.caller) return;
  endRun(request);
  const { accountId } = request.caller;
  let body: unknown = null;
  const text = Buffer.isBuffer(payload) ? payload.toString('utf8') : payload;
  if (typeof text === 'string') { try { body = JSON.parse(text); } catch { body = text; } }
  if (retryableOutcome(reply.statusCode, body)) {
    // A 5xx may have come after the request created something: the retry resumes with the same ids.
    // A refusal (design_not_ready, rate limited) created nothing: the retry starts afresh.
    await (reply.statusCode >= 500 ? store.idempotency.release(accountId, key) : store.idempotency.abandon(accountId, key));
    return;
  }
  const headers: Record<string, string> = {};
  for (const h of REPLAYED_HEADERS) {
    const v = reply.getHeader(h);
    if (typeof v === 'string') headers[h] = v;
  }
  await store.idempotency.finish(accountId, key, { status: reply.statusCode, body, headers });
}

/**
 * For a route whose answer is not final (a payment still processing: 202): the key is freed when
 * the response is sent, so a retry with it runs again and sees how things stand then.
 */
export async function notFinalAnswer(store: Store, request: FastifyRequest): Promise<void> {
  const key = request.idempotencyKey;
  if (!key || !request.caller) return;
  endRun(request);
  await store.idempotency.abandon(request.caller.accountId, key);
}

/** onResponse: a request that ended before onSend (connection reset) leaves its key to be resumed. */
export async function endIdempotent(store: Store, request: FastifyRequest): Promise<void> {
  const key = request.idempotencyKey;
  if (!key || !request.caller) return;
  endRun(request);
  await store.idempotency.release(request.caller.accountId, key).catch(() => false);
}

function endRun(request: FastifyRequest): void {
  if (request.idempotentRun) clearInterval(request.idempotentRun.renewal);
  request.idempotencyKey = undefined;
}
