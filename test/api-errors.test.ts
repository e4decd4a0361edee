// Every error status of docs/api.md "Errors" reproduced over real HTTP, in the error envelope, plus
// account isolation on every resource kind.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestService, type TestService } from './helpers/service.ts';
import { Client, stepForm } from './helpers/client.ts';
import { OpenApiChecker } from './helpers/openapi.ts';
import { LocalEngine } from '@kerf/service';
import { restLinks } from '@kerf/rest';
import { UrlSigner, loadSigningSecret, type CatalogEntries, type CatalogKind } from '@kerf/usecases';

const L_BRACKET = new URL('../fixtures/sheet/l_t2_r2.step', import.meta.url).pathname;

function assertEnvelope(r: { status: number; body: any; headers: Headers }, status: number, type: string, code: string, param?: string | null): void {
  assert.equal(r.status, status, JSON.stringify(r.body));
  const e = r.body.error;
  assert.equal(e.type, type);
  assert.equal(e.code, code);
  if (param !== undefined) assert.equal(e.param, param);
  assert.equal(typeof e.message, 'string');
  assert.ok(e.message.length > 10);
  assert.equal(e.request_id, r.headers.get('request-id'));
  assert.equal(typeof e.retryable, 'boolean');
  // The service's own reference under its base URL, http://127.0.0.1:<port> here (test/error-docs.test.ts opens it).
  assert.equal(e.doc_url.replace(/^http:\/\/127\.0\.0\.1:\d+/, ''), `/docs/errors#${code}`);
}

