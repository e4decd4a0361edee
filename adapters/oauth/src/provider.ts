// The authorization server: panva's oidc-provider (certified; device flow RFC 8628, PKCE, dynamic
// registration RFC 7591, refresh rotation with reuse detection, revocation RFC 7009, resource
// indicators RFC 8707, `iss` RFC 9207, Client ID Metadata Documents), configured as
// docs/agents.md "Agents: OAuth and the web sign-in" describes.
// The API origin is both the issuer and the one resource; tokens are opaque and kept in the store.
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import { guardedLookup, isLoopback, refuseAddress, REFUSED_ADDRESS } from '@kerf/http';
import type { Store } from '@kerf/store';
import { OAUTH_OWNER, OPTIONAL_SCOPES, SCOPES } from '@kerf/usecases';
import type Provider from 'oidc-provider';
import type { Configuration, KoaContextWithOIDC } from 'oidc-provider';
import { storeAdapter } from './adapter.ts';
import { deviceConfirmPage, deviceInputPage, deviceSuccessPage, errorPage } from './pages.ts';

export const ACCESS_TOKEN_TTL_S = 15 * 60;
export const CONNECTION_TTL_S = 30 * 24 * 60 * 60;
const DEVICE_CODE_TTL_S = 10 * 60;
const AUTHORIZATION_CODE_TTL_S = 60;
const INTERACTION_TTL_S = 60 * 60;
const SESSION_TTL_S = 24 * 60 * 60;

/** What a client gets when it asks for no scope. */
export const DEFAULT_SCOPE = SCOPES.filter((s) => !OPTIONAL_SCOPES.includes(s)).join(' ');
/** The pre-registered public client of the device flow. */
export const DEVICE_CLIENT_ID = 'svc-agent';
/** The official client's name, shown on the consent and device pages: no other client may use it. */
export const OFFICIAL_CLIENT_NAME = 'Kerf agent';

/**
 * Whether client metadata names a client as the official one: any `client_name` (and its language
 * variants, `client_name#fr`) that, compatibility-normalised and lower-cased with everything but
 * letters and digits dropped, contains "kerfagent" ("KERF  Agent", "Kerf-agent (official)").
 */
export function claimsOfficialName(metadata: Record<string, unknown>): boolean {
  const squash = (v: string) => v.normalize('NFKC').toLowerCase().replace(/[^\p{L}\p{N}]/gu, '');
  const official = squash(OFFICIAL_CLIENT_NAME);
  return Object.entries(metadata).some(([k, v]) => (k === 'client_name' || k.startsWith('client_name#')) && typeof v === 'string' && squash(v).includes(official));
}

export const OAUTH_ROUTES = {
  authorization: '/v1/oauth/authorize',
  token: '/v1/oauth/token',
  registration: '/v1/oauth/register',
  revocation: '/v1/oauth/revoke',
  device_authorization: '/v1/oauth/device/code',
  code_verification: '/oauth/device',
  jwks: '/v1/oauth/jwks',
} as const;

/** Where the web site shows an authorization's sign-in and consent. */
export const CONSENT_PATH = '/oauth/consent';

export interface ProviderOptions {
  store: Store;
  /** The API origin: issuer, resource and token audience. */
  issuer: string;
  /** Client ID Metadata Documents may be fetched from loopback over https with any certificate (tests only); never from private addresses. */
  allowLoopbackClientMetadata?: boolean;
}

interface Secrets { cookieKeys: string[]; signingKey: Record<string, unknown> }

/**
 * The cookie keys and the token signing key, made once and kept in the store so every process
 * of the service signs and verifies alike.
 */
async function loadSecrets(store: Store): Promise<Secrets> {
  const docs = store.documents<Secrets>('oauth_secrets');
  const existing = await docs.getByKey(OAUTH_OWNER, 'secrets');
  if (existing) return existing.data;
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const fresh: Secrets = {
    cookieKeys: [randomBytes(32).toString('base64url')],
    signingKey: { ...privateKey.export({ format: 'jwk' }), use: 'sig', alg: 'ES256', kid: randomBytes(8).toString('hex') },
  };
  try {
    return (await docs.create(OAUTH_OWNER, fresh, { key: 'secrets' })).data;
  } catch {
    return (await docs.getByKey(OAUTH_OWNER, 'secrets'))!.data; // another process made them first
  }
}

