// The web site as a fastify plugin: sign up / in / out, the account page's connections, and the
// OAuth consent page (authorize and device). Forms post without JavaScript; every form carries a
// CSRF token (@fastify/csrf-protection, its secret in a signed cookie); the session is an httpOnly
// SameSite=Lax cookie holding a random token the store knows only by its sha256.
import { createRequire } from 'node:module';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import cookie from '@fastify/cookie';
import csrf from '@fastify/csrf-protection';
import formbody from '@fastify/formbody';
import fastifyStatic from '@fastify/static';
import { contentSecurityPolicy, statusOfKind } from '@kerf/http';
import { UseCaseError, consentedScopes, createApiKey, getReviewPage, removeSavedCard, startCardSetup, getAccount, listApiKeys, listWebhookEndpoints, createWebhookEndpoint, deleteWebhookEndpoint, EVENT_TYPES, revokeApiKey, createPasswordAccount, listConnections, revokeConnection, sessionCaller, signIn, signOut, type Caller, type ConsentPort, type EventType, type RateLimiter, type UseCaseContext } from '@kerf/usecases';
import { shopRoutes } from './shop.ts';
import { MODEL_VIEWER_DIR, modelViewerStyleHashes } from './model-viewer.ts';
import { reviewPage } from './review-page.ts';
import { safeNext } from './next-path.ts';
import { oncePerRequest, webRateLimit } from './rate-limit.ts';
import { accountPage, consentPage, type AccountExtras, messagePage, signInPage, signUpPage } from './pages.ts';

export interface WebOptions {
  useCases: UseCaseContext;
  consent?: ConsentPort;
  /** KERF_SIGNUP=closed turns the sign-up page off. */
  signupOpen: boolean;
  /** Signs the CSRF secret cookie; the same in every process. */
  cookieSecret: string;
  /** Set Secure on cookies (the site is served over https). */
  secureCookies: boolean;
  /** the largest STEP file the upload form takes, bytes (KERF_MAX_UPLOAD_BYTES) */
  maxUploadBytes?: number;
  /** The service's one rate limit (shared with /v1 and /mcp): pages count against the signed-in account, else the address. None: no limit. */
  rateLimiter?: RateLimiter;
  /** Sign-up POSTs per client address (KERF_SIGNUP_RATE_LIMIT). None: not limited. */
  signupLimiter?: RateLimiter;
}

/** The upload form's limit when the service does not say (the API's default). */
const DEFAULT_MAX_UPLOAD_BYTES = 50 * 1024 * 1024;
/** adapters/web/assets, from src/ (tsx) or dist/src/ (built) */
const HERE = dirname(fileURLToPath(import.meta.url));
const ASSETS = existsSync(join(HERE, '../assets')) ? join(HERE, '../assets') : join(HERE, '../../assets');

export const SESSION_COOKIE = 'kerf_session';
const CSP = contentSecurityPolicy();
// the consent form's answer is a redirect to the client's own redirect URI, which form-action governs too
const REDIRECTING_FORMS_CSP = contentSecurityPolicy({ formAction: 'self-and-redirects' });

type Form = Record<string, string | string[] | undefined>;
const one = (v: string | string[] | undefined): string => (Array.isArray(v) ? v[0] ?? '' : v ?? '');
const many = (v: string | string[] | undefined): string[] => (Array.isArray(v) ? v : v ? [v] : []);

