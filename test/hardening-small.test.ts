// Smaller hardening: nosniff on every response and no-store on authenticated JSON; /v1/health names
// no filesystem path; the data dir and database file are the service user's only; loopback by
// default; the demo key never goes to a non-terminal stdout; bidirectional controls are dropped from
// names shown on pages. Real service on a port, store on disk, `kerf serve` as a child process.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, statSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { configFromEnv } from '@kerf/service';
import { fixtureBytes } from './helpers/fixtures.ts';
import { freePort, startTestService, type TestService } from './helpers/service.ts';
import { spawnServe, stopChild } from './helpers/child.ts';

const L_BRACKET = new URL('../fixtures/sheet/l_t2_r2.step', import.meta.url).pathname;
const RLO = '\u202E';

describe('hardening: headers, health, files, names', () => {
  let t: TestService;
  let parent: string;
  before(async () => {
    parent = mkdtempSync(join(tmpdir(), 'kerf-hard-'));
    t = await startTestService({ dataDir: join(parent, 'fresh', 'data') });
  });
  after(async () => { await t.close(); rmSync(parent, { recursive: true, force: true }); });

  it('every response says nosniff; authenticated JSON is no-store', async () => {
    const auth = { authorization: `Bearer ${t.keyA}` };
    for (const [path, headers] of [['/v1/materials', auth], ['/v1/nope', auth], ['/v1/health', {}], ['/docs/errors', {}], ['/v1/openapi.json', {}], ['/review/rvl_missing', {}]] as const) {
      const r = await fetch(`${t.url}${path}`, { headers });
      assert.equal(r.headers.get('x-content-type-options'), 'nosniff', path);
    }
    const own = await fetch(`${t.url}/v1/materials`, { headers: auth });
    assert.equal(own.headers.get('cache-control'), 'no-store');
  });

  it('authenticated MCP answers are no-store, the SDK\'s event streams too (no-transform kept)', async () => {
    const mcp = (method: string, accept: string, params?: unknown) => fetch(`${t.url}/mcp`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t.keyA}`, 'content-type': 'application/json', accept, 'mcp-protocol-version': '2025-06-18' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, ...(params ? { params } : {}) }),
    });
    const kinds = new Set<string>();
    for (const accept of ['application/json, text/event-stream', 'text/event-stream, application/json']) {
      for (const r of [await mcp('tools/list', accept), await mcp('initialize', accept, { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } })]) {
        const type = r.headers.get('content-type') ?? '';
        kinds.add(type.split(';')[0]);
        assert.equal(r.status, 200, await r.text());
        const cache = r.headers.get('cache-control') ?? '';
        assert.match(cache, /^no-store\b/, `${type}: ${cache}`);
        if (type.startsWith('text/event-stream')) assert.match(cache, /no-transform/);
      }
    }
    assert.ok(kinds.has('text/event-stream'), `a streamed answer among ${[...kinds].join(', ')}`);
    // the refusal of a foreign page is the account's request too
    const foreign = await fetch(`${t.url}/mcp`, { method: 'POST', headers: { authorization: `Bearer ${t.keyA}`, origin: 'https://evil.example', 'content-type': 'application/json' }, body: '{}' });
    assert.equal(foreign.status, 403);
    assert.equal(foreign.headers.get('cache-control'), 'no-store');
  });

  it('/v1/health names no filesystem path', async () => {
    const text = await (await fetch(`${t.url}/v1/health`)).text();
    assert.ok(!text.includes(parent), text);
    assert.ok(!/\/(tmp|home|var|data)\b/.test(text), text);
  });

  it('the data dir is 0700 and the database file 0600', () => {
    assert.equal(statSync(t.dataDir).mode & 0o777, 0o700);
    assert.equal(statSync(join(t.dataDir, 'kerf.sqlite')).mode & 0o777, 0o600);
  });

  it('the service binds to loopback unless HOST says otherwise', () => {
    assert.equal(configFromEnv({}).host, '127.0.0.1');
    assert.equal(configFromEnv({ HOST: '0.0.0.0' }).host, '0.0.0.0');
  });

  it('a design name with bidirectional controls shows without them on its review page', async () => {
    const auth = { authorization: `Bearer ${t.keyA}` };
    const form = new FormData();
    form.append('file', new Blob([fixtureBytes(L_BRACKET)]), `invoice${RLO}pets.step`);
    const design = (await (await fetch(`${t.url}/v1/analyze`, { method: 'POST', headers: { ...auth, prefer: 'wait=60' }, body: form })).json()) as { id: string; status: string };
    assert.equal(design.status, 'ready');
    const link = (await (await fetch(`${t.url}/v1/review-links`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ design_id: design.id }) })).json()) as { url?: string; review_url?: string };
    const url = link.url ?? link.review_url;
    assert.ok(url, JSON.stringify(link));
    const page = await (await fetch(url)).text();
    assert.ok(page.includes('invoicepets.step'), 'the name is shown');
    assert.ok(!/[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/.test(page), 'no bidi control on the page');
  });
});

describe('hardening: the demo key without a terminal', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kerf-demo-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('is written to a 0600 file in the data dir, not to stdout', async () => {
    const child = await spawnServe({ KERF_DATA_DIR: dir }, await freePort());
    try {
      assert.equal(child.lines.find((l) => typeof l.api_key === 'string'), undefined, 'no key on stdout');
      const file = join(dir, 'demo-api-key.json');
      assert.equal(statSync(file).mode & 0o777, 0o600);
      const { api_key: key } = JSON.parse(readFileSync(file, 'utf8')) as { api_key: string };
      assert.equal((await fetch(`${child.url}/v1/materials`, { headers: { authorization: `Bearer ${key}` } })).status, 200);
    } finally {
      await stopChild(child);
    }
  });
});
