// The authorization server as a fastify plugin: oidc-provider's Koa app answers its own routes
// (fastify hands it the raw request), plus RFC 8414 and RFC 9728 discovery at the origin.
import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { contentSecurityPolicy, rateLimitHeaders, requestSubject } from '@kerf/http';
import { SCOPES, RateLimiter, UseCaseError } from '@kerf/usecases';
import type Provider from 'oidc-provider';
import type { RateCounters, Store } from '@kerf/store';
import { errorPage } from './pages.ts';
import { DEVICE_POLL_INTERVAL_S, tooSoon } from './polling.ts';
import { claimsOfficialName, DEFAULT_SCOPE, LOOPBACK_HOSTS, OAUTH_ROUTES, OFFICIAL_CLIENT_NAME, withoutApiScopes } from './provider.ts';

export interface OAuthPluginOptions {
  provider: Provider;
  store: Store;
  /** Client registrations per address per hour (each one is kept); default 30. */
  registrationsPerHour?: number;
  /** Where registrations are counted: the service's rate counters; default the store's (shared by its processes). */
  rateCounters?: RateCounters;
  /** The API origin (issuer and resource). */
  issuer: string;
  /** The service's one limiter (shared with /v1, /mcp and the site). None: OAuth requests are not counted. */
  rateLimiter?: RateLimiter;
}

/** Form and JSON bodies of the OAuth endpoints are small; oidc-provider itself stops at 56 KiB. */
const BODY_LIMIT = 64 * 1024;
// the device and consent forms answer with a redirect to the client's own redirect URI
const CSP = contentSecurityPolicy({ formAction: 'self-and-redirects' });

/** RFC 9728: the API (and the MCP server on it) is protected by this authorization server. */
export function protectedResourceMetadata(issuer: string): Record<string, unknown> {
  return {
    resource: issuer,
    authorization_servers: [issuer],
    scopes_supported: [...SCOPES],
    bearer_methods_supported: ['header'],
    resource_name: 'Kerf API',
    resource_documentation: `${issuer}/v1/docs`,
  };
}

/** A redirect URI a client may register: https, or http on a loopback address. */
function redirectUriProblem(uri: unknown): string | null {
  if (typeof uri !== 'string') return 'redirect_uris must be strings';
  const u = URL.parse(uri);
  if (!u) return `${uri} is not an absolute URL`;
  if (u.protocol === 'https:') return null;
  if (u.protocol === 'http:' && LOOPBACK_HOSTS.has(u.hostname)) return null;
  return `${uri} must use https, or http on 127.0.0.1 or [::1]`;
}

/** oidc-provider's words when a form posts to a browser session it never stored. */
const STALE_SESSION = /previously persisted Sessions/;

