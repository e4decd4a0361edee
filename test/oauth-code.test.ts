// Authorization code + PKCE as a browser or local agent runs it: openid-client registers a public
// client (RFC 7591), a headless Chromium signs in and consents, the client checks state and `iss`
// (RFC 9207) and exchanges the code; then refresh rotation, reuse revocation, revocation (RFC 7009),
// and the refusals: wrong verifier, plain method, redirect mismatch, another client's code and token.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as client from 'openid-client';
import * as oauth from 'oauth4webapi';
import type { Browser, Page } from 'playwright-core';
import { apiKeyCaller, authenticate, createPasswordAccount, getAccount, listConnections, startCardSetup, UseCaseError } from '@kerf/usecases';
import { startTestService, type TestService } from './helpers/service.ts';
import { authorizeInBrowser, callbackServer, connect, oauthError, type Callback } from './helpers/oauth.ts';
import { launchBrowser } from './helpers/browser.ts';

const PASSWORD = 'correct horse battery';

describe('OAuth authorization code + PKCE (openid-client, oauth4webapi + Chromium)', () => {
  let t: TestService;
  let browser: Browser;
  let page: Page;
  let cb: Callback;
  let email: string;
  const options = { execute: [client.allowInsecureRequests], algorithm: 'oauth2' as const };

  before(async () => {
    t = await startTestService();
    email = `code-${Date.now()}@test.local`;
    await createPasswordAccount(t.service.ctx, { email, password: PASSWORD });
    cb = await callbackServer();
    browser = await launchBrowser();
    page = await browser.newPage();
  });
  after(async () => { await browser?.close(); cb?.server.close(); await t?.close(); });

  const register = (name = 'Test agent', redirectUris = [cb.url]) =>
    client.dynamicClientRegistration(new URL(t.url), { client_name: name, redirect_uris: redirectUris, grant_types: ['authorization_code', 'refresh_token'], token_endpoint_auth_method: 'none' }, client.None(), options);

  const authorize = (config: client.Configuration, scope: string, decide?: (p: Page) => Promise<void>) =>
    authorizeInBrowser(page, config, { cb, scope, email, password: PASSWORD, decide });

  it('registers, consents (the optional webhooks and payments start unchecked and may be declined), exchanges the code with state and iss checked', async () => {
    const config = await register();
    const { callback, verifier, state } = await authorize(config, 'designs quotes carts webhooks payments', async (p) => {
      assert.equal(await p.textContent('#client-name'), 'Test agent');
      assert.equal(await p.textContent('#redirect-host'), `127.0.0.1:${cb.port}`);
      const offered = await p.$$eval('input[name=scope]', (els) => els.map((e) => [(e as HTMLInputElement).value, (e as HTMLInputElement).checked]));
      assert.deepEqual(offered, [['designs', true], ['quotes', true], ['carts', true], ['webhooks', false], ['payments', false]]);
      await connect(p);
    });
    assert.equal(callback.searchParams.get('iss'), t.url);
    const tokens = await client.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedState: state });
    assert.equal(tokens.scope, 'designs quotes carts');
    assert.ok(tokens.refresh_token);
    assert.ok(tokens.expires_in! <= 900);
    const caller = await authenticate(t.service.store, tokens.access_token);
    assert.deepEqual([caller.via, caller.scopes], ['oauth', ['designs', 'quotes', 'carts']]);
    // agents cannot manage connections (nor keys, cards, sessions)
    await assert.rejects(listConnections(t.service.ctx, caller, {}), (e: unknown) => e instanceof UseCaseError && e.code === 'agent_not_allowed' && e.kind === 'forbidden');
    // nor see the page that saves a card: GET /v1/account hides it from the agent, not from the person
    const seen = await (await fetch(`${t.url}/v1/account`, { headers: { authorization: `Bearer ${tokens.access_token}` } })).json() as { has_saved_card: boolean; payment_method_setup_url: string | null };
    assert.deepEqual([seen.has_saved_card, seen.payment_method_setup_url], [false, null]);
    assert.match(String((await getAccount(t.service.ctx, apiKeyCaller({ accountId: caller.accountId, keyId: 'key_test', operator: false }))).payment_method_setup_url), /^https?:/);
    await assert.rejects(startCardSetup(t.service.ctx, caller, {}), (e: unknown) => e instanceof UseCaseError && e.code === 'agent_not_allowed');
    // the person sees it: client, scopes, created, last used (just now)
    const { data } = await listConnections(t.service.ctx, apiKeyCaller({ accountId: caller.accountId, keyId: 'key_test', operator: false }), {});
    const mine = data.find((c) => c.id === caller.credentialId)!;
    assert.equal(mine.client_name, 'Test agent');
    assert.deepEqual(mine.scopes, ['designs', 'quotes', 'carts']);
    assert.ok(mine.last_used_at && Date.now() - Date.parse(mine.last_used_at) < 60_000, String(mine.last_used_at));
    assert.ok(Date.parse(mine.expires_at!) - Date.parse(mine.created_at) <= 30 * 24 * 3600 * 1000 + 1000);
  });

  it('oauth4webapi runs the same flow: callback validated (state, iss), code exchanged with its verifier', async () => {
    const config = await register('Low-level agent');
    const issuer = new URL(t.url);
    const as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { algorithm: 'oauth2', [oauth.allowInsecureRequests]: true }));
    const c: oauth.Client = { client_id: config.clientMetadata().client_id };
    const { callback, verifier, state } = await authorize(config, 'designs orders');
    const params = oauth.validateAuthResponse(as, c, callback, state);
    const res = await oauth.authorizationCodeGrantRequest(as, c, oauth.None(), params, cb.url, verifier, { [oauth.allowInsecureRequests]: true });
    const tokens = await oauth.processAuthorizationCodeResponse(as, c, res);
    assert.equal(tokens.scope, 'designs orders');
    // a callback carrying another issuer is refused by the client (RFC 9207 mix-up defence)
    const forged = new URL(callback);
    forged.searchParams.set('iss', 'https://attacker.example');
    assert.throws(() => oauth.validateAuthResponse(as, c, forged, state));
  });

  it('payments with carts is granted when the person checks it', async () => {
    const config = await register();
    const { callback, verifier, state } = await authorize(config, 'carts payments', async (p) => {
      await p.check('input[value=payments]');
      await connect(p);
    });
    const tokens = await client.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedState: state });
    assert.equal(tokens.scope, 'carts payments');
  });

  it('declining sends the browser back with access_denied and iss, and connects nothing', async () => {
    const config = await register('Declined agent');
    const { callback, state } = await authorize(config, 'designs', async (p) => { await p.getByRole('button', { name: 'Decline' }).click(); });
    assert.equal(callback.searchParams.get('error'), 'access_denied');
    assert.equal(callback.searchParams.get('state'), state);
    assert.equal(callback.searchParams.get('iss'), t.url);
    assert.equal(callback.searchParams.get('code'), null);
    const person = (await t.service.store.accounts.findByEmail(email))!;
    const { data } = await listConnections(t.service.ctx, apiKeyCaller({ accountId: person.id, keyId: 'key_test', operator: false }), {});
    assert.equal(data.filter((c) => c.client_name === 'Declined agent').length, 0);
  });

  it('every refresh rotates; reusing a consumed refresh token revokes the whole connection', async () => {
    const config = await register();
    const { callback, verifier, state } = await authorize(config, 'designs');
    const first = await client.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedState: state });
    const second = await client.refreshTokenGrant(config, first.refresh_token!);
    assert.notEqual(second.refresh_token, first.refresh_token);
    assert.equal(second.scope, 'designs');
    const auth = (tok: string) => ({ authorization: `Bearer ${tok}` });
    assert.equal((await fetch(`${t.url}/v1/designs/des_none`, { headers: auth(second.access_token) })).status, 404);

    assert.equal((await oauthError(() => client.refreshTokenGrant(config, first.refresh_token!))).error, 'invalid_grant');
    // the reuse took the connection down: the newer refresh token and the access token too
    assert.equal((await oauthError(() => client.refreshTokenGrant(config, second.refresh_token!))).error, 'invalid_grant');
    assert.equal((await fetch(`${t.url}/v1/designs/des_none`, { headers: auth(second.access_token) })).status, 401);
  });

  it('revocation (RFC 7009) and the account page both end a connection at once', async () => {
    const config = await register('Revoked agent');
    const a = await authorize(config, 'designs');
    const viaApi = await client.authorizationCodeGrant(config, a.callback, { pkceCodeVerifier: a.verifier, expectedState: a.state });
    await client.tokenRevocation(config, viaApi.refresh_token!);
    assert.equal((await oauthError(() => client.refreshTokenGrant(config, viaApi.refresh_token!))).error, 'invalid_grant');
    assert.equal((await fetch(`${t.url}/v1/designs/des_none`, { headers: { authorization: `Bearer ${viaApi.access_token}` } })).status, 401);

    const b = await authorize(config, 'designs');
    const viaPage = await client.authorizationCodeGrant(config, b.callback, { pkceCodeVerifier: b.verifier, expectedState: b.state });
    assert.equal((await fetch(`${t.url}/v1/designs/des_none`, { headers: { authorization: `Bearer ${viaPage.access_token}` } })).status, 404);
    await page.goto(`${t.url}/account`);
    const row = page.locator('#connections tr', { hasText: 'Revoked agent' });
    assert.equal(await row.count(), 1, 'one live connection of that client is listed');
    assert.match(await row.textContent() ?? '', /designs/);
    await row.getByRole('button', { name: /Revoke/ }).click();
    await page.waitForURL(/revoked=1/);
    assert.equal(await page.locator('#connections tr', { hasText: 'Revoked agent' }).count(), 0);
    assert.equal((await fetch(`${t.url}/v1/designs/des_none`, { headers: { authorization: `Bearer ${viaPage.access_token}` } })).status, 401);
    assert.equal((await oauthError(() => client.refreshTokenGrant(config, viaPage.refresh_token!))).error, 'invalid_grant');
  });

  it('refuses a wrong verifier, and a code or refresh token of another client', async () => {
    const mine = await register('Mine');
    const theirs = await register('Theirs');
    const a = await authorize(mine, 'designs');
    assert.equal((await oauthError(() => client.authorizationCodeGrant(mine, a.callback, { pkceCodeVerifier: client.randomPKCECodeVerifier(), expectedState: a.state }))).error, 'invalid_grant');
    const b = await authorize(mine, 'designs');
    assert.equal((await oauthError(() => client.authorizationCodeGrant(theirs, b.callback, { pkceCodeVerifier: b.verifier, expectedState: b.state }))).error, 'invalid_grant');
    const c = await authorize(mine, 'designs');
    const tokens = await client.authorizationCodeGrant(mine, c.callback, { pkceCodeVerifier: c.verifier, expectedState: c.state });
    assert.equal((await oauthError(() => client.refreshTokenGrant(theirs, tokens.refresh_token!))).error, 'invalid_grant');
  });

  it('authorize: plain and missing PKCE are refused, a foreign resource is invalid_target, a foreign redirect URI gets an error page (never a redirect), a loopback port may vary', async () => {
    const config = await register();
    const clientId = config.clientMetadata().client_id;
    const challenge = await client.calculatePKCECodeChallenge(client.randomPKCECodeVerifier());
    const go = (params: Record<string, string>) => fetch(`${t.url}/v1/oauth/authorize?${new URLSearchParams({ client_id: clientId, response_type: 'code', scope: 'designs', state: 'st', ...params })}`, { redirect: 'manual' });

    const plain = await go({ redirect_uri: cb.url, code_challenge: 'x'.repeat(43), code_challenge_method: 'plain' });
    const plainTo = new URL(plain.headers.get('location')!);
    assert.equal(plainTo.origin + plainTo.pathname, cb.url);
    assert.equal(plainTo.searchParams.get('error'), 'invalid_request');
    assert.equal(plainTo.searchParams.get('iss'), t.url);

    const none = new URL((await go({ redirect_uri: cb.url })).headers.get('location')!);
    assert.equal(none.searchParams.get('error'), 'invalid_request');

    const foreign = await go({ redirect_uri: 'https://attacker.example/cb', code_challenge: challenge, code_challenge_method: 'S256' });
    assert.equal(foreign.status, 400);
    assert.equal(foreign.headers.get('location'), null);
    assert.match(foreign.headers.get('content-security-policy') ?? '', /script-src 'self'/);

    // RFC 8707: the API origin is the only resource
    const target = new URL((await go({ redirect_uri: cb.url, code_challenge: challenge, code_challenge_method: 'S256', resource: 'https://attacker.example/' })).headers.get('location')!);
    assert.equal(target.searchParams.get('error'), 'invalid_target');
    const ours = await go({ redirect_uri: cb.url, code_challenge: challenge, code_challenge_method: 'S256', resource: t.url });
    assert.match(ours.headers.get('location')!, /\/oauth\/consent\//);

    const otherPort = await go({ redirect_uri: `http://127.0.0.1:${cb.port + 1}/cb`, code_challenge: challenge, code_challenge_method: 'S256' });
    assert.equal(otherPort.status, 303);
    assert.match(otherPort.headers.get('location')!, /\/oauth\/consent\//);
    const otherPath = await go({ redirect_uri: `http://127.0.0.1:${cb.port}/other`, code_challenge: challenge, code_challenge_method: 'S256' });
    assert.equal(otherPath.status, 400);
  });

  it('registration takes public clients with https or loopback redirect URIs only', async () => {
    const reg = (body: unknown) => fetch(`${t.url}/v1/oauth/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const ok = await reg({ client_name: 'x', redirect_uris: ['https://app.example/cb', 'http://[::1]/cb'] });
    assert.equal(ok.status, 201);
    const created = await ok.json() as Record<string, unknown>;
    assert.equal(created.token_endpoint_auth_method, 'none');
    assert.equal(created.client_secret, undefined);
    // the API scopes a client lists are the person's to grant on the consent page: dropped, not refused
    const scoped = await reg({ client_name: 'mcp-like', redirect_uris: ['http://127.0.0.1/cb'], scope: 'designs dfm quotes carts offline_access' });
    assert.equal(scoped.status, 201);
    assert.equal(((await scoped.json()) as { scope?: string }).scope, 'offline_access');
    const bogus = await reg({ redirect_uris: ['https://app.example/cb'], scope: 'designs no_such_scope' });
    assert.equal(bogus.status, 400);
    assert.equal(((await bogus.json()) as { error: string }).error, 'invalid_client_metadata');
    for (const [body, error] of [
      [{ redirect_uris: ['http://app.example/cb'] }, 'invalid_redirect_uri'],
      [{ redirect_uris: ['https://app.example/cb'], token_endpoint_auth_method: 'client_secret_basic' }, 'invalid_client_metadata'],
      [{ redirect_uris: ['https://app.example/cb#frag'] }, 'invalid_redirect_uri'],
    ] as const) {
      const res = await reg(body);
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.equal(((await res.json()) as { error: string }).error, error, JSON.stringify(body));
    }
    // registrations are kept, so one address gets a bounded number of them (30 an hour)
    let last: Response | null = null;
    for (let i = 0; i < 40 && last?.status !== 429; i += 1) last = await reg({ redirect_uris: ['https://app.example/cb'] });
    assert.equal(last!.status, 429);
    assert.ok(Number(last!.headers.get('retry-after')) > 0);
    assert.equal(((await last!.json()) as { error: string }).error, 'rate_limited');
  });
});