export async function createProvider(opts: ProviderOptions): Promise<Provider> {
  // loaded here, not when @kerf/oauth is: on Node 20 oidc-provider prints its "Unsupported runtime"
  // warning as it loads, and only a process that serves OAuth should print it (README, Node versions)
  const { default: OidcProvider, errors } = await import('oidc-provider');
  const { store, issuer } = opts;
  const secrets = await loadSecrets(store);
  const resourceServer = { scope: SCOPES.join(' '), audience: issuer, accessTokenTTL: ACCESS_TOKEN_TTL_S, accessTokenFormat: 'opaque' as const };

  const configuration: Configuration = {
    adapter: storeAdapter(store),
    clients: [{
      client_id: DEVICE_CLIENT_ID,
      client_name: OFFICIAL_CLIENT_NAME,
      application_type: 'native',
      grant_types: ['urn:ietf:params:oauth:grant-type:device_code', 'refresh_token'],
      response_types: [],
      redirect_uris: [],
      token_endpoint_auth_method: 'none',
      id_token_signed_response_alg: 'ES256',
    }],
    clientDefaults: { grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], token_endpoint_auth_method: 'none', id_token_signed_response_alg: 'ES256' },
    clientAuthMethods: ['none'],
    responseTypes: ['code'],
    scopes: ['offline_access'],
    cookies: { keys: secrets.cookieKeys },
    jwks: { keys: [secrets.signingKey as never] },
    routes: OAUTH_ROUTES,
    pkce: { required: () => true },
    ttl: {
      AccessToken: ACCESS_TOKEN_TTL_S,
      AuthorizationCode: AUTHORIZATION_CODE_TTL_S,
      DeviceCode: DEVICE_CODE_TTL_S,
      Grant: CONNECTION_TTL_S,
      Interaction: INTERACTION_TTL_S,
      Session: SESSION_TTL_S,
      // a rotated refresh token lives as long as its connection has left, never past it
      RefreshToken: (ctx: KoaContextWithOIDC) => {
        const rotated = ctx?.oidc?.entities.RotatedRefreshToken;
        return rotated ? rotated.remainingTTL : CONNECTION_TTL_S;
      },
    },
    // each authorization is its own connection, listed and revoked on its own: only the grant the
    // person just made on the consent page counts, never one from an earlier authorization
    loadExistingGrant: async (ctx) => {
      const grantId = ctx.oidc.result?.consent?.grantId;
      return grantId ? ctx.oidc.provider.Grant.find(grantId) : undefined;
    },
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    // A connection lives by its grant (CONNECTION_TTL_S, revocation), never by the browser session
    // it was consented in. oidc-provider's default binds a code and its tokens to the session's one
    // slot per client unless offline_access was granted (many MCP hosts never ask for it): the next
    // authorization of the same client in that browser takes the slot, and a fresh, unused code of
    // an earlier one, or an earlier connection's refresh token, is then "not found" (invalid_grant)
    // although its grant and session exist. test/mcp-oauth-repeat.test.ts overlaps two sign-ins.
    expiresWithSession: async () => false,
    rotateRefreshToken: true,
    async findAccount(_ctx, sub) {
      const account = await store.accounts.get(sub);
      return account ? { accountId: account.id, claims: async () => ({ sub: account.id }) } : undefined;
    },
    interactions: { url: (_ctx, interaction) => `${CONSENT_PATH}/${interaction.uid}` },
    renderError: async (ctx, out) => { ctx.type = 'html'; ctx.body = errorPage(out); },
    features: {
      devInteractions: { enabled: false },
      userinfo: { enabled: false },
      introspection: { enabled: false },
      rpInitiatedLogout: { enabled: false },
      revocation: { enabled: true },
      // The API and /mcp take Bearer tokens (what MCP hosts send) and verify no DPoP proof, so no
      // token is bound to a DPoP key: a client that sends a proof anyway gets a Bearer token.
      // oidc-provider enables DPoP unless told not to. docs/agents.md, Tokens.
      dPoP: { enabled: false },
      pushedAuthorizationRequests: { enabled: false },
      registration: { enabled: true, issueRegistrationAccessToken: false },
      deviceFlow: {
        enabled: true,
        userCodeInputSource: async (ctx, form, _out, err) => { ctx.body = deviceInputPage(form, err ? 'That code is not valid or has expired; check it and try again.' : null); },
        userCodeConfirmSource: async (ctx, form, client, _info, userCode) => { ctx.body = deviceConfirmPage(form, client.clientName ?? client.clientId, userCode); },
        successSource: async (ctx) => { ctx.body = deviceSuccessPage(ctx.oidc.client?.clientName ?? ctx.oidc.client?.clientId ?? 'the agent'); },
      },
      resourceIndicators: {
        enabled: true,
        defaultResource: async () => issuer,
        useGrantedResource: async () => true,
        getResourceServerInfo: async (_ctx, resource) => {
          if (resource !== issuer && resource !== `${issuer}/`) throw new errors.InvalidTarget();
          return resourceServer;
        },
      },
      clientIdMetadataDocument: {
        enabled: true,
        ack: 'draft-02',
        // a metadata document may not take the official client's name either
        allowClient: async (_ctx: unknown, client: { metadata(): Record<string, unknown> }) => !claimsOfficialName(client.metadata()),
      } as never,
    },
  };
  configuration.fetch = clientMetadataFetch(guardedFetch(opts.allowLoopbackClientMetadata === true));

  const provider = new OidcProvider(issuer, configuration);
  // an https base URL means a TLS-terminating proxy in front (kerf serve speaks http): trust its
  // X-Forwarded-Proto so oidc-provider sets Secure cookies; on plain http there is no proxy to trust
  provider.proxy = issuer.startsWith('https:');
  allowLoopbackPortForEveryClient(provider);
  return provider;
}