describe('error statuses over HTTP', () => {
  let t: TestService;
  let a: Client;
  let b: Client;
  let anon: Client;

  before(async () => {
    t = await startTestService({ maxUploadBytes: 64 * 1024 });
    const openapi = await OpenApiChecker.load(t.url);
    a = new Client(t.url, t.keyA, openapi);
    b = new Client(t.url, t.keyB, openapi);
    anon = new Client(t.url, '', openapi);
  });
  after(async () => { await t.close(); });

  it('400: malformed JSON, bad cursor, bad Idempotency-Key', async () => {
    const bad = await a.post('/v1/dfm', { raw: { body: '{"design_id": ', contentType: 'application/json' } });
    assertEnvelope(bad, 400, 'invalid_request_error', 'invalid_json');
    const cursor = await a.get('/v1/materials?cursor=garbage');
    assertEnvelope(cursor, 400, 'invalid_request_error', 'invalid_cursor', 'cursor');
    const key = await a.post('/v1/dfm', { json: { design_id: 'des_x' }, headers: { 'idempotency-key': 'has space' } });
    assertEnvelope(key, 400, 'invalid_request_error', 'invalid_idempotency_key', 'Idempotency-Key');
  });

  it('401: missing, malformed and invalid credentials', async () => {
    const missing = await anon.get('/v1/materials', { key: null });
    assertEnvelope(missing, 401, 'authentication_error', 'missing_api_key');
    // both ways in are named: an agent signing in with OAuth is not told only about API keys
    assert.match(String((missing.body as { error: { message: string } }).error.message), /API key[\s\S]*OAuth access token/);
    assertEnvelope(await anon.get('/v1/materials', { key: null, headers: { authorization: 'Basic abc' } }), 401, 'authentication_error', 'invalid_authorization_header');
    const r = await anon.get('/v1/designs/des_x', { key: 'kerf_live_not_a_key' });
    assertEnvelope(r, 401, 'authentication_error', 'invalid_api_key');
    assert.match(r.headers.get('www-authenticate') ?? '', /Bearer/);
    // A revoked key stops working at once.
    const extra = await t.service.store.apiKeys.create(t.accountA);
    assert.equal((await a.get('/v1/materials?limit=1', { key: extra!.api_key })).status, 200);
    await t.service.store.apiKeys.revoke(t.accountA, extra!.id);
    assertEnvelope(await a.get('/v1/materials?limit=1', { key: extra!.api_key }), 401, 'authentication_error', 'invalid_api_key');
  });

  it('403: tampered and expired download links', async () => {
    const res = await fetch(`${t.url}/v1/downloads/abc.def`);
    assert.equal(res.status, 403);
    const secret = await loadSigningSecret(t.service.store);
    const past = new UrlSigner(secret, () => new Date(Date.now() - 3600_000));
    const url = restLinks(t.url).download(past.sign({ k: 'designs/x/source.step', t: 'application/step', n: 'x.step' }));
    const expired = await fetch(url);
    assert.equal(expired.status, 403);
    assert.equal(((await expired.json()) as { error: { code: string } }).error.code, 'link_expired');
  });

  it('404: unknown ids, unknown routes', async () => {
    assertEnvelope(await a.get('/v1/designs/des_doesnotexist'), 404, 'not_found_error', 'resource_missing', 'design_id');
    assertEnvelope(await a.get('/v1/dfm/dfm_nope'), 404, 'not_found_error', 'resource_missing', 'dfm_id');
    assertEnvelope(await a.get('/v1/quotes/quo_nope'), 404, 'not_found_error', 'resource_missing', 'quote_id');
    assertEnvelope(await a.get('/v1/review-links/rvl_nope'), 404, 'not_found_error', 'resource_missing');
    const route = await fetch(`${t.url}/v1/nothing-here`, { headers: { authorization: `Bearer ${t.keyA}` } });
    assert.equal(route.status, 404);
    assert.equal(((await route.json()) as { error: { code: string } }).error.code, 'route_not_found');
  });

  it('413: an upload over KERF_MAX_UPLOAD_BYTES', async () => {
    const big = new Uint8Array(200 * 1024).fill(0x41);
    const form = new FormData();
    form.append('file', new Blob([big]), 'big.step');
    assertEnvelope(await a.post('/v1/analyze', { form }), 413, 'invalid_request_error', 'file_too_large');
  });

  it('415: wrong Content-Type for each kind of route', async () => {
    assertEnvelope(await a.post('/v1/analyze', { json: { file: 'x' } }), 415, 'invalid_request_error', 'unsupported_media_type');
    assertEnvelope(await a.post('/v1/dfm', { raw: { body: 'design_id=x', contentType: 'text/plain' } }), 415, 'invalid_request_error', 'unsupported_media_type');
    assertEnvelope(await a.post('/v1/dfm', { form: stepForm(L_BRACKET) }), 415, 'invalid_request_error', 'unsupported_media_type');
    assertEnvelope(await a.post('/v1/review-links', { raw: { body: '<x/>', contentType: 'application/xml' } }), 415, 'invalid_request_error', 'unsupported_media_type');
  });

  it('422: unknown, mistyped and missing fields name their param; hostile files are refused precisely', async () => {
    assertEnvelope(await a.post('/v1/dfm', { json: { design_id: 'des_x', colour: 'red' } }), 422, 'invalid_request_error', 'parameter_unknown', 'colour');
    assertEnvelope(await a.post('/v1/quotes', { json: { items: [{ design_id: 'des_x', quantity: '10' }] } }), 422, 'invalid_request_error', 'parameter_invalid', 'items[0].quantity');
    assertEnvelope(await a.post('/v1/quotes', { json: { items: [{ quantity: 1 }] } }), 422, 'invalid_request_error', 'parameter_missing', 'items[0].design_id');
    assertEnvelope(await a.post('/v1/quotes', { json: { items: [{ design_id: 'des_x', quantity: 1, quantity_options: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11] }] } }), 422, 'invalid_request_error', 'parameter_invalid', 'items[0].quantity_options');
    assertEnvelope(await a.get('/v1/materials?limit=0'), 422, 'invalid_request_error', 'parameter_invalid', 'limit');
    assertEnvelope(await a.get('/v1/materials?limit=501'), 422, 'invalid_request_error', 'parameter_invalid', 'limit');
    assertEnvelope(await a.get('/v1/materials?color=red'), 422, 'invalid_request_error', 'parameter_unknown', 'color');

    // an empty form (any other part is an unknown field: test/multipart-fields.test.ts)
    const noFile = new FormData();
    assertEnvelope(await a.post('/v1/analyze', { form: noFile }), 422, 'invalid_request_error', 'parameter_missing', 'file');
    const stl = new FormData();
    stl.append('file', new Blob(['solid x\n facet normal 0 0 1\n outer loop\n endloop\n endfacet\nendsolid x\n']), 'part.stl');
    const refused = await a.post('/v1/analyze', { form: stl });
    assertEnvelope(refused, 422, 'invalid_request_error', 'invalid_step', 'file');
    assert.match(refused.body.error.message, /STL/);
    const empty = new FormData();
    empty.append('file', new Blob([]), 'empty.step');
    assertEnvelope(await a.post('/v1/analyze', { form: empty }), 422, 'invalid_request_error', 'invalid_step', 'file');

    const fileQuote = stepForm(L_BRACKET, { request: '{"quantity": "many"}' });
    assertEnvelope(await a.post('/v1/quotes', { form: fileQuote }), 422, 'invalid_request_error', 'parameter_invalid', 'request.quantity');
    assertEnvelope(await a.post('/v1/quotes', { form: stepForm(L_BRACKET, { request: '{oops' }) }), 400, 'invalid_request_error', 'invalid_json', 'request');
    assertEnvelope(await a.post('/v1/quotes', { form: stepForm(L_BRACKET) }), 422, 'invalid_request_error', 'parameter_missing', 'request');

    // An invalid request does not consume its Idempotency-Key.
    const k = 'kept-after-422';
    assert.equal((await a.post('/v1/dfm', { json: { design_id: 1 }, headers: { 'idempotency-key': k } })).status, 422);
    const d = await a.post('/v1/analyze', { form: stepForm(L_BRACKET), headers: { prefer: 'wait=60' } });
    const ok = await a.post('/v1/dfm', { json: { design_id: d.body.id }, headers: { 'idempotency-key': k } });
    assert.equal(ok.status, 201, ok.text);

    // A design that is still being analyzed cannot be quoted yet.
    const queued = await a.post('/v1/analyze', { form: stepForm(L_BRACKET) });
    if (queued.body.status !== 'ready') {
      const early = await a.post('/v1/dfm', { json: { design_id: queued.body.id } });
      // (201 when the analysis won the race; anything else must be the precise refusal)
      if (early.status !== 201) assertEnvelope(early, 422, 'invalid_request_error', 'design_not_ready', 'design_id');
    }
  });

  it("404 on every resource of another account", async () => {
    const d = (await a.post('/v1/analyze', { form: stepForm(L_BRACKET), headers: { prefer: 'wait=60' } })).body;
    const p = d.parts[0].id;
    const dfm = (await a.post('/v1/dfm', { json: { design_id: d.id } })).body;
    const quote = (await a.post('/v1/quotes', { json: { items: [{ design_id: d.id, quantity: 1 }] } })).body;
    const link = (await a.post('/v1/review-links', { json: { design_id: d.id } })).body;
    for (const path of [
      `/v1/designs/${d.id}`, `/v1/designs/${d.id}/model`, `/v1/designs/${d.id}/image`, `/v1/designs/${d.id}/parts/${p}/model`,
      `/v1/designs/${d.id}/parts/${p}/step?view=source`, `/v1/designs/${d.id}/parts/${p}/image`,
      `/v1/dfm/${dfm.id}`, `/v1/dfm/${dfm.id}/parts/${p}/file?kind=production_dxf`, `/v1/dfm/${dfm.id}/parts/${p}/image`,
      `/v1/quotes/${quote.id}`, `/v1/review-links/${link.id}`,
    ]) {
      const r = await b.get(path);
      assert.equal(r.status, 404, `${path}: ${r.text}`);
      assert.equal(r.body.error.type, 'not_found_error');
    }
    assertEnvelope(await b.post('/v1/dfm', { json: { design_id: d.id } }), 404, 'not_found_error', 'resource_missing', 'design_id');
    assertEnvelope(await b.post('/v1/quotes', { json: { items: [{ design_id: d.id, quantity: 1 }] } }), 404, 'not_found_error', 'resource_missing', 'items[0].design_id');
    assertEnvelope(await b.post('/v1/review-links', { json: { design_id: d.id } }), 404, 'not_found_error', 'resource_missing', 'design_id');
  });
});

