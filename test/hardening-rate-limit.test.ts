// The rate limit counts by verified credential, else by client address: random bearer tokens and
// failed authentications are limited (they used to pass uncounted), X-Forwarded-For is believed
// only from a configured proxy, and a flood of new client addresses does not reset a live key's
// count. Real service on a port.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { apiKeyCaller, prepareUpload } from '@kerf/usecases';
import { startTestService, type TestService } from './helpers/service.ts';

const get = (t: TestService, path: string, headers: Record<string, string> = {}) =>
  fetch(`${t.url}${path}`, { headers }).then(async (r) => ({ status: r.status, body: (await r.json()) as { error?: { code: string } }, retryAfter: r.headers.get('retry-after') }));
const randomToken = () => `kerf_live_${randomBytes(16).toString('hex')}`;

describe('hardening: rate limit by credential or client address', () => {
  let t: TestService;
  before(async () => { t = await startTestService({ rateLimit: { max: 5, windowMs: 60_000 } }); });
  after(async () => { await t.close(); });

  it('random tokens count against the client address: the sixth is 429, while a real key keeps its own count', async () => {
    const statuses = [];
    for (let i = 0; i < 8; i++) statuses.push((await get(t, '/v1/materials', { authorization: `Bearer ${randomToken()}` })).status);
    assert.deepEqual(statuses, [401, 401, 401, 401, 401, 429, 429, 429]);
    const limited = await get(t, '/v1/openapi.json');
    assert.equal(limited.status, 429, 'unauthenticated requests share the address\'s count');
    assert.equal(limited.body.error?.code, 'rate_limit_exceeded');
    assert.ok(Number(limited.retryAfter) > 0);
    for (let i = 0; i < 5; i++) assert.equal((await get(t, '/v1/materials', { authorization: `Bearer ${t.keyA}` })).status, 200);
    assert.equal((await get(t, '/v1/materials', { authorization: `Bearer ${t.keyA}` })).status, 429);
    assert.equal((await get(t, '/v1/materials', { authorization: `Bearer ${t.keyB}` })).status, 200, 'per account');
  });

  it('X-Forwarded-For is not believed without a trusted proxy', async () => {
    // the address is exhausted from the test above; a forged header does not buy a new count
    assert.equal((await get(t, '/v1/openapi.json', { 'x-forwarded-for': '203.0.113.9' })).status, 429);
  });
});

describe('hardening: rate limit behind a trusted proxy, with few counters in memory', () => {
  let t: TestService;
  before(async () => { t = await startTestService({ rateLimit: { max: 5, windowMs: 60_000, counters: 'memory', maxKeys: 20 }, trustProxy: '127.0.0.1' }); });
  after(async () => { await t.close(); });

  it('clients behind the proxy count apart; a flood of new addresses does not reset a live key', async () => {
    for (let i = 0; i < 4; i++) assert.equal((await get(t, '/v1/materials', { authorization: `Bearer ${t.keyA}` })).status, 200);
    for (let i = 0; i < 5; i++) assert.equal((await get(t, '/v1/openapi.json', { 'x-forwarded-for': '198.51.100.1' })).status, 200);
    assert.equal((await get(t, '/v1/openapi.json', { 'x-forwarded-for': '198.51.100.1' })).status, 429);
    assert.equal((await get(t, '/v1/openapi.json', { 'x-forwarded-for': '198.51.100.2' })).status, 200, 'another client behind the proxy');
    for (let i = 0; i < 60; i++) await get(t, '/v1/openapi.json', { 'x-forwarded-for': `203.0.113.${i}` });
    assert.equal((await get(t, '/v1/materials', { authorization: `Bearer ${t.keyA}` })).status, 200, 'the fifth of five');
    assert.equal((await get(t, '/v1/materials', { authorization: `Bearer ${t.keyA}` })).status, 429, 'its count survived the flood');
  });
});

describe('hardening: the same rate limit at /mcp and its upload links', () => {
  let t: TestService;
  before(async () => { t = await startTestService({ rateLimit: { max: 4, windowMs: 600_000 } }); });
  after(async () => { await t.close(); });

  const mcp = (authorization: string) => fetch(`${t.url}/mcp`, {
    method: 'POST', headers: { authorization, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
  });

  it('random bearer tokens count against the client address; a real key keeps its own count', async () => {
    const statuses = [];
    for (let i = 0; i < 6; i++) statuses.push((await mcp(`Bearer ${randomToken()}`)).status);
    assert.deepEqual(statuses, [401, 401, 401, 401, 429, 429]);
    const limited = await mcp('Bearer not-even-a-key');
    assert.equal(limited.status, 429);
    assert.ok(Number(limited.headers.get('retry-after')) > 0);
    assert.equal(((await limited.json()) as { error: { code: string } }).error.code, 'rate_limit_exceeded');
    const bogusUpload = await fetch(`${t.url}/mcp/uploads/forged.token`, { method: 'PUT', headers: { 'content-type': 'application/octet-stream' }, body: 'x' });
    assert.equal(bogusUpload.status, 429, 'a forged upload link counts against the address too');
    assert.equal((await get(t, '/v1/openapi.json')).status, 429, 'one budget per address across /v1 and /mcp');

    for (let i = 0; i < 4; i++) assert.equal((await mcp(`Bearer ${t.keyA}`)).status, 200);
    assert.equal((await mcp(`Bearer ${t.keyA}`)).status, 429);
    assert.equal((await mcp(`Bearer ${t.keyB}`)).status, 200, 'per account');
  });

  it('a valid upload link counts apart from the spent address', async () => {
    const caller = apiKeyCaller({ accountId: t.accountB, keyId: 'k', operator: false });
    const { upload_token } = await prepareUpload(t.service.ctx, caller, { filename: 'part.step' });
    const page = await fetch(`${t.url}/mcp/uploads/${upload_token}`);
    assert.equal(page.status, 200);
  });
});
