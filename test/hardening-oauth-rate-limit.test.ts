// Every route under the service's one rate limit (issue #33.3): the OAuth endpoints (device code,
// token, revoke, the device verification page) and the card setup pages count against the client
// address, in the same counters as /v1, and are refused with 429 + Retry-After past the budget; a
// refused device-code request stores nothing.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { OAUTH_OWNER, oauthCollection } from '@kerf/usecases';
import { startTestService, type TestService } from './helpers/service.ts';

const BUDGET = 5;

describe('hardening: OAuth and card setup pages under the rate limit', () => {
  let t: TestService;
  before(async () => {
    t = await startTestService({ rateLimit: { max: BUDGET, windowMs: 600_000 }, trustProxy: '127.0.0.1' });
  });
  after(async () => { await t?.close(); });

  const form = (address: string, path: string, body: Record<string, string>) => fetch(t.url + path, {
    method: 'POST', body: new URLSearchParams(body),
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': address },
  });

  async function assertRefused(res: Response): Promise<void> {
    assert.equal(res.status, 429);
    const wait = Number(res.headers.get('retry-after'));
    assert.ok(wait > 0 && wait <= 600, `Retry-After ${res.headers.get('retry-after')}`);
  }

  it('a device-code flood from one address is refused past the budget and stores no more codes', async () => {
    const codes = oauthCollection(t.service.store, 'DeviceCode');
    const before = (await codes.list(OAUTH_OWNER, { limit: 100 })).items.length;
    const statuses: number[] = [];
    let last: Response | null = null;
    for (let i = 0; i < BUDGET + 5; i++) {
      last = await form('203.0.113.10', '/v1/oauth/device/code', { client_id: 'svc-agent' });
      statuses.push(last.status);
      if (last.status === 200) assert.equal(last.headers.get('x-ratelimit-limit'), String(BUDGET));
    }
    assert.deepEqual(statuses, [...Array(BUDGET).fill(200), ...Array(5).fill(429)]);
    await assertRefused(last!);
    assert.equal((await last!.json() as { error: string }).error, 'rate_limited');
    const stored = (await codes.list(OAUTH_OWNER, { limit: 100 })).items.length;
    assert.equal(stored - before, BUDGET, 'only the admitted requests stored a device code');
    // another address has its own budget
    assert.equal((await form('198.51.100.20', '/v1/oauth/device/code', { client_id: 'svc-agent' })).status, 200);
  });

  it('the token and revocation endpoints and the device page count against the address', async () => {
    const token = [];
    for (let i = 0; i <= BUDGET; i++) token.push(await form('203.0.113.11', '/v1/oauth/token', { grant_type: 'refresh_token', refresh_token: `nope-${i}`, client_id: 'svc-agent' }));
    assert.deepEqual(token.map((r) => r.status), [...Array(BUDGET).fill(400), 429]);
    await assertRefused(token[BUDGET]);

    const revoke = [];
    for (let i = 0; i <= BUDGET; i++) revoke.push(await form('203.0.113.12', '/v1/oauth/revoke', { token: `nope-${i}`, client_id: 'svc-agent' }));
    assert.deepEqual(revoke.map((r) => r.status), [...Array(BUDGET).fill(200), 429]);
    await assertRefused(revoke[BUDGET]);

    const page = [];
    for (let i = 0; i <= BUDGET; i++) page.push(await fetch(`${t.url}/oauth/device`, { headers: { 'x-forwarded-for': '203.0.113.13' } }));
    assert.deepEqual(page.map((r) => r.status), [...Array(BUDGET).fill(200), 429]);
    await assertRefused(page[BUDGET]);
    assert.match(page[BUDGET].headers.get('content-type') ?? '', /^text\/html/);
  });

  it('the card setup pages count against the address, shared with the API', async () => {
    const address = '203.0.113.14';
    const statuses: number[] = [];
    // two API calls first: the same budget
    for (let i = 0; i < 2; i++) statuses.push((await fetch(`${t.url}/v1/materials?limit=1`, { headers: { 'x-forwarded-for': address } })).status);
    for (let i = 0; i < BUDGET - 1; i++) {
      statuses.push((await fetch(`${t.url}/payment-methods/setup/pms_guess${i}`, { headers: { 'x-forwarded-for': address } })).status);
    }
    const post = await form(address, '/payment-methods/setup/pms_guess', { payment_method: 'pm_card_visa' });
    statuses.push(post.status);
    assert.deepEqual(statuses, [401, 401, 404, 404, 404, 429, 429]);
    await assertRefused(post);
  });
});