describe('429 rate limiting per credential', () => {
  let t: TestService;
  before(async () => { t = await startTestService({ rateLimit: { max: 3, windowMs: 60_000 } }); });
  after(async () => { await t.close(); });

  it('answers 429 with Retry-After after the limit, per key', async () => {
    const openapi = await OpenApiChecker.load(t.url);
    const a = new Client(t.url, t.keyA, openapi);
    const b = new Client(t.url, t.keyB, openapi);
    for (let i = 0; i < 3; i++) assert.equal((await a.get('/v1/materials?limit=1')).status, 200);
    const limited = await a.get('/v1/materials?limit=1');
    assertEnvelope(limited, 429, 'rate_limit_error', 'rate_limit_exceeded');
    assert.equal(limited.body.error.retryable, true);
    assert.ok(Number(limited.headers.get('retry-after')) >= 1);
    // Another credential has its own budget.
    assert.equal((await b.get('/v1/materials?limit=1')).status, 200);
  });
});

/** The real engine with one dependency failing the way a crashed or overloaded one does. */
class FailingCatalogEngine extends LocalEngine {
  mode: 'crash' | 'unavailable' | 'ok' = 'crash';
  override async catalog<K extends CatalogKind>(kind: K): Promise<CatalogEntries<K>> {
    if (this.mode === 'crash') throw new TypeError('catalog exploded');
    if (this.mode === 'unavailable') throw Object.assign(new Error('pricing service down'), { code: 'queue_full' });
    return super.catalog(kind);
  }
}

