// The site's share of the service's one rate limit, and sign-up's own stricter budget.
//
// Every page and form counts against the signed-in person's account (the same budget as its API keys
// and MCP connections), else against the client address (IPv6 by /64), as the REST API counts. A
// sign-up POST also counts against a budget of its own per address, whatever the session: each one
// may create an account and runs a deliberately slow password hash, so one address gets a few an
// hour; refused attempts, failed ones (a taken email) included, never reach the use case.
//
// Static assets (/assets/*: the stylesheet, the site's scripts, model-viewer) are not counted: they
// are the same files for everyone, touch neither the store nor the engine, and cost the server no more
// than the client must spend receiving them; counting them would cost a counter write each and make
// a page view spend 1 + its assets (more again with a cold cache), limiting a person sooner than an
// API client on the same budget.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { rateLimitHeaders, requestSubject } from '@kerf/http';
import { addressSubject, UseCaseError, type Caller, type RateLimiter } from '@kerf/usecases';
import { messagePage } from './pages.ts';

type Person = { caller: Caller; email: string } | null;

export interface WebRateLimitOptions {
  /** The service's one limiter (shared with /v1 and /mcp). None: pages are not counted. */
  limiter?: RateLimiter;
  /** Sign-up POSTs per client address. None: not limited. */
  signupLimiter?: RateLimiter;
  /** The signed-in person of a request, if any. */
  person(request: FastifyRequest): Promise<Person>;
}

const STATIC_PREFIX = '/assets/';

/** `lookup` once per request: the limiter and the route ask for the same session. */
export function oncePerRequest<T>(lookup: (request: FastifyRequest) => Promise<T>): (request: FastifyRequest) => Promise<T> {
  const seen = new WeakMap<FastifyRequest, Promise<T>>();
  return (request) => {
    let found = seen.get(request);
    if (!found) seen.set(request, (found = lookup(request)));
    return found;
  };
}

/** Counts the site's requests (see above); past a budget answers 429 + Retry-After as a page of the site. */
export function webRateLimit(app: FastifyInstance, opts: WebRateLimitOptions): void {
  const { limiter, signupLimiter, person } = opts;
  if (!limiter && !signupLimiter) return;
  app.addHook('onRequest', async (request, reply) => {
    const route = request.routeOptions.url ?? '';
    if (route.startsWith(STATIC_PREFIX) || route === '/favicon.ico') return;
    const me = await person(request);
    try {
      if (limiter) reply.headers(rateLimitHeaders(await limiter.take(requestSubject(me?.caller, request.ip))));
    } catch (err) {
      return refuse(reply, err, me, (wait) => `Too many requests. Wait ${wait} and try again.`);
    }
    if (!signupLimiter || request.method !== 'POST' || route !== '/signup') return;
    try {
      await signupLimiter.take(addressSubject(request.ip));
    } catch (err) {
      return refuse(reply, err, me, (wait) => `Too many sign-ups from your network. Try again in ${wait}.`);
    }
  });
}

/** A refused request's answer: 429, Retry-After, and a page of the site saying how long to wait. */
function refuse(reply: FastifyReply, err: unknown, me: Person, say: (wait: string) => string): FastifyReply {
  if (!(err instanceof UseCaseError) || err.retryAfterSeconds === null) throw err;
  const seconds = err.retryAfterSeconds;
  const wait = seconds < 90 ? `${seconds} seconds` : `${Math.ceil(seconds / 60)} minutes`;
  return reply.code(429).header('retry-after', String(seconds)).type('text/html; charset=utf-8')
    .send(messagePage('Too many requests', say(wait), { email: me?.email ?? null }));
}
