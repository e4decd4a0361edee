// Client ID Metadata Documents (the MCP authorization spec's preferred registration): a client
// presents the https URL of its metadata as client_id; the server fetches and checks it (client_id
// equals the URL, public client), caches it, and never fetches private addresses. The document is
// served from a local https server, which only the test flag KERF_OAUTH_ALLOW_LOOPBACK_CLIENT_METADATA
// lets the server reach.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as client from 'openid-client';
import type { Browser, Page } from 'playwright-core';
import { createPasswordAccount } from '@kerf/usecases';
import { startTestService, type TestService } from './helpers/service.ts';
import { authorizeInBrowser, callbackServer, metadataServer, type Callback } from './helpers/oauth.ts';
import { launchBrowser } from './helpers/browser.ts';

const PASSWORD = 'correct horse battery';

describe('OAuth Client ID Metadata Documents', () => {
  let t: TestService;
  let strict: TestService;
  let meta: Awaited<ReturnType<typeof metadataServer>>;
  let cb: Callback;
  let browser: Browser;
  let page: Page;
  let email: string;

  before(async () => {
    t = await startTestService({ oauthAllowLoopbackClientMetadata: true });
    strict = await startTestService();
    email = `cimd-${Date.now()}@test.local`;
    await createPasswordAccount(t.service.ctx, { email, password: PASSWORD });
    meta = await metadataServer();
    cb = await callbackServer();
    browser = await launchBrowser();
    page = await browser.newPage();
  });
  after(async () => { await browser?.close(); cb?.server.close(); meta?.server.close(); await t?.close(); await strict?.close(); });

  const document = (path: string, extra: Record<string, unknown> = {}) => {
    const clientId = `${meta.base}${path}`;
    meta.docs.set(path, { client_id: clientId, client_name: 'Metadata agent', redirect_uris: [cb.url], grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], token_endpoint_auth_method: 'none', ...extra });
    return clientId;
  };
  const authorizeStatus = async (base: string, clientId: string) => {
    const challenge = await client.calculatePKCECodeChallenge(client.randomPKCECodeVerifier());
    const res = await fetch(`${base}/v1/oauth/authorize?${new URLSearchParams({ client_id: clientId, response_type: 'code', redirect_uri: cb.url, scope: 'designs', code_challenge: challenge, code_challenge_method: 'S256' })}`, { redirect: 'manual' });
    return res.status;
  };

  it('a client known only by its metadata URL connects, and the document is fetched once (cached)', async () => {
    const clientId = document('/agent.json', { scope: 'designs quotes' });
    const server = await client.discovery(new URL(t.url), clientId, undefined, client.None(), { execute: [client.allowInsecureRequests], algorithm: 'oauth2' });
    assert.equal(server.serverMetadata().client_id_metadata_document_supported, true);
    const { callback, verifier, state } = await authorizeInBrowser(page, server, { cb, scope: 'designs quotes', email, password: PASSWORD, decide: async (p) => {
      assert.equal(await p.textContent('#client-name'), 'Metadata agent');
      await p.getByRole('button', { name: 'Connect' }).click();
    } });
    const tokens = await client.authorizationCodeGrant(server, callback, { pkceCodeVerifier: verifier, expectedState: state });
    assert.equal(tokens.scope, 'designs quotes');
    const refreshed = await client.refreshTokenGrant(server, tokens.refresh_token!);
    assert.ok(refreshed.access_token);
    assert.equal(meta.fetches.filter((f) => f === '/agent.json').length, 1);
  });

  it('refuses a document whose client_id is not its URL, or that asks for a client secret', async () => {
    const wrongId = document('/wrong-id.json');
    meta.docs.set('/wrong-id.json', { ...(meta.docs.get('/wrong-id.json') as object), client_id: `${meta.base}/someone-else.json` });
    assert.equal(await authorizeStatus(t.url, wrongId), 400);
    const secret = document('/secret.json', { token_endpoint_auth_method: 'client_secret_basic' });
    assert.equal(await authorizeStatus(t.url, secret), 400);
    assert.equal(await authorizeStatus(t.url, `${meta.base}/missing.json`), 400);
  });

  it('without the test flag, a metadata URL on a private address is never fetched', async () => {
    const clientId = document('/private.json');
    const before = meta.fetches.length;
    assert.equal(await authorizeStatus(strict.url, clientId), 400);
    assert.equal(meta.fetches.length, before, 'no request reached the loopback server');
  });
});