describe('500 and 503', () => {
  it('an unexpected failure is a retryable 500; an overloaded dependency is a 503 with Retry-After', async () => {
    const { startService, configFromEnv } = await import('@kerf/service');
    const { freePort } = await import('./helpers/service.ts');
    const { mkdtempSync, rmSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const pino = (await import('pino')).default;
    const dir = mkdtempSync(join(tmpdir(), 'kerf-e2e-'));
    const port = await freePort();
    const engine = new FailingCatalogEngine();
    const svc = await startService({ ...configFromEnv({}), port, host: '127.0.0.1', dataDir: dir, baseUrl: `http://127.0.0.1:${port}`, rateLimit: false }, { logger: pino({ level: 'silent' }), engine });
    try {
      await svc.listen();
      const acct = await svc.store.accounts.create({ email: 'x@test.local' });
      const key = (await svc.store.apiKeys.create(acct.id))!.api_key;
      const openapi = await OpenApiChecker.load(`http://127.0.0.1:${port}`);
      const c = new Client(`http://127.0.0.1:${port}`, key, openapi);
      const crash = await c.get('/v1/materials');
      assertEnvelope(crash, 500, 'api_error', 'internal_error');
      assert.equal(crash.body.error.retryable, true);
      assert.doesNotMatch(crash.body.error.message, /exploded/, 'internals stay in the logs');
      engine.mode = 'unavailable';
      const busy = await c.get('/v1/materials');
      assertEnvelope(busy, 503, 'api_error', 'service_unavailable');
      assert.ok(Number(busy.headers.get('retry-after')) >= 1);
      engine.mode = 'ok';
      assert.equal((await c.get('/v1/materials')).status, 200);
    } finally {
      await svc.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