/**
 * RFC 8252 7.3 for every client, not only native ones: an http loopback redirect URI matches a
 * registered one whatever its port; everything else matches exactly.
 */
function allowLoopbackPortForEveryClient(provider: Provider): void {
  const Client = provider.Client as unknown as { prototype: { redirectUriAllowed(v: string): boolean; redirectUris: string[] } };
  const exact = Client.prototype.redirectUriAllowed;
  Client.prototype.redirectUriAllowed = function redirectUriAllowed(value: string) {
    if (exact.call(this, value)) return true;
    const strip = (uri: string): string | null => {
      const u = URL.parse(uri);
      if (!u || u.protocol !== 'http:' || !LOOPBACK_HOSTS.has(u.hostname)) return null;
      u.port = '';
      return u.href;
    };
    const wanted = strip(value);
    return wanted !== null && this.redirectUris.some((r) => strip(r) === wanted);
  };
}

/**
 * A client's metadata may list the API scopes it wants (`scope`, RFC 7591; MCP clients do), but to
 * oidc-provider they are the resource's, not the server's: the person picks them on the consent
 * page, so they are dropped from what a client registers instead of refusing the client.
 */
export function withoutApiScopes(scope: unknown): string | undefined {
  if (typeof scope !== 'string') return undefined;
  const kept = scope.split(' ').filter((s) => s && !(SCOPES as readonly string[]).includes(s));
  return kept.length ? kept.join(' ') : undefined;
}

type Fetch = (url: string | URL | Request, init?: RequestInit) => Promise<Response>;

/** oidc-provider's outgoing fetch, with withoutApiScopes applied to client metadata documents. */
function clientMetadataFetch(fetchFn: Fetch): Fetch {
  return async (url, init) => {
    const res = await fetchFn(url, init);
    if (res.status !== 200 || !/json/i.test(res.headers.get('content-type') ?? '')) return res;
    const text = await res.text();
    let doc: unknown;
    try { doc = JSON.parse(text); } catch { return new Response(text, { status: res.status, headers: res.headers }); }
    const target = url instanceof Request ? url.url : String(url);
    const headers = new Headers(res.headers);
    headers.delete('content-length');
    if (doc && typeof doc === 'object' && !Array.isArray(doc) && (doc as Record<string, unknown>).client_id === target && 'scope' in doc) {
      const scope = withoutApiScopes((doc as Record<string, unknown>).scope);
      const rest = { ...(doc as Record<string, unknown>) };
      delete rest.scope;
      return new Response(JSON.stringify(scope ? { ...rest, scope } : rest), { status: res.status, headers });
    }
    return new Response(text, { status: res.status, headers });
  };
}

export const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);

/** Most bytes of a client metadata document read (oidc-provider checks its own, smaller, limit after). */
const MAX_METADATA_BYTES = 64 * 1024;

/**
 * oidc-provider's outgoing fetch (client metadata documents): https only; an address literal is
 * checked before anything else and a name is resolved and checked inside the connection's lookup
 * (@kerf/http guardedLookup), so a loopback or private target gets no TCP connection at all, and
 * the socket connects to the address that was checked. (oidc-provider's own guard closes a socket
 * to such an address only after it is connected.) With `allowLoopback` (tests: a local https server
 * with a self-made certificate), loopback targets are allowed, without certificate checks.
 */
function guardedFetch(allowLoopback: boolean): Fetch {
  const lookup = guardedLookup(allowLoopback);
  return (url, init = {}) => new Promise((resolve, reject) => {
    const target = new URL(url instanceof Request ? url.url : url);
    const host = target.hostname.replace(/^\[|\]$/g, '');
    if (target.protocol !== 'https:') { reject(new Error('client metadata documents are fetched over https only')); return; }
    const literal = isIP(host) !== 0 ? refuseAddress(host, allowLoopback) : null;
    if (literal) { reject(Object.assign(new Error(`refused: ${literal}`), { code: REFUSED_ADDRESS })); return; }
    const loopback = host === 'localhost' || (isIP(host) !== 0 && isLoopback(host));
    const headers = Object.fromEntries(new Headers(init.headers).entries());
    const req = httpsRequest(target, {
      method: init.method ?? 'GET', headers, lookup, agent: false, signal: init.signal ?? undefined,
      rejectUnauthorized: !(allowLoopback && loopback),
    }, (res) => {
      const chunks: Buffer[] = [];
      let read = 0;
      res.on('data', (c: Buffer) => {
        read += c.length;
        if (read > MAX_METADATA_BYTES) { res.destroy(new Error(`client metadata document over ${MAX_METADATA_BYTES} bytes`)); return; }
        chunks.push(c);
      });
      res.on('error', reject);
      res.on('end', () => {
        const out = new Headers();
        for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) out.set(k, Array.isArray(v) ? v.join(', ') : v);
        const status = res.statusCode ?? 500;
        resolve(new Response([101, 204, 205, 304].includes(status) ? null : Buffer.concat(chunks), { status, headers: out }));
      });
    });
    req.on('error', reject);
    req.end();
  });
}
