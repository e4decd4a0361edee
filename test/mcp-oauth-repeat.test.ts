// An MCP host signs in every time (#37): the official SDK client with its OAuth provider, against two
// `kerf serve` processes on one store (a round-robin proxy in front, so consecutive requests of one
// sign-in land on different processes), consent in a headless Chromium. The first round signs up,
// then every round makes two overlapping sign-ins of the same host (one registration, one browser:
// a retried sign-in, or two server entries of one host) and exchanges the older code after the
// newer consent, then calls tools and refreshes. Before the fix the older code was "not found"
// (invalid_grant) because oidc-provider bound it to the browser session's one slot per client; see
// adapters/oauth/src/provider.ts. The first round also revokes (an access token alone ends its whole
// connection) and steps up (insufficient_scope -> re-consent -> the tool call succeeds).
// KERF_OAUTH_REPEAT sets the number of rounds (default 3).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { Browser, Page } from 'playwright-core';
import * as oidc from 'openid-client';
import { Client, StreamableHTTPClientTransport, UnauthorizedError, type CallToolResult, type OAuthClientInformationMixed, type OAuthClientProvider, type OAuthTokens } from '@modelcontextprotocol/client';
import { childServiceGroup, spawnServe } from './helpers/child.ts';
import { freePort } from './helpers/service.ts';
import { callbackServer, connect, type Callback } from './helpers/oauth.ts';
import { launchBrowser } from './helpers/browser.ts';

const ROUNDS = Number(process.env.KERF_OAUTH_REPEAT ?? 3);
const PASSWORD = 'correct horse battery';

/** Headers of one connection (RFC 9110 7.6.1): a proxy does not pass them on. */
const HOP_BY_HOP = ['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade'];
const endToEnd = (headers: Record<string, string | string[] | undefined>): Record<string, string | string[] | undefined> =>
  Object.fromEntries(Object.entries(headers).filter(([k]) => !HOP_BY_HOP.includes(k.toLowerCase())));

/**
 * One origin in front of several processes, each request to the next one in turn (a load balancer
 * without affinity). Hop-by-hop headers stay behind: passing on a process's `Keep-Alive: timeout`
 * would have clients keep idle sockets to this proxy longer than it does.
 */
async function roundRobin(ports: number[]): Promise<{ server: Server; port: number }> {
  let next = 0;
  const server = createServer((req, res) => {
    const up = httpRequest({ host: '127.0.0.1', port: ports[next++ % ports.length], method: req.method, path: req.url, headers: endToEnd(req.headers) }, (r) => {
      res.writeHead(r.statusCode ?? 502, endToEnd(r.headers));
      r.pipe(res);
    });
    up.on('error', () => { if (!res.headersSent) res.writeHead(502); res.end(); });
    req.pipe(up);
  });
  const port = await freePort();
  await new Promise<void>((r) => server.listen(port, '127.0.0.1', r));
  return { server, port };
}

