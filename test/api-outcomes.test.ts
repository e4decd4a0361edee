// Outcomes that are not the happy path: a file the engine cannot analyze ends the design `failed`
// with the engine's code (and its file quote `failed`); an unmanufacturable part gives a `blocked`
// DFM report and quote with HTTP 201; the reference docs are served offline.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestService, type TestService } from './helpers/service.ts';
import { Client, pollDesign, stepForm } from './helpers/client.ts';
import { OpenApiChecker } from './helpers/openapi.ts';

const BLOCK = new URL('../fixtures/negative/neg_machined_block.step', import.meta.url).pathname;
const EMPTY_STEP = "ISO-10303-21;\nHEADER;\nFILE_DESCRIPTION((''),'2;1');\nFILE_NAME('e.step','2026-01-01',(''),(''),'','','');\nFILE_SCHEMA(('AUTOMOTIVE_DESIGN'));\nENDSEC;\nDATA;\nENDSEC;\nEND-ISO-10303-21;\n";

function emptyForm(fields: Record<string, string> = {}): FormData {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  form.append('file', new Blob([EMPTY_STEP]), 'empty-model.step');
  return form;
}

describe('failed and blocked outcomes', () => {
  let t: TestService;
  let a: Client;
  before(async () => {
    t = await startTestService();
    a = new Client(t.url, t.keyA, await OpenApiChecker.load(t.url));
  });
  after(async () => { await t.close(); });

  it('a STEP file without solids ends failed with the engine code', async () => {
    const r = await a.post('/v1/analyze', { form: emptyForm() });
    assert.ok([200, 202].includes(r.status));
    const d = await pollDesign(a, r.body.id);
    assert.equal(d.status, 'failed');
    assert.equal(d.error.code, 'empty_model');
    assert.match(d.error.message, /no solid/);
    assert.deepEqual(d.parts, []);
    const dfm = await a.post('/v1/dfm', { json: { design_id: d.id } });
    assert.equal(dfm.status, 422);
    assert.equal(dfm.body.error.code, 'design_failed');
    assert.equal(dfm.body.error.param, 'design_id');
    const model = await a.get(`/v1/designs/${d.id}/model`);
    assert.equal(model.status, 422);
  });

  it('a file quote of such a file ends failed with the code', async () => {
    const r = await a.post('/v1/quotes', { form: emptyForm({ request: JSON.stringify({ quantity: 1 }) }), headers: { prefer: 'wait=60' } });
    assert.ok([201, 202].includes(r.status), r.text);
    let q = r.body;
    const deadline = Date.now() + 60_000;
    while (q.status === 'processing' && Date.now() < deadline) {
      await new Promise((res) => setTimeout(res, 100));
      q = (await a.get(`/v1/quotes/${q.id}`)).body;
    }
    assert.equal(q.status, 'failed');
    assert.equal(q.error.code, 'empty_model');
  });

  it('an unmanufacturable part: DFM and quote are blocked, still HTTP 201', async () => {
    const d = (await a.post('/v1/analyze', { form: stepForm(BLOCK), headers: { prefer: 'wait=60' } })).body;
    assert.equal(d.status, 'ready');
    assert.equal(d.parts[0].manufacturable, false);
    assert.ok(d.parts[0].unsupported_reason);
    const materials = (await a.get('/v1/materials?limit=500')).body.data;
    const configuration = { defaults: { material_id: materials[0].id } };
    const dfm = await a.post('/v1/dfm', { json: { design_id: d.id, configuration } });
    assert.equal(dfm.status, 201, dfm.text);
    assert.equal(dfm.body.status, 'blocked');
    assert.ok(dfm.body.parts[0].issues.some((i: { severity: string }) => i.severity === 'blocking'));
    assert.equal(dfm.body.production_files.status, 'skipped');
    const noFile = await a.get(`/v1/dfm/${dfm.body.id}/parts/${d.parts[0].id}/file?kind=production_dxf`);
    assert.equal(noFile.status, 404);
    assert.equal(noFile.body.error.code, 'file_unavailable');
    const q = await a.post('/v1/quotes', { json: { items: [{ design_id: d.id, quantity: 1, configuration }] } });
    assert.equal(q.status, 201, q.text);
    assert.equal(q.body.status, 'blocked');
  });

  it('serves /v1/docs and its assets without a network or a key', async () => {
    const html = await fetch(`${t.url}/v1/docs/`);
    assert.equal(html.status, 200);
    const text = await html.text();
    assert.match(text, /swagger/i);
    const assets = [...text.matchAll(/(?:src|href)="\.?\/?([^"]+\.(?:js|css))"/g)].map((m) => m[1]);
    assert.ok(assets.length > 0, 'the page loads local assets');
    for (const asset of assets) {
      const url = asset.startsWith('http') ? asset : `${t.url}/v1/docs/${asset.replace(/^\/?v1\/docs\//, '')}`;
      assert.ok(url.startsWith(t.url), `asset ${asset} is served by the service itself`);
      assert.equal((await fetch(url)).status, 200, url);
    }
    const health = await a.get('/v1/health', { key: null });
    assert.equal(health.status, 200);
    assert.equal(health.body.ok, true);
    assert.equal(health.body.store.kind, 'sqlite');
    const doc = (await (await fetch(`${t.url}/v1/openapi.json`)).json()) as { openapi: string; paths: Record<string, unknown> };
    assert.equal(doc.openapi, '3.1.0');
    for (const p of ['/v1/analyze', '/v1/designs/{design_id}', '/v1/dfm', '/v1/dfm/{dfm_id}/parts/{part_id}/file', '/v1/quotes', '/v1/quotes/{quote_id}', '/v1/review-links', '/v1/review-links/{review_link_id}', '/v1/materials', '/v1/hardware/{kind}/{item_id}/model']) {
      assert.ok(doc.paths[p], `openapi documents ${p}`);
    }
  });
});
