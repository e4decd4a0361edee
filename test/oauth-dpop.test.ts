// DPoP (issue #33.7): the API and /mcp take Bearer tokens only, so the authorization server issues no
// DPoP-bound token, even to a client that sends a DPoP proof (openid-client with a DPoP key here),
// and does not advertise DPoP; a bound token (one carrying a key thumbprint, say from before this
// rule) is refused on /v1 and /mcp rather than accepted without its proof.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import * as client from 'openid-client';
import type { Browser, Page } from 'playwright-core';
import { StoreAdapter } from '@kerf/oauth';
import { createPasswordAccount, SCOPES } from '@kerf/usecases';
import { startTestService, type TestService } from './helpers/service.ts';
import { authorizeInBrowser, callbackServer, type Callback } from './helpers/oauth.ts';
import { launchBrowser } from './helpers/browser.ts';

const PASSWORD = 'correct horse battery';

describe('OAuth: no DPoP-bound tokens, and none accepted without a proof', () => {
  let t: TestService;
  let browser: Browser;
  let page: Page;
  let cb: Callback;
  let email: string;
  const options = { execute: [client.allowInsecureRequests], algorithm: 'oauth2' as const };

  before(async () => {
    t = await startTestService();
    email = `dpop-${Date.now()}@test.local`;
    await createPasswordAccount(t.service.ctx, { email, password: PASSWORD });
    cb = await callbackServer();
    browser = await launchBrowser();
    page = await browser.newPage();
  });
  after(async () => { await browser?.close(); cb?.server.close(); await t?.close(); });

  const mcpList = (token: string) => fetch(`${t.url}/mcp`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
  });

  it('discovery advertises no DPoP; a client proving a DPoP key still gets a Bearer token (code and refresh), which /v1 and /mcp accept', async () => {
    const meta = await (await fetch(`${t.url}/.well-known/oauth-authorization-server`)).json() as Record<string, unknown>;
    assert.equal(meta.dpop_signing_alg_values_supported, undefined);

    const config = await client.dynamicClientRegistration(new URL(t.url), { client_name: 'DPoP agent', redirect_uris: [cb.url], grant_types: ['authorization_code', 'refresh_token'], token_endpoint_auth_method: 'none' }, client.None(), options);
    const dpop = client.getDPoPHandle(config, await client.randomDPoPKeyPair());
    const { callback, verifier, state } = await authorizeInBrowser(page, config, { cb, scope: 'designs quotes', email, password: PASSWORD });
    const tokens = await client.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedState: state }, undefined, { DPoP: dpop });
    assert.equal(tokens.token_type.toLowerCase(), 'bearer');
    assert.equal((await fetch(`${t.url}/v1/account`, { headers: { authorization: `Bearer ${tokens.access_token}` } })).status, 200);
    assert.equal((await mcpList(tokens.access_token)).status, 200);

    const refreshed = await client.refreshTokenGrant(config, tokens.refresh_token!, undefined, { DPoP: dpop });
    assert.equal(refreshed.token_type.toLowerCase(), 'bearer');
    assert.equal((await fetch(`${t.url}/v1/account`, { headers: { authorization: `Bearer ${refreshed.access_token}` } })).status, 200);
  });

  it('a bound access token (a key thumbprint in it) is refused as a Bearer token on /v1 and /mcp', async () => {
    const grantId = randomBytes(16).toString('base64url');
    const exp = Math.floor(Date.now() / 1000) + 900;
    await new StoreAdapter(t.service.store, 'Grant').upsert(grantId, { jti: grantId, kind: 'Grant', accountId: t.accountA, clientId: 'svc-agent', exp }, 900);
    const token = async (extra: Record<string, unknown>) => {
      const value = randomBytes(32).toString('base64url');
      await new StoreAdapter(t.service.store, 'AccessToken').upsert(value, { jti: value, kind: 'AccessToken', accountId: t.accountA, grantId, clientId: 'svc-agent', scope: SCOPES.join(' '), exp, ...extra }, 900);
      return value;
    };
    const plain = await token({});
    assert.equal((await fetch(`${t.url}/v1/account`, { headers: { authorization: `Bearer ${plain}` } })).status, 200, 'the same token unbound is accepted');
    for (const binding of [{ jkt: 'kQ9cVb4fVxE1rpxN3F3c0wXyrK1oRt8cJgvBqZpYzXU' }, { 'x5t#S256': 'kQ9cVb4fVxE1rpxN3F3c0wXyrK1oRt8cJgvBqZpYzXU' }]) {
      const bound = await token(binding);
      const res = await fetch(`${t.url}/v1/account`, { headers: { authorization: `Bearer ${bound}` } });
      assert.equal(res.status, 401, JSON.stringify(binding));
      assert.equal((await mcpList(bound)).status, 401, `/mcp ${JSON.stringify(binding)}`);
    }
  });
});
