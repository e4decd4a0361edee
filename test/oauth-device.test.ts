// The device flow (RFC 8628) as a remote agent runs it, with oauth4webapi as the agent and a
// headless Chromium as the person: authorization_pending, slow_down (+5 s), sign in on the
// verification page, consent, tokens with the granted scope, then declined and expired codes.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as oauth from 'oauth4webapi';
import * as openid from 'openid-client';
import type { Browser, Page } from 'playwright-core';
import { createPasswordAccount, oauthCollection, oauthDocId, type OAuthRecord } from '@kerf/usecases';
import { startTestService, type TestService } from './helpers/service.ts';
import { launchBrowser } from './helpers/browser.ts';

const PASSWORD = 'correct horse battery';
const insecure = { [oauth.allowInsecureRequests]: true };
const client: oauth.Client = { client_id: 'svc-agent' };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function oauthError(run: () => Promise<unknown>): Promise<oauth.ResponseBodyError> {
  try { await run(); } catch (err) { if (err instanceof oauth.ResponseBodyError) return err; throw err; }
  assert.fail('expected an OAuth error response');
}

describe('OAuth device flow (oauth4webapi, openid-client + Chromium)', () => {
  let t: TestService;
  let as: oauth.AuthorizationServer;
  let browser: Browser;
  let email: string;

  before(async () => {
    t = await startTestService();
    email = `device-${Date.now()}@test.local`;
    await createPasswordAccount(t.service.ctx, { email, password: PASSWORD });
    const issuer = new URL(t.url);
    as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { algorithm: 'oauth2', ...insecure }));
    browser = await launchBrowser();
  });
  after(async () => { await browser?.close(); await t?.close(); });

  const start = async (scope?: string) => oauth.processDeviceAuthorizationResponse(as, client,
    await oauth.deviceAuthorizationRequest(as, client, oauth.None(), scope ? { scope } : {}, insecure));
  const poll = async (deviceCode: string) => oauth.processDeviceCodeResponse(as, client,
    await oauth.deviceCodeGrantRequest(as, client, oauth.None(), deviceCode, insecure));

  /** The person opens verification_uri_complete, confirms the code, signs in when asked and decides. */
  async function visit(page: Page, uri: string, decide: (page: Page) => Promise<void>, typeCode?: string): Promise<void> {
    await page.goto(uri);
    if (typeCode) {
      // the plain verification_uri: the person types the code the agent shows
      await page.fill('#user_code', typeCode);
      await page.getByRole('button', { name: 'Continue' }).click();
      assert.equal(await page.textContent('#user-code'), typeCode);
    }
    await page.getByRole('button', { name: 'Continue' }).click();
    if (page.url().includes('/signin')) {
      await page.fill('#email', email);
      await page.fill('#password', PASSWORD);
      await page.getByRole('button', { name: 'Sign in' }).click();
    }
    await page.waitForURL(/\/oauth\/consent\//);
    await decide(page);
  }

  it('discovery: RFC 8414 metadata with the device endpoint and S256; RFC 9728 resource metadata', async () => {
    assert.equal(as.issuer, t.url);
    assert.equal(as.device_authorization_endpoint, `${t.url}/v1/oauth/device/code`);
    assert.equal(as.token_endpoint, `${t.url}/v1/oauth/token`);
    assert.equal(as.registration_endpoint, `${t.url}/v1/oauth/register`);
    assert.equal(as.revocation_endpoint, `${t.url}/v1/oauth/revoke`);
    assert.deepEqual(as.code_challenge_methods_supported, ['S256']);
    assert.equal(as.authorization_response_iss_parameter_supported, true);
    assert.equal(as.client_id_metadata_document_supported, true);
    const prm = await (await fetch(`${t.url}/.well-known/oauth-protected-resource`)).json() as Record<string, unknown>;
    assert.equal(prm.resource, t.url);
    assert.deepEqual(prm.authorization_servers, [t.url]);
  });

  it('pending, slow_down (+5 s), then the person approves and the agent gets the granted scope', async () => {
    const device = await start();
    assert.match(device.user_code, /^[A-Z]{4}-[A-Z]{4}$/);
    assert.equal(device.interval, 5);
    assert.equal(device.verification_uri_complete, `${t.url}/oauth/device?user_code=${device.user_code}`);

    assert.equal((await oauthError(() => poll(device.device_code))).error, 'authorization_pending');
    const slow = await oauthError(() => poll(device.device_code));
    assert.equal(slow.error, 'slow_down');
    assert.match(String(slow.cause.error_description), /wait 10 seconds/);

    const page = await browser.newPage();
    await visit(page, device.verification_uri_complete!, async (p) => {
      assert.equal(await p.textContent('#client-name'), 'Kerf agent');
      // the default scopes, all checked; nothing else offered
      const offered = await p.$$eval('input[name=scope]', (els) => els.map((e) => [(e as HTMLInputElement).value, (e as HTMLInputElement).checked]));
      assert.deepEqual(offered, [['designs', true], ['dfm', true], ['quotes', true], ['carts', true], ['orders', true]]);
      await p.getByRole('button', { name: 'Connect' }).click();
      await p.waitForSelector('#device-done');
    });
    await page.close();

    await sleep(10_000); // the interval after one slow_down
    const tokens = await poll(device.device_code);
    assert.equal(tokens.token_type.toLowerCase(), 'bearer');
    assert.ok(tokens.expires_in! > 0 && tokens.expires_in! <= 900, `expires_in ${tokens.expires_in}`);
    assert.equal(tokens.scope, 'designs dfm quotes carts orders');
    assert.ok(tokens.refresh_token);

    // the token works on the API with its scopes, and only those
    const auth = { authorization: `Bearer ${tokens.access_token}` };
    assert.equal((await fetch(`${t.url}/v1/materials?limit=1`, { headers: auth })).status, 200);
    const missing = await fetch(`${t.url}/v1/designs/des_nothing`, { headers: auth });
    assert.equal(missing.status, 404);
    const hooks = await fetch(`${t.url}/v1/webhook-endpoints`, { headers: auth });
    assert.equal(hooks.status, 403);
    assert.equal(((await hooks.json()) as { error: { code: string } }).error.code, 'insufficient_scope');
    // a device code is single-use
    await sleep(10_000);
    assert.equal((await oauthError(() => poll(device.device_code))).error, 'invalid_grant');
  });

  it("openid-client's own poller waits out the person's approval at the interval and gets the tokens", async () => {
    const config = await openid.discovery(new URL(t.url), 'svc-agent', undefined, openid.None(), { execute: [openid.allowInsecureRequests], algorithm: 'oauth2' });
    const device = await openid.initiateDeviceAuthorization(config, { scope: 'designs dfm' });
    const polled = openid.pollDeviceAuthorizationGrant(config, device);
    const page = await browser.newPage();
    await visit(page, device.verification_uri_complete!, async (p) => {
      await p.getByRole('button', { name: 'Connect' }).click();
      await p.waitForSelector('#device-done');
    });
    await page.close();
    const tokens = await polled;
    assert.equal(tokens.scope, 'designs dfm');
    const refreshed = await openid.refreshTokenGrant(config, tokens.refresh_token!);
    assert.notEqual(refreshed.refresh_token, tokens.refresh_token);
  });

  it('a code typed on the verification page and declined answers access_denied; an expired code expired_token', async () => {
    const declined = await start('designs');
    const page = await browser.newPage();
    await visit(page, declined.verification_uri, async (p) => {
      await p.getByRole('button', { name: 'Decline' }).click();
      await p.waitForLoadState();
    }, declined.user_code);
    await page.close();
    assert.equal((await oauthError(() => poll(declined.device_code))).error, 'access_denied');

    const stale = await start('designs');
    // the code's 10 minutes pass: its record says so
    const codes = oauthCollection(t.service.store, 'DeviceCode');
    const doc = (await codes.getUnscoped(oauthDocId(stale.device_code)))!;
    const past = Math.floor(Date.now() / 1000) - 1;
    await codes.update(doc.accountId, doc.id, { ...doc.data, payload: { ...doc.data.payload, exp: past } } satisfies OAuthRecord);
    assert.equal((await oauthError(() => poll(stale.device_code))).error, 'expired_token');
  });

  it('hostile bodies get OAuth errors: too large, unknown grant, garbage', async () => {
    const post = (body: string, type = 'application/x-www-form-urlencoded') => fetch(`${t.url}/v1/oauth/token`, { method: 'POST', headers: { 'content-type': type }, body });
    const big = await post(`grant_type=refresh_token&client_id=svc-agent&refresh_token=${'x'.repeat(100_000)}`);
    assert.equal(big.status, 413);
    assert.equal(((await big.json()) as { error: string }).error, 'invalid_request');
    const grant = await post('grant_type=password&client_id=svc-agent&username=a&password=b');
    assert.equal(grant.status, 400);
    assert.equal(((await grant.json()) as { error: string }).error, 'unsupported_grant_type');
    const junk = await post('\u0000\u0001%%%', 'application/x-www-form-urlencoded');
    assert.ok(junk.status === 400 || junk.status === 401, String(junk.status));
    assert.ok(typeof ((await junk.json()) as { error: string }).error === 'string');
    const json = await post('{"grant_type":"refresh_token"}', 'application/json');
    assert.equal(json.status, 400);
    assert.equal(((await json.json()) as { error: string }).error, 'invalid_request');
  });

  it('the verification page posted without its session (no cookie, a stale form) is a 4xx page, never a 500', async () => {
    for (const body of ['xsrf=abc&user_code=ABCD-EFGH', 'xsrf=abc&user_code=ABCD-EFGH&confirm=yes', '']) {
      const res = await fetch(`${t.url}/oauth/device`, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body });
      assert.ok(res.status >= 300 && res.status < 500, `${res.status} for '${body}'`);
    }
  });

  it('an unknown client and a client that is not svc-agent are refused at the device endpoint', async () => {
    const res = await fetch(`${t.url}/v1/oauth/device/code`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'client_id=nobody' });
    assert.equal(res.status, 401);
    assert.equal(((await res.json()) as { error: string }).error, 'invalid_client');
  });
});
