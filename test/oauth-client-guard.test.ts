// What a client may not claim or make the server do (issue #33.10): the official client's name
// "Kerf agent" is reserved in dynamic registration and in Client ID Metadata Documents; a metadata
// URL on loopback (an address literal or a name resolving to it) is refused before any TCP
// connection is made, the name resolved and checked first.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:net';
import * as client from 'openid-client';
import { startTestService, freePort, type TestService } from './helpers/service.ts';
import { callbackServer, metadataServer, type Callback } from './helpers/oauth.ts';

describe('OAuth clients: reserved name, metadata URLs checked before connecting', () => {
  let t: TestService;
  let strict: TestService;
  let meta: Awaited<ReturnType<typeof metadataServer>>;
  let cb: Callback;
  let tcp: Server;
  let tcpPort: number;
  let connections = 0;
  const options = { execute: [client.allowInsecureRequests], algorithm: 'oauth2' as const };

  before(async () => {
    t = await startTestService({ oauthAllowLoopbackClientMetadata: true });
    strict = await startTestService();
    meta = await metadataServer();
    cb = await callbackServer();
    tcpPort = await freePort();
    tcp = createServer((socket) => { connections += 1; socket.destroy(); });
    await new Promise<void>((r) => tcp.listen(tcpPort, '127.0.0.1', r));
  });
  after(async () => { tcp?.close(); cb?.server.close(); meta?.server.close(); await t?.close(); await strict?.close(); });

  const register = (base: string, metadata: Record<string, unknown>) => fetch(`${base}/v1/oauth/register`, {
    method: 'POST', headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ redirect_uris: [cb.url], grant_types: ['authorization_code', 'refresh_token'], token_endpoint_auth_method: 'none', ...metadata }),
  });
  const authorize = async (base: string, clientId: string) => {
    const challenge = await client.calculatePKCECodeChallenge(client.randomPKCECodeVerifier());
    return fetch(`${base}/v1/oauth/authorize?${new URLSearchParams({ client_id: clientId, response_type: 'code', redirect_uri: cb.url, scope: 'designs', code_challenge: challenge, code_challenge_method: 'S256' })}`, { redirect: 'manual' });
  };

  it('dynamic registration refuses the official name and its look-alikes, and takes any other', async () => {
    for (const metadata of [{ client_name: 'Kerf agent' }, { client_name: 'KERF  Agent' }, { client_name: 'Kerf-agent (official)' }, { client_name: 'Ｋｅｒｆ agent' }, { client_name: 'My agent', 'client_name#de': 'Kerf Agent' }]) {
      const res = await register(t.url, metadata);
      assert.equal(res.status, 400, JSON.stringify(metadata));
      const body = await res.json() as { error: string; error_description: string };
      assert.equal(body.error, 'invalid_client_metadata');
      assert.match(body.error_description, /official client/);
    }
    // a real client library sees the refusal as an OAuth error
    await assert.rejects(client.dynamicClientRegistration(new URL(t.url), { client_name: 'Kerf agent', redirect_uris: [cb.url], token_endpoint_auth_method: 'none' }, client.None(), options),
      (err: unknown) => (err as { error?: string }).error === 'invalid_client_metadata');
    const fine = await client.dynamicClientRegistration(new URL(t.url), { client_name: 'Kerfuffle tools', redirect_uris: [cb.url], token_endpoint_auth_method: 'none' }, client.None(), options);
    assert.ok(fine.clientMetadata().client_id);
  });

  it('a client metadata document may not take the official name', async () => {
    const doc = (path: string, name: string) => {
      meta.docs.set(path, { client_id: `${meta.base}${path}`, client_name: name, redirect_uris: [cb.url], grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], token_endpoint_auth_method: 'none' });
      return `${meta.base}${path}`;
    };
    assert.equal((await authorize(t.url, doc('/fine.json', 'Metadata agent'))).status, 303);
    const res = await authorize(t.url, doc('/official.json', 'Kerf Agent'));
    assert.equal(res.status, 400);
    assert.match(await res.text(), /invalid_client/);
  });

  it('a metadata URL on loopback gets no TCP connection, by address or by a name that resolves to it', async () => {
    for (const clientId of [`https://127.0.0.1:${tcpPort}/agent.json`, `https://localhost:${tcpPort}/agent.json`, `https://[::ffff:127.0.0.1]:${tcpPort}/agent.json`]) {
      const res = await authorize(strict.url, clientId);
      assert.equal(res.status, 400, clientId);
    }
    // give a stray connection time to arrive
    await new Promise((r) => setTimeout(r, 200));
    assert.equal(connections, 0, 'no connection reached the loopback port');
  });
});
