// The janitor prunes what the OAuth server leaves in the store (docs/configuration.md "Crash leftovers"): device
// codes an hour after they expired and their poll times with them; clients registered through
// dynamic registration once no connection was made with them for 30 days (one never connected: 30
// days after it registered). Real service and store on disk; the grant is written through the real
// storage adapter oidc-provider uses; the janitor runs with its clock moved forward.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { StoreAdapter } from '@kerf/oauth';
import { DEVICE_POLLS_COLLECTION, Janitor, oauthCollection, oauthDocId } from '@kerf/usecases';
import { startTestService, type TestService } from './helpers/service.ts';

const DAY = 24 * 60 * 60 * 1000;
const form = { 'content-type': 'application/x-www-form-urlencoded' };

describe('OAuth records pruned by the janitor', () => {
  let t: TestService;
  before(async () => { t = await startTestService(); });
  after(async () => { await t?.close(); });

  const register = async (name: string): Promise<string> => {
    const res = await fetch(`${t.url}/v1/oauth/register`, {
      method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_name: name, redirect_uris: ['http://127.0.0.1/callback'], token_endpoint_auth_method: 'none' }),
    });
    assert.equal(res.status, 201, await res.clone().text());
    return ((await res.json()) as { client_id: string }).client_id;
  };
  /** A janitor pass with the clock `days` after `start`. */
  const janitorAt = async (start: number, days: number): Promise<void> => {
    const janitor = new Janitor({ ...t.service.ctx, now: () => new Date(start + days * DAY) });
    janitor.start();
    await janitor.stop();
  };
  const clientKnown = async (clientId: string): Promise<boolean> => (await oauthCollection(t.service.store, 'Client').getUnscoped(oauthDocId(clientId))) !== null;

  it('removes expired device codes with their polls, and clients unused for 30 days; keeps what is younger', async () => {
    const start = Date.now();
    const never = await register('never connected');
    const connected = await register('connected');

    const code = await fetch(`${t.url}/v1/oauth/device/code`, { method: 'POST', headers: form, body: new URLSearchParams({ client_id: 'svc-agent' }) });
    assert.equal(code.status, 200);
    const { device_code: deviceCode } = (await code.json()) as { device_code: string };
    const poll = await fetch(`${t.url}/v1/oauth/token`, {
      method: 'POST', headers: form,
      body: new URLSearchParams({ grant_type: 'urn:ietf:params:oauth:grant-type:device_code', device_code: deviceCode, client_id: 'svc-agent' }),
    });
    assert.equal(((await poll.json()) as { error: string }).error, 'authorization_pending');
    const codes = oauthCollection(t.service.store, 'DeviceCode');
    const polls = t.service.store.documents(DEVICE_POLLS_COLLECTION);
    const pollOf = () => polls.getByKey('oauth', oauthDocId(deviceCode));
    assert.ok(await pollOf(), 'the poll was recorded');

    // a connection made with one client 20 days on, as oidc-provider stores it
    await new StoreAdapter(t.service.store, 'Grant', () => new Date(start + 20 * DAY))
      .upsert('grant-prune-test', { kind: 'Grant', jti: 'grant-prune-test', accountId: t.accountA, clientId: connected } as never, 30 * 24 * 60 * 60);

    await janitorAt(start, 0);
    assert.ok(await codes.getUnscoped(oauthDocId(deviceCode)), 'a live device code is kept');
    assert.ok(await pollOf(), 'and its poll');

    await janitorAt(start, 29);
    assert.equal(await codes.getUnscoped(oauthDocId(deviceCode)), null, 'a device code expired for longer than an hour is removed');
    assert.equal(await pollOf(), null, 'its poll goes with it');
    assert.ok(await clientKnown(never), 'a client registered 29 days ago is kept');

    await janitorAt(start, 31);
    assert.equal(await clientKnown(never), false, 'a client never connected is removed 30 days after it registered');
    assert.ok(await clientKnown(connected), 'a client connected 11 days ago is kept');
    const authorize = async (clientId: string): Promise<string> => (await fetch(`${t.url}/v1/oauth/authorize?${new URLSearchParams({
      client_id: clientId, response_type: 'code', redirect_uri: 'http://127.0.0.1/callback', code_challenge: 'x'.repeat(43), code_challenge_method: 'S256',
    })}`, { redirect: 'manual' })).text();
    assert.match(await authorize(never), /invalid_client/, 'the authorization server no longer knows it');
    assert.doesNotMatch(await authorize(connected), /invalid_client/, 'and still knows the other');

    await janitorAt(start, 51);
    assert.equal(await clientKnown(connected), false, 'a client whose last connection was made 31 days ago is removed');
  });
});