export const oauthServer: FastifyPluginAsync<OAuthPluginOptions> = async (app: FastifyInstance, { provider, store, issuer, registrationsPerHour = 30, rateCounters = store.rateCounters, rateLimiter }) => {
  // Every OAuth route is under the service's one rate limit. Its callers have no credential this
  // service verified (public clients, a browser before sign-in), so each counts against its client
  // address: a device-code or token flood costs its sender the budget every transport gives it.
  if (rateLimiter) {
    app.addHook('onRequest', async (request, reply) => {
      try {
        // on the raw response: oidc-provider answers most routes itself (hijacked, fastify's headers unsent)
        for (const [name, value] of Object.entries(rateLimitHeaders(await rateLimiter.take(requestSubject(null, request.ip))))) reply.raw.setHeader(name, value);
      } catch (err) {
        if (!(err instanceof UseCaseError) || err.retryAfterSeconds === null) throw err;
        const description = `too many requests from this address; retry after ${err.retryAfterSeconds} s`;
        reply.code(429).header('retry-after', String(err.retryAfterSeconds)).header('cache-control', 'no-store');
        // the device verification page is a browser's: it gets a page, the protocol endpoints JSON
        if (request.url.startsWith(OAUTH_ROUTES.code_verification)) {
          return reply.header('content-security-policy', CSP).type('text/html; charset=utf-8').send(errorPage({ error: 'rate_limited', error_description: description }));
        }
        return reply.send({ error: 'rate_limited', error_description: description });
      }
    });
  }

  provider.use(async (ctx, next) => {
    ctx.set('content-security-policy', CSP);
    ctx.set('x-content-type-options', 'nosniff');
    try {
      await next();
    } catch (err) {
      // The verification page posted without the browser session its GET began (no cookie, an
      // expired one, another browser): oidc-provider cannot save a session it never stored and
      // throws after the route. A stale form, not a server fault.
      if (ctx.method !== 'POST' || !ctx.path.startsWith(OAUTH_ROUTES.code_verification) || !STALE_SESSION.test(String((err as Error)?.message))) throw err;
      ctx.status = 400;
      ctx.type = 'html';
      ctx.body = errorPage({ error: 'invalid_request', error_description: 'This sign-in page has expired or was opened in another browser: open the link your device shows again.' });
    }
    // the API scopes are the resource's (RFC 8707), which oidc-provider does not list itself
    if (ctx.path === '/.well-known/openid-configuration' && ctx.body && typeof ctx.body === 'object') {
      (ctx.body as Record<string, unknown>).scopes_supported = [...SCOPES, 'offline_access'];
    }
    // RFC 8628 makes interval optional (default 5 s); clients of this API read it, so it is always sent
    if (ctx.path === OAUTH_ROUTES.device_authorization && ctx.status === 200 && ctx.body && typeof ctx.body === 'object') {
      (ctx.body as Record<string, unknown>).interval = DEVICE_POLL_INTERVAL_S;
    }
  });

  const callback = provider.callback(); // after use(): the callback composes the middleware present now

  // oidc-provider reads bodies itself; fastify reads them first (as text) and hands them on.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string', bodyLimit: BODY_LIMIT }, (_req, body, done) => done(null, body));

  // what fastify refuses before oidc-provider sees it (a body over the limit) answers as OAuth does
  app.setErrorHandler(async (err, request, reply) => {
    const status = (err as { statusCode?: number }).statusCode ?? 500;
    if (status >= 500) request.log.error({ err }, 'oauth request failed');
    const error = status >= 500 ? 'server_error' : 'invalid_request';
    return reply.code(status).header('cache-control', 'no-store')
      .send({ error, error_description: status >= 500 ? 'unexpected failure; retry later' : (err as Error).message });
  });

  const handOver = async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    if (typeof request.body === 'string') (request.raw as { body?: string }).body = request.body;
    reply.hijack();
    callback(request.raw, reply.raw);
  };

  const oauthError = (reply: FastifyReply, error: string, description: string) =>
    reply.code(400).header('cache-control', 'no-store').send({ error, error_description: description });

  app.get('/.well-known/oauth-protected-resource', async () => protectedResourceMetadata(issuer));
  app.get('/.well-known/oauth-protected-resource/*', async () => protectedResourceMetadata(issuer));
  app.get('/.well-known/openid-configuration', handOver);
  app.get('/.well-known/oauth-authorization-server', async (request, reply) => {
    request.raw.url = '/.well-known/openid-configuration';
    return handOver(request, reply);
  });

  // a client that asks for no scope gets the default set (DEFAULT_SCOPE)
  app.get(OAUTH_ROUTES.authorization, async (request, reply) => {
    const url = new URL(request.raw.url ?? '/', 'http://x');
    if (!url.searchParams.get('scope')) {
      url.searchParams.set('scope', DEFAULT_SCOPE);
      request.raw.url = url.pathname + url.search;
    }
    return handOver(request, reply);
  });
  app.post(OAUTH_ROUTES.device_authorization, async (request, reply) => {
    if (typeof request.body === 'string' && /^application\/x-www-form-urlencoded/i.test(String(request.headers['content-type']))) {
      const form = new URLSearchParams(request.body);
      if (!form.get('scope')) form.set('scope', DEFAULT_SCOPE);
      request.body = form.toString();
    }
    return handOver(request, reply);
  });

  // Registrations are kept for good, so one address (an IPv6 /64) may not make them without end;
  // counted as every transport counts requests, answered in OAuth's error shape.
  const registrations = new RateLimiter({ max: registrationsPerHour, windowMs: 60 * 60 * 1000 }, rateCounters, 'oauth_registration');
  const limitRegistrations = async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    try {
      await registrations.take(requestSubject(null, request.ip));
    } catch (err) {
      if (!(err instanceof UseCaseError) || err.retryAfterSeconds === null) throw err;
      return reply.code(429).header('retry-after', String(err.retryAfterSeconds)).header('cache-control', 'no-store')
        .send({ error: 'rate_limited', error_description: `too many registrations from this address; retry after ${err.retryAfterSeconds} s` });
    }
  };

  // Public clients only, with the redirect URIs redirectUriProblem allows; oidc-provider checks the rest.
  app.post(OAUTH_ROUTES.registration, { onRequest: limitRegistrations }, async (request, reply) => {
    let metadata: unknown;
    try { metadata = JSON.parse(typeof request.body === 'string' ? request.body : ''); } catch { return oauthError(reply, 'invalid_client_metadata', 'the body must be a JSON object'); }
    if (typeof metadata !== 'object' || metadata === null || Array.isArray(metadata)) return oauthError(reply, 'invalid_client_metadata', 'the body must be a JSON object');
    const m = metadata as Record<string, unknown>;
    if (m.token_endpoint_auth_method !== undefined && m.token_endpoint_auth_method !== 'none') {
      return oauthError(reply, 'invalid_client_metadata', 'only public clients may register: token_endpoint_auth_method must be none');
    }
    if (claimsOfficialName(m)) return oauthError(reply, 'invalid_client_metadata', `client_name: "${OFFICIAL_CLIENT_NAME}" is the official client's name; choose another`);
    const uris = Array.isArray(m.redirect_uris) ? m.redirect_uris : [];
    for (const uri of uris) {
      const problem = redirectUriProblem(uri);
      if (problem) return oauthError(reply, 'invalid_redirect_uri', problem);
    }
    // said explicitly, so oidc-provider issues no client_secret (it decides on the body as sent)
    const { scope: _asked, ...rest } = m;
    const scope = withoutApiScopes(m.scope);
    request.body = JSON.stringify({ ...rest, ...(scope ? { scope } : {}), token_endpoint_auth_method: 'none' });
    return handOver(request, reply);
  });

  app.post(OAUTH_ROUTES.token, async (request, reply) => {
    if (typeof request.body === 'string') {
      const form = new URLSearchParams(request.body);
      const deviceCode = form.get('device_code');
      if (form.get('grant_type') === 'urn:ietf:params:oauth:grant-type:device_code' && deviceCode && deviceCode.length <= 200) {
        const interval = await tooSoon(store, deviceCode);
        if (interval !== null) {
          return oauthError(reply, 'slow_down', `polling too often: wait ${interval} seconds between requests`);
        }
      }
    }
    return handOver(request, reply);
  });

  app.all('/v1/oauth/*', handOver);
  app.all(OAUTH_ROUTES.code_verification, handOver);
  app.all(`${OAUTH_ROUTES.code_verification}/*`, handOver);
};
