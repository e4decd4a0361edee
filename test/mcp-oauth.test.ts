// A standard MCP client connects to the hosted server with no credentials configured: the SDK's
// client follows the 401 to the protected-resource metadata, registers itself (RFC 7591), a person in
// a headless Chromium signs in and consents, the client exchanges the code and calls tools with the
// access token. The scopes it asks for are the server's (designs dfm quotes carts), never payments;
// a token lacking a tool's scope is challenged for it (step-up), orders included though the server
// does not ask for it at connection. A client that has a Client ID Metadata
// Document presents its URL as client_id instead of registering.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { Client, StreamableHTTPClientTransport, UnauthorizedError, type CallToolResult, type OAuthClientProvider } from '@modelcontextprotocol/client';
import { createPasswordAccount } from '@kerf/usecases';
import { startTestService, type TestService } from './helpers/service.ts';
import { callbackServer, connect, metadataServer, type Callback } from './helpers/oauth.ts';
import { launchBrowser } from './helpers/browser.ts';

const PASSWORD = 'correct horse battery';

describe('hosted MCP server with OAuth (the SDK client discovers, registers and connects)', () => {
  let t: TestService;
  let browser: Browser;
  let page: Page;
  let cb: Callback;
  let email: string;
  let meta: Awaited<ReturnType<typeof metadataServer>>;
  const clients: Client[] = [];

  before(async () => {
    t = await startTestService({ oauthAllowLoopbackClientMetadata: true });
    meta = await metadataServer();
    email = `mcp-${Date.now()}@test.local`;
    await createPasswordAccount(t.service.ctx, { email, password: PASSWORD });
    cb = await callbackServer();
    browser = await launchBrowser();
    page = await browser.newPage();
  });
  after(async () => {
    for (const c of clients) await c.close();
    await browser?.close();
    cb?.server.close();
    meta?.server.close();
    await t?.close();
  });

  /** What an MCP host keeps for a server, and the person who answers the consent page. */
  function provider(decide: (p: Page) => Promise<void>, registered?: { client_id: string }, clientMetadataUrl?: string): OAuthClientProvider & { scopesAsked: string | null; callback: URL | null } {
    const kept: { client?: unknown; tokens?: unknown; verifier?: string } = { client: registered };
    return {
      clientMetadataUrl,
      scopesAsked: null,
      callback: null,
      get redirectUrl() { return cb.url; },
      get clientMetadata() {
        return { client_name: 'MCP test agent', redirect_uris: [cb.url], grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], token_endpoint_auth_method: 'none' };
      },
      clientInformation: () => kept.client as never,
      saveClientInformation: (info) => { kept.client = info; },
      tokens: () => kept.tokens as never,
      saveTokens: (tokens) => { kept.tokens = tokens; },
      saveCodeVerifier: (v) => { kept.verifier = v; },
      codeVerifier: () => kept.verifier!,
      async redirectToAuthorization(url: URL) {
        this.scopesAsked = url.searchParams.get('scope');
        cb.last = null;
        await page.goto(url.href);
        if (page.url().includes('/signin')) {
          await page.fill('#email', email);
          await page.fill('#password', PASSWORD);
          await page.getByRole('button', { name: 'Sign in' }).click();
        }
        await page.waitForURL(/\/oauth\/consent\//);
        await decide(page);
        await page.waitForURL((u) => u.href.startsWith(`http://127.0.0.1:${cb.port}/`));
        this.callback = cb.last;
      },
    };
  }

  /** A client registered beforehand (RFC 7591 without `scope`), as MCP's pre-registration allows. */
  async function preRegistered(): Promise<{ client_id: string }> {
    const r = await fetch(`${t.url}/v1/oauth/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({
      client_name: 'MCP test agent', redirect_uris: [cb.url], grant_types: ['authorization_code', 'refresh_token'], token_endpoint_auth_method: 'none',
    }) });
    assert.equal(r.status, 201);
    return (await r.json()) as { client_id: string };
  }

  async function connectWithOAuth(decide: (p: Page) => Promise<void>, registered?: { client_id: string }, clientMetadataUrl?: string): Promise<{ client: Client; scopesAsked: string | null; auth: ReturnType<typeof provider> }> {
    const auth = provider(decide, registered, clientMetadataUrl);
    const url = new URL(`${t.url}/mcp`);
    const first = new Client({ name: 'kerf-test', version: '1.0.0' });
    await assert.rejects(first.connect(new StreamableHTTPClientTransport(url, { authProvider: auth })), (e: unknown) => {
      if (!(e instanceof UnauthorizedError)) throw e;
      return true;
    });
    assert.ok(auth.callback, 'the person was sent back to the client');
    const transport = new StreamableHTTPClientTransport(url, { authProvider: auth });
    await transport.finishAuth(auth.callback.searchParams);
    const client = new Client({ name: 'kerf-test', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await client.connect(new StreamableHTTPClientTransport(url, { authProvider: auth }));
    clients.push(client);
    return { client, scopesAsked: auth.scopesAsked, auth };
  }

  /** After a step-up's consent: the person is back at the client, which finishes the exchange and connects again. */
  async function reconnectAfterConsent(auth: ReturnType<typeof provider>): Promise<Client> {
    const back = auth.callback as URL | null; // set again by the second consent
    assert.ok(back);
    const url = new URL(`${t.url}/mcp`);
    await new StreamableHTTPClientTransport(url, { authProvider: auth }).finishAuth(back.searchParams);
    const again = new Client({ name: 'kerf-test', version: '1.0.0' });
    await again.connect(new StreamableHTTPClientTransport(url, { authProvider: auth }));
    clients.push(again);
    return again;
  }

  const call = async (client: Client, name: string, args: Record<string, unknown>): Promise<CallToolResult> => (await client.callTool({ name, arguments: args })) as CallToolResult;

  it('connects by itself from a 401, asking for designs dfm quotes carts and never payments, and calls tools', async () => {
    const { client, scopesAsked } = await connectWithOAuth(connect, await preRegistered());
    // the server's scopes, plus offline_access the SDK adds for a refresh token; never payments
    assert.deepEqual(scopesAsked?.split(' ').filter((s) => s !== 'offline_access').sort(), ['carts', 'designs', 'dfm', 'quotes']);
    assert.equal((await client.listTools()).tools.length, 12);
    const up = await call(client, 'prepare_upload', { request: { filename: 'part.step' }, operation_key: randomUUID() });
    assert.ok(!up.isError, JSON.stringify(up.content));
    const design = await call(client, 'inspect_design', { design_id: (up.structuredContent as { design_id: string }).design_id });
    assert.equal((design.structuredContent as { status: string }).status, 'awaiting_upload');
  });

  it('a connection granted without quotes is challenged for it (403 insufficient_scope, step-up) and quotes once the person grants it', async () => {
    let round = 0;
    const { client, auth } = await connectWithOAuth(async (p) => {
      // the first time the person declines quotes; asked again, they grant it
      if (round++ === 0) await p.uncheck('input[name=scope][value=quotes]');
      await connect(p);
    }, await preRegistered());
    // what it was granted works
    assert.ok(!(await call(client, 'search_catalog', { catalog: 'finishes', limit: 1 })).isError);
    auth.callback = null;
    await assert.rejects(call(client, 'quote_designs', { items: [{ design_id: 'des_x', quantity: 1 }], operation_key: randomUUID() }), (e: unknown) => e instanceof UnauthorizedError);
    assert.equal(round, 2, 'the person was asked again');
    assert.deepEqual(auth.scopesAsked?.split(' ').filter((s) => s !== 'offline_access').sort(), ['carts', 'designs', 'dfm', 'quotes'], 'what it had plus quotes, never payments');
    const again = await reconnectAfterConsent(auth);
    const r = await call(again, 'quote_designs', { items: [{ design_id: 'des_x', quantity: 1 }], operation_key: randomUUID() });
    assert.equal((r.structuredContent as { error: { code: string } }).error.code, 'resource_missing', 'past the scope check, to the use case');
  });

  it('a tool that needs orders, which the server does not ask for at connection, steps up for it (get_order_production_files)', async () => {
    let round = 0;
    const { client, auth } = await connectWithOAuth(async (p) => { round++; await connect(p); }, await preRegistered());
    auth.callback = null;
    await assert.rejects(call(client, 'get_order_production_files', { order_id: 'ord_x' }), (e: unknown) => e instanceof UnauthorizedError);
    assert.equal(round, 2, 'the person was asked again');
    assert.deepEqual(auth.scopesAsked?.split(' ').filter((s) => s !== 'offline_access').sort(), ['carts', 'designs', 'dfm', 'orders', 'quotes'], 'what it had plus orders, never payments');
    const again = await reconnectAfterConsent(auth);
    const r = await call(again, 'get_order_production_files', { order_id: 'ord_x' });
    assert.equal((r.structuredContent as { error: { code: string } }).error.code, 'resource_missing', 'past the scope check, to the use case');
  });

  // The SDK client registers itself with the scope it will ask for (client metadata `scope`); the
  // authorization server drops API scopes there (the person grants them on the consent page).
  it('registers itself (RFC 7591, with the scopes it asks for) when it has no registration', async () => {
    const { client } = await connectWithOAuth(connect);
    assert.equal((await client.listTools()).tools.length, 12);
  });

  it('connects with a Client ID Metadata Document: its URL is the client_id, fetched by the server, no registration', async () => {
    const clientId = `${meta.base}/mcp-agent.json`;
    meta.docs.set('/mcp-agent.json', { client_id: clientId, client_name: 'MCP metadata agent', redirect_uris: [cb.url], grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], token_endpoint_auth_method: 'none' });
    let clientName: string | null = null;
    const { client, auth } = await connectWithOAuth(async (p) => { clientName = await p.textContent('#client-name'); await connect(p); }, undefined, clientId);
    assert.equal(clientName, 'MCP metadata agent', 'the consent page names the client from its document');
    assert.equal((auth.clientInformation() as { client_id: string }).client_id, clientId);
    assert.ok(meta.fetches.includes('/mcp-agent.json'), 'the server fetched the document');
    assert.equal((await client.listTools()).tools.length, 12);
  });
});