describe(`an MCP host signs in ${ROUNDS} times across two service processes (SDK client, Chromium consent)`, () => {
  const group = childServiceGroup('kerf-mcp-oauth-');
  let base: string;
  let proxy: Server;
  let browser: Browser;
  let page: Page;
  let cb: Callback;
  const email = `host-${Date.now()}@test.local`;
  let signedUp = false;
  /** The host's registration, kept across its sign-ins as hosts keep it. */
  let registration: OAuthClientInformationMixed | undefined;
  const clients: Client[] = [];

  before(async () => {
    const ports = [await freePort(), await freePort()];
    const front = await roundRobin(ports);
    proxy = front.server;
    base = `http://127.0.0.1:${front.port}`;
    // both processes serve the one origin; rate limits off: this is one host signing in many times
    const env = { KERF_DATA_DIR: group.dir, KERF_BASE_URL: base, KERF_RATE_LIMIT: '0', KERF_SIGNUP_RATE_LIMIT: '0', LOG_LEVEL: 'warn' };
    for (const port of ports) group.children.push(await spawnServe(env, port));
    cb = await callbackServer();
    browser = await launchBrowser();
    page = await browser.newPage();
  });
  after(async () => {
    for (const c of clients) await c.close().catch(() => undefined);
    await browser?.close();
    cb?.server.close();
    proxy?.close();
  });

  /**
   * What a host keeps for one server entry. Its metadata names no grant types (many hosts send none),
   * so the SDK asks for no offline_access: the case where oidc-provider bound codes to the browser
   * session. `decide` answers the consent page; the callback is recorded, not yet exchanged.
   */
  function host(decide: (p: Page) => Promise<void> = connect): OAuthClientProvider & { callback: URL | null; saved: OAuthTokens | undefined; reauth: boolean } {
    const kept: { tokens?: OAuthTokens; verifier?: string } = {};
    return {
      callback: null,
      reauth: true,
      get saved() { return kept.tokens; },
      get redirectUrl() { return cb.url; },
      get clientMetadata() { return { client_name: 'Repeat host', redirect_uris: [cb.url], token_endpoint_auth_method: 'none' }; },
      clientInformation: () => registration,
      saveClientInformation: (info) => { registration = info; },
      tokens: () => kept.tokens,
      saveTokens: (tokens) => { kept.tokens = tokens; },
      saveCodeVerifier: (v) => { kept.verifier = v; },
      codeVerifier: () => kept.verifier!,
      async redirectToAuthorization(url: URL) {
        if (!this.reauth) throw new Error('the host would ask the person to sign in again');
        cb.last = null;
        await page.goto(url.href);
        if (page.url().includes('/signin')) {
          if (!signedUp) {
            await page.getByRole('link', { name: 'Sign up' }).click();
            await page.waitForURL(/\/signup/);
            signedUp = true;
          }
          await page.fill('#email', email);
          await page.fill('#password', PASSWORD);
          await page.getByRole('button', { name: /Sign in|Create account/ }).click();
        }
        await page.waitForURL(/\/oauth\/consent\//);
        await decide(page);
        await page.waitForURL((u) => u.href.startsWith(`http://127.0.0.1:${cb.port}/`));
        this.callback = cb.last;
      },
    };
  }

  const mcpUrl = (): URL => new URL(`${base}/mcp`);

  /** The SDK's first connect: 401, discovery (and registration once), consent; the code is left unexchanged. */
  async function startSignIn(auth: ReturnType<typeof host>): Promise<void> {
    await assert.rejects(new Client({ name: 'repeat-host', version: '1.0.0' }).connect(new StreamableHTTPClientTransport(mcpUrl(), { authProvider: auth })), (e: unknown) => {
      if (!(e instanceof UnauthorizedError)) throw e;
      return true;
    });
    assert.ok(auth.callback?.searchParams.get('code'), 'the person was sent back with a code');
  }

  /** The SDK exchanges the code (finishAuth) and connects with the tokens. */
  async function finishSignIn(auth: ReturnType<typeof host>): Promise<Client> {
    await new StreamableHTTPClientTransport(mcpUrl(), { authProvider: auth }).finishAuth(auth.callback!.searchParams);
    const client = new Client({ name: 'repeat-host', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(mcpUrl(), { authProvider: auth }));
    clients.push(client);
    return client;
  }

  const call = async (client: Client, name: string, args: Record<string, unknown>): Promise<CallToolResult> => (await client.callTool({ name, arguments: args })) as CallToolResult;

  /** openid-client (a separate, certified client library) for what the MCP SDK has no call for: revocation. */
  async function oauthClient(): Promise<oidc.Configuration> {
    return oidc.discovery(new URL(base), registration!.client_id, undefined, oidc.None(), { execute: [oidc.allowInsecureRequests], algorithm: 'oauth2' });
  }

  for (let round = 1; round <= ROUNDS; round++) {
    it(`round ${round}: two overlapping sign-ins both exchange, tools answer, refresh rotates${round === 1 ? '; revoke ends a connection; step-up' : ''}`, async () => {
      // the first declines quotes, to be stepped up later; the second takes the defaults
      const first = host(async (p) => { await p.uncheck('input[name=scope][value=quotes]'); await connect(p); });
      const second = host();
      await startSignIn(first);
      await startSignIn(second);
      // the older code is exchanged after the newer consent: both are fresh and unused
      const a = await finishSignIn(first);
      const b = await finishSignIn(second);
      assert.equal((await a.listTools()).tools.length, 12);
      const found = await call(b, 'search_catalog', { catalog: 'materials', query: 'mild steel 2 mm', limit: 1 });
      assert.ok(!found.isError, JSON.stringify(found.content));

      // refresh: the access token is no longer accepted, so the SDK refreshes (rotation) and retries
      const before = first.saved!;
      first.saveTokens({ ...before, access_token: 'expired-by-the-test' });
      assert.ok(!(await call(a, 'search_catalog', { catalog: 'finishes', limit: 1 })).isError);
      assert.notEqual(first.saved!.refresh_token, before.refresh_token, 'a refresh returns a new refresh token');
      assert.notEqual(first.saved!.access_token, 'expired-by-the-test');

      if (round !== 1) return;

      // revoke: revoking the second connection's access token alone ends that whole connection
      // (its refresh token too, docs/agents.md); the first connection is untouched
      await oidc.tokenRevocation(await oauthClient(), second.saved!.access_token);
      second.reauth = false;
      await assert.rejects(b.listTools(), 'neither the access token nor a refresh gets the revoked connection in');
      assert.ok(!(await call(a, 'search_catalog', { catalog: 'finishes', limit: 1 })).isError, 'another connection goes on');

      // step-up: quotes was declined; the 403 insufficient_scope sends the SDK back to the person,
      // who grants it this time; the tool call then gets past the scope check
      let asked = 0;
      const stepUp = host(async (p) => { asked++; await connect(p); });
      stepUp.saveTokens(first.saved!);
      const before403 = new Client({ name: 'repeat-host', version: '1.0.0' });
      await before403.connect(new StreamableHTTPClientTransport(mcpUrl(), { authProvider: stepUp }));
      clients.push(before403);
      await assert.rejects(call(before403, 'quote_designs', { items: [{ design_id: 'des_x', quantity: 1 }], operation_key: randomUUID() }), (e: unknown) => e instanceof UnauthorizedError);
      assert.equal(asked, 1, 'the person was asked again');
      const upgraded = await finishSignIn(stepUp);
      const quote = await call(upgraded, 'quote_designs', { items: [{ design_id: 'des_x', quantity: 1 }], operation_key: randomUUID() });
      assert.equal((quote.structuredContent as { error?: { code: string } }).error?.code, 'resource_missing', 'past the scope check, to the use case');
    });
  }
});