export const webSite: FastifyPluginAsync<WebOptions> = async (app: FastifyInstance, opts: WebOptions) => {
  const ctx = opts.useCases;
  const cookieBase = { httpOnly: true, sameSite: 'lax' as const, secure: opts.secureCookies, path: '/' };
  await app.register(cookie, { secret: opts.cookieSecret });
  await app.register(formbody, { bodyLimit: 64 * 1024 });
  // multipart forms (the upload) carry the token as a field object; the upload script's XHR posts the same form
  await app.register(csrf, {
    cookieOpts: { ...cookieBase, signed: true },
    getToken: (request) => {
      const field = (request.body as Record<string, unknown> | undefined)?._csrf;
      return typeof field === 'string' ? field : (field as { value?: string } | undefined)?.value ?? '';
    },
  });
  const pico = dirname(createRequire(import.meta.url).resolve('@picocss/pico/css/pico.min.css'));
  await app.register(fastifyStatic, { root: pico, prefix: '/assets/', decorateReply: false, allowedPath: (path) => path === '/pico.min.css' });
  await app.register(fastifyStatic, { root: ASSETS, prefix: '/assets/site/', decorateReply: false });
  await app.register(fastifyStatic, { root: MODEL_VIEWER_DIR, prefix: '/assets/model-viewer/', decorateReply: false, allowedPath: (path) => path === '/model-viewer.min.js' });

  // every answer gets the page headers; a route may have set its own CSP or referrer policy first
  app.addHook('onSend', async (_request, reply) => {
    if (!reply.getHeader('content-security-policy')) reply.header('content-security-policy', CSP);
    if (!reply.getHeader('referrer-policy')) reply.header('referrer-policy', 'same-origin');
    reply.header('x-content-type-options', 'nosniff');
    if (String(reply.getHeader('content-type') ?? '').startsWith('text/html')) reply.header('cache-control', 'no-store');
  });

  const person = oncePerRequest(async (request: FastifyRequest): Promise<{ caller: Caller; email: string } | null> =>
    sessionCaller(ctx, request.cookies[SESSION_COOKIE]));
  webRateLimit(app, { limiter: opts.rateLimiter, signupLimiter: opts.signupLimiter, person });
  const page = (reply: FastifyReply, body: string, status = 200) => reply.code(status).type('text/html; charset=utf-8').send(body);
  const startSession = (reply: FastifyReply, token: string, expiresAt: string) =>
    reply.setCookie(SESSION_COOKIE, token, { ...cookieBase, expires: new Date(expiresAt) });

  app.setErrorHandler(async (err, request, reply) => {
    const status = err instanceof UseCaseError ? statusOfKind(err.kind) : (err as { statusCode?: number }).statusCode ?? 500;
    if (status >= 500) request.log.error({ err }, 'web page failed');
    const message = status === 403 && (err as { code?: string }).code?.startsWith('FST_CSRF')
      ? 'This form has expired or did not come from this site. Go back, reload the page and try again.'
      : status >= 500 ? 'Something went wrong on our side. Try again in a moment.' : (err as Error).message;
    return page(reply, messagePage('This did not work', message), status);
  });

  // no icon: an empty answer instead of a 404 in every page's console
  app.get('/favicon.ico', async (_request, reply) => reply.code(204).send());

  // ---- sign in, sign up, sign out ----------------------------------------------------------------

  app.get('/signin', async (request, reply) => {
    const next = safeNext((request.query as Form).next);
    if (await person(request)) return reply.redirect(next, 303);
    return page(reply, signInPage({ csrf: reply.generateCsrf(), next, signupOpen: opts.signupOpen }));
  });

  app.post('/signin', { preHandler: app.csrfProtection }, async (request, reply) => {
    const form = request.body as Form;
    const next = safeNext(one(form.next));
    const email = one(form.email);
    try {
      const session = await signIn(ctx, { email, password: one(form.password), client_ip: request.ip });
      startSession(reply, session.sessionToken, session.expiresAt);
      return reply.redirect(next, 303);
    } catch (err) {
      if (!(err instanceof UseCaseError) || !['unauthenticated', 'rate_limited', 'invalid'].includes(err.kind)) throw err;
      if (err.retryAfterSeconds) reply.header('retry-after', String(err.retryAfterSeconds));
      const message = err.kind === 'invalid' ? 'Enter your email and password.' : err.message;
      return page(reply, signInPage({ csrf: reply.generateCsrf(), next, email, error: message, signupOpen: opts.signupOpen }), statusOfKind(err.kind));
    }
  });

  app.get('/signup', async (request, reply) => {
    if (!opts.signupOpen) return page(reply, messagePage('Sign-up is closed', 'Ask the operator of this service for an account.'), 404);
    const next = safeNext((request.query as Form).next);
    return page(reply, signUpPage({ csrf: reply.generateCsrf(), next }));
  });

  app.post('/signup', { preHandler: app.csrfProtection }, async (request, reply) => {
    if (!opts.signupOpen) return page(reply, messagePage('Sign-up is closed', 'Ask the operator of this service for an account.'), 404);
    const form = request.body as Form;
    const next = safeNext(one(form.next));
    const email = one(form.email);
    const password = one(form.password);
    try {
      await createPasswordAccount(ctx, { email, password });
      const session = await signIn(ctx, { email, password, client_ip: request.ip });
      startSession(reply, session.sessionToken, session.expiresAt);
      return reply.redirect(next, 303);
    } catch (err) {
      if (!(err instanceof UseCaseError) || err.kind !== 'invalid') throw err;
      const message = err.param === 'password' ? 'The password needs at least 10 characters.' : err.code === 'email_taken' ? err.message : 'Enter a valid email address.';
      return page(reply, signUpPage({ csrf: reply.generateCsrf(), next, email, error: message }), statusOfKind(err.kind));
    }
  });

  app.post('/signout', { preHandler: app.csrfProtection }, async (request, reply) => {
    await signOut(ctx, request.cookies[SESSION_COOKIE]);
    reply.clearCookie(SESSION_COOKIE, cookieBase);
    return reply.redirect('/signin', 303);
  });

  // ---- account: connected agents -----------------------------------------------------------------

  const signInFirst = (request: FastifyRequest, reply: FastifyReply) => reply.redirect(`/signin?next=${encodeURIComponent(request.url)}`, 303);

  const showAccount = async (request: FastifyRequest, reply: FastifyReply, me: { caller: Caller; email: string }, opts: { notice?: string | null; newKey?: string; status?: number } & Pick<AccountExtras, 'newWebhook' | 'webhookError'>) => {
    const { data } = await listConnections(ctx, me.caller, {});
    const notice = opts.notice ?? null;
    const account = await getAccount(ctx, me.caller);
    const webhooks = await listWebhookEndpoints(ctx, me.caller, { limit: 100 });
    const extras: AccountExtras = {
      card: account.card, canAddCard: !!ctx.payments, dropship: account.dropship,
      webhooks: webhooks.data as AccountExtras['webhooks'], apiKeys: await listApiKeys(ctx, me.caller), newKey: opts.newKey,
      eventTypes: EVENT_TYPES, newWebhook: opts.newWebhook, webhookError: opts.webhookError,
    };
    // the card forms answer with a redirect to the processor's own page (Stripe Checkout), which form-action governs too
    reply.header('content-security-policy', REDIRECTING_FORMS_CSP);
    return page(reply, accountPage({ email: me.email, csrf: reply.generateCsrf(), connections: data, notice, extras }), opts.status);
  };

  // the account page's forms: CSRF-checked posts by a signed-in person; anyone else signs in first
  type Person = NonNullable<Awaited<ReturnType<typeof person>>>;
  const accountForm = (url: string, handle: (me: Person, request: FastifyRequest, reply: FastifyReply) => Promise<unknown>) =>
    app.post(url, { preHandler: app.csrfProtection }, async (request, reply) => {
      const me = await person(request);
      return me ? handle(me, request, reply) : signInFirst(request, reply);
    });

  app.get('/account', async (request, reply) => {
    const me = await person(request);
    if (!me) return signInFirst(request, reply);
    const q = request.query as Form;
    const notice = q.revoked ? 'The connection was revoked.' : q.key_revoked ? 'The API key was revoked.'
      : q.webhook_removed ? 'The webhook endpoint was removed.'
      : q.card === 'removed' ? 'The saved card was removed.' : q.card === 'saved' ? 'The card was saved.' : null;
    return showAccount(request, reply, me, { notice });
  });

  // add or replace the card: a fresh page of the processor, which sends the person back here
  accountForm('/account/card/setup', async (me, request, reply) => {
    const { url } = await startCardSetup(ctx, me.caller, { return_url: `${request.protocol}://${request.host}/account?card=saved` });
    return reply.redirect(url, 303);
  });

  accountForm('/account/card/remove', async (me, request, reply) => {
    await removeSavedCard(ctx, me.caller, {});
    return reply.redirect('/account?card=removed', 303);
  });

  // the new key's plaintext is in this one answer only (no redirect: it must not sit in a URL or a session)
  accountForm('/account/api-keys', async (me, request, reply) => {
    const key = await createApiKey(ctx, me.caller, { label: one((request.body as Form).label) || undefined });
    return showAccount(request, reply, me, { newKey: key.api_key });
  });

  accountForm('/account/api-keys/:id/revoke', async (me, request, reply) => {
    await revokeApiKey(ctx, me.caller, { api_key_id: (request.params as { id: string }).id });
    return reply.redirect('/account?key_revoked=1', 303);
  });

  // like a new key, the endpoint's signing secret is in this one answer only; the use case's refusal
  // (a URL that is not https, or points inside) is shown beside the form with what was entered
  accountForm('/account/webhooks', async (me, request, reply) => {
    const form = request.body as Form;
    const url = one(form.url).trim();
    const events = many(form.events);
    try {
      const created = await createWebhookEndpoint(ctx, me.caller, { url, events: events.length ? events as EventType[] : undefined });
      return await showAccount(request, reply, me, { newWebhook: { url: created.url as string, secret: created.secret } });
    } catch (err) {
      if (!(err instanceof UseCaseError) || !['invalid', 'malformed'].includes(err.kind)) throw err;
      return showAccount(request, reply, me, { webhookError: { message: err.message, url, events }, status: statusOfKind(err.kind) });
    }
  });

  accountForm('/account/webhooks/:id/remove', async (me, request, reply) => {
    await deleteWebhookEndpoint(ctx, me.caller, { endpoint_id: (request.params as { id: string }).id });
    return reply.redirect('/account?webhook_removed=1#webhooks', 303);
  });

  accountForm('/account/connections/:id/revoke', async (me, request, reply) => {
    await revokeConnection(ctx, me.caller, { connection_id: (request.params as { id: string }).id });
    return reply.redirect('/account?revoked=1', 303);
  });

  // the review page: its link id is the credential (no sign-in, no referrer); saving is the REST API's POST
  app.get('/review/:review_link_id', async (request, reply) => {
    const p = await getReviewPage(ctx, request.params as { review_link_id: string });
    const me = await person(request);
    reply.header('referrer-policy', 'no-referrer');
    return page(reply, reviewPage(p, me ? { email: me.email, csrf: reply.generateCsrf() } : {}));
  });

  const viewerCsp = contentSecurityPolicy({ styles: modelViewerStyleHashes(), wasm: true });
  await shopRoutes(app, { ctx, person, page, signInFirst, viewerCsp, maxUploadBytes: opts.maxUploadBytes ?? DEFAULT_MAX_UPLOAD_BYTES });

  // ---- OAuth consent (authorize and device verification) ------------------------------------------

  const consent = opts.consent;
  if (!consent) return;
  const expired = (reply: FastifyReply, email: string) => page(reply, messagePage('This request has expired',
    'This connection request is no longer pending (it expired or was already answered). Start again from the agent.', { email }), 400);

  app.get('/oauth/consent/:uid', async (request, reply) => {
    const me = await person(request);
    if (!me) return signInFirst(request, reply);
    const pending = await consent.request(request.raw, reply.raw);
    if (!pending || pending.uid !== (request.params as { uid: string }).uid) return expired(reply, me.email);
    reply.header('content-security-policy', REDIRECTING_FORMS_CSP);
    return page(reply, consentPage({
      uid: pending.uid, csrf: reply.generateCsrf(), email: me.email, clientName: pending.clientName, clientId: pending.clientId,
      redirectHost: pending.redirectHost, device: pending.kind === 'device', requested: pending.requestedScopes,
    }));
  });

  app.post('/oauth/consent/:uid', { preHandler: app.csrfProtection }, async (request, reply) => {
    const me = await person(request);
    if (!me) return signInFirst(request, reply);
    const pending = await consent.request(request.raw, reply.raw);
    if (!pending || pending.uid !== (request.params as { uid: string }).uid) return expired(reply, me.email);
    const form = request.body as Form;
    reply.header('content-security-policy', REDIRECTING_FORMS_CSP);
    const to = one(form.decision) === 'approve'
      ? await consent.approve(request.raw, reply.raw, me.caller.accountId, consentedScopes(pending.requestedScopes, many(form.scope)))
      : await consent.deny(request.raw, reply.raw);
    return reply.redirect(to, 303);
  });
};
