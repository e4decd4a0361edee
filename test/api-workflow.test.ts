// The workflow of docs/api.md "Workflow" over real HTTP: analyze -> poll -> parts -> DFM
// requires_input -> DFM ready -> production files -> quote with quantity options -> replay ->
// review link read back; and a multi-part file quote. Every response is checked against /v1/openapi.json.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestService, type TestService } from './helpers/service.ts';
import { Client, clientsFor, pollDesign, pollProductionFiles, stepForm } from './helpers/client.ts';

const L_BRACKET = new URL('../fixtures/sheet/l_t2_r2.step', import.meta.url).pathname;
const ASSEMBLY = new URL('../fixtures/assembly/asm_brackets_mirror.step', import.meta.url).pathname;

interface Material { id: string; thickness_mm: number; bendable: boolean; available: boolean; type: string }

/** Rule 3: follow next_cursor while has_more. */
async function listAll<T>(client: Client, path: string, limit: number): Promise<T[]> {
  const out: T[] = [];
  let cursor: string | null = null;
  for (let page = 0; page < 100; page++) {
    const r: { status: number; body: { data: T[]; has_more: boolean; next_cursor: string | null }; text: string } =
      await client.get(`${path}${path.includes('?') ? '&' : '?'}limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    assert.equal(r.status, 200, r.text);
    out.push(...r.body.data);
    if (!r.body.has_more) { assert.equal(r.body.next_cursor, null); return out; }
    assert.ok(r.body.next_cursor);
    cursor = r.body.next_cursor;
  }
  throw new Error('pagination did not end');
}

describe('manufacturing workflow over HTTP', () => {
  let t: TestService;
  let a: Client;
  let b: Client;
  let design: any;
  let material: Material;
  let readyDfm: any;

  before(async () => {
    t = await startTestService();
    ({ a, b } = await clientsFor(t));
  });
  after(async () => { await t.close(); });

  it('rule 3: catalogs page with cursors, every entry once', async () => {
    const all = await listAll<Material>(a, '/v1/materials', 20);
    const first = await a.get('/v1/materials');
    assert.equal(first.body.object, 'list');
    assert.equal(all.length, new Set(all.map((m) => m.id)).size, 'no entry twice');
    assert.equal(all.length, first.body.has_more ? all.length : first.body.data.length);
    assert.ok(all.length > 20, 'more than one page');
    for (const path of ['/v1/tube-profiles', '/v1/finishes', '/v1/powder-coat-colors', '/v1/hardware/taps', '/v1/hardware/studs', '/v1/hardware/nuts', '/v1/hardware/standoffs']) {
      const items = await listAll<{ id: string }>(a, path, 7);
      assert.ok(items.length > 0, path);
      for (const i of items) assert.equal(typeof i.id, 'string');
    }
    const allFinishes = await listAll<{ processes: string[] }>(a, '/v1/finishes', 500);
    const tubeFinishes = await listAll<{ processes: string[] }>(a, '/v1/finishes?process=tube_laser', 3);
    assert.ok(tubeFinishes.length > 0);
    assert.ok(tubeFinishes.every((f) => f.processes.includes('tube_laser')));
    assert.equal(tubeFinishes.length, allFinishes.filter((f) => f.processes.includes('tube_laser')).length);
    const colors = (await a.get('/v1/powder-coat-colors?limit=3')).body.data;
    assert.ok(colors[0].viewer, 'colors carry viewer hints');
  });

  it('hardware models redirect (307) to a GLB', async () => {
    const studs = (await a.get('/v1/hardware/studs?limit=1')).body.data;
    const glb = await a.download(`/v1/hardware/studs/${studs[0].id}/model`);
    assert.equal(glb.status, 200);
    assert.equal(Buffer.from(glb.bytes.subarray(0, 4)).toString('latin1'), 'glTF');
    assert.equal((await a.get('/v1/hardware/studs/std_nope/model')).status, 404);
    assert.equal((await a.get(`/v1/hardware/taps/${studs[0].id}/model`)).status, 422);
  });

  it('rule 1: analyze, poll status_url until ready, inspect parts', async () => {
    const r = await a.post('/v1/analyze', { form: stepForm(L_BRACKET), headers: { 'idempotency-key': 'wf-analyze' } });
    assert.ok([200, 202].includes(r.status));
    design = await pollDesign(a, r.body.id);
    assert.equal(design.status, 'ready');
    assert.equal(design.suggested_process, 'sheet_metal');
    assert.equal(design.parts[0].instance_count, 1);
    assert.equal(design.parts[0].manufacturable, true);
    const t0 = design.parts[0].detected_thickness_mm;
    const materials = await listAll<Material>(a, '/v1/materials', 500);
    material = materials.filter((m) => m.bendable && m.available).sort((x, y) => Math.abs(x.thickness_mm - t0) - Math.abs(y.thickness_mm - t0))[0];
    assert.ok(material, 'a bendable material near the detected thickness');
  });

  it('rule 4: DFM without a material is requires_input (201, not an error)', async () => {
    const r = await a.post('/v1/dfm', { json: { design_id: design.id, configuration: {} } });
    assert.equal(r.status, 201, r.text);
    assert.equal(r.body.object, 'dfm_report');
    assert.equal(r.body.status, 'requires_input');
    assert.ok(r.body.requirements.length >= 1);
    assert.ok(r.body.requirements.some((q: { field: string }) => /material/.test(q.field)), JSON.stringify(r.body.requirements));
    assert.equal(r.body.production_files.status, 'skipped');
    const again = await a.get(`/v1/dfm/${r.body.id}`);
    assert.equal(again.status, 200);
    assert.deepEqual(again.body, r.body, 'the report is immutable');
  });

  it('rule 2/4: DFM with the material for every part is ready; production files follow in the background', async () => {
    const configuration = { parts: design.parts.map((p: { id: string }) => ({ part_id: p.id, material_id: material.id })) };
    const r = await a.post('/v1/dfm', { json: { design_id: design.id, configuration }, headers: { 'idempotency-key': 'wf-dfm' } });
    assert.equal(r.status, 201, r.text);
    assert.equal(r.body.status, 'ready', JSON.stringify(r.body.parts.map((p: { issues: unknown }) => p.issues)));
    assert.ok(['pending', 'ready'].includes(r.body.production_files.status));
    readyDfm = r.body;
    const report = await pollProductionFiles(a, r.body);
    assert.equal(report.production_files.status, 'ready', JSON.stringify(report.production_files));
    const partId = design.parts[0].id;
    const dxf = await a.download(`/v1/dfm/${r.body.id}/parts/${partId}/file?kind=production_dxf`);
    assert.equal(dxf.status, 200);
    assert.match(Buffer.from(dxf.bytes).toString('latin1'), /SECTION/);
    const bend = await a.download(`/v1/dfm/${r.body.id}/parts/${partId}/file?kind=production_bend_lines_dxf`);
    assert.match(Buffer.from(bend.bytes).toString('latin1'), /BEND/i);
    for (const kind of ['production_step', 'production_flat_step']) {
      const f = await a.download(`/v1/dfm/${r.body.id}/parts/${partId}/file?kind=${kind}`);
      assert.ok(Buffer.from(f.bytes).toString('latin1').startsWith('ISO-10303-21'), kind);
    }
    for (const kind of ['production_model', 'production_flat_model']) {
      const f = await a.download(`/v1/dfm/${r.body.id}/parts/${partId}/file?kind=${kind}`);
      assert.equal(Buffer.from(f.bytes.subarray(0, 4)).toString('latin1'), 'glTF', kind);
    }
    const img = await a.download(`/v1/dfm/${r.body.id}/parts/${partId}/image`);
    assert.match(Buffer.from(img.bytes).toString('utf8'), /<svg/);
    // the findings on the part's real flat, with a legend; the PNG of the same URL is the same drawing
    assert.match(Buffer.from(img.bytes).toString('utf8'), /data-view="flat"[\s\S]*class="legend"/);
    const png = await a.download(`/v1/dfm/${r.body.id}/parts/${partId}/image?format=png`);
    assert.equal(png.contentType, 'image/png');
    assert.deepEqual([...Buffer.from(png.bytes).subarray(1, 4)], [0x50, 0x4e, 0x47]);
    const bad = await a.get(`/v1/dfm/${r.body.id}/parts/${partId}/file?kind=gcode`);
    assert.equal(bad.status, 422);
    assert.equal(bad.body.error.param, 'kind');
    // Rule 7: the same key and body is a retry, a different body is a conflict.
    const replay = await a.post('/v1/dfm', { json: { design_id: design.id, configuration }, headers: { 'idempotency-key': 'wf-dfm' } });
    assert.equal(replay.status, 200);
    assert.equal(replay.headers.get('idempotent-replayed'), 'true');
    assert.equal(replay.body.id, r.body.id);
    const changed = await a.post('/v1/dfm', { json: { design_id: design.id, configuration: {} }, headers: { 'idempotency-key': 'wf-dfm' } });
    assert.equal(changed.status, 409);
    assert.equal(changed.body.error.code, 'idempotency_key_reused');
  });

  it('an unknown part id in the configuration is a 422 naming it', async () => {
    const r = await a.post('/v1/dfm', { json: { design_id: design.id, configuration: { parts: [{ part_id: 'prt_other', material_id: material.id }] } } });
    assert.equal(r.status, 422);
    assert.equal(r.body.error.param, 'configuration.parts[0].part_id');
  });

  it('rules 4-8: quote with quantity options, replay returns 200 with the same quote', async () => {
    const body = {
      items: [{
        design_id: design.id, quantity: 10, quantity_options: [1, 10, 100],
        configuration: { parts: design.parts.map((p: { id: string }) => ({ part_id: p.id, material_id: material.id })) },
      }],
    };
    const r = await a.post('/v1/quotes', { json: body, headers: { 'idempotency-key': 'wf-quote' } });
    assert.equal(r.status, 201, r.text);
    const q = r.body;
    assert.equal(q.object, 'quote');
    assert.equal(q.status, 'ready', JSON.stringify(q.requirements));
    assert.equal(q.status_url, `${t.url}/v1/quotes/${q.id}`);
    assert.equal(q.currency, 'usd');
    const item = q.items[0];
    assert.equal(item.quantity, 10);
    assert.ok(item.unit_amount_cents > 0);
    assert.equal(item.amount_cents, item.unit_amount_cents * 10);
    assert.deepEqual(item.quantity_options.map((o: { quantity: number }) => o.quantity), [1, 10, 100]);
    const unit = (n: number) => item.quantity_options.find((o: { quantity: number }) => o.quantity === n).unit_amount_cents;
    assert.ok(unit(100) <= unit(10) && unit(10) <= unit(1), 'volume never raises the unit price');
    assert.equal(item.dfm.status, 'ready');
    assert.ok(Array.isArray(q.fulfillment.shipping_options));
    assert.ok(Number.isInteger(q.amount_total_cents));

    const replay = await a.post('/v1/quotes', { json: body, headers: { 'idempotency-key': 'wf-quote' } });
    assert.equal(replay.status, 200);
    assert.equal(replay.headers.get('idempotent-replayed'), 'true');
    assert.deepEqual(replay.body, q);
    const read = await a.get(`/v1/quotes/${q.id}`);
    assert.equal(read.status, 200);
    assert.equal(read.body.id, q.id);
    assert.equal((await b.get(`/v1/quotes/${q.id}`)).status, 404);
  });

  it('a quote with a US destination is rated: shipping options with ids, tax calculated', async () => {
    const body = {
      items: [{ design_id: design.id, quantity: 5, configuration: { defaults: { material_id: material.id } } }],
      ship_to: { name: 'R. Doe', street1: '1 Main St', city: 'Austin', state: 'TX', postal_code: '78701', country: 'US' },
    };
    const r = await a.post('/v1/quotes', { json: body });
    assert.equal(r.status, 201, r.text);
    assert.equal(r.body.fulfillment.shipping_status, 'rated');
    const options = r.body.fulfillment.shipping_options;
    assert.ok(options.length >= 1);
    for (const o of options) { assert.equal(typeof o.id, 'string'); assert.ok(Number.isInteger(o.amount_cents)); }
    assert.ok(r.body.amount_tax_cents > 0);
    assert.equal(r.body.amount_total_cents, r.body.amount_subtotal_cents + r.body.amount_shipping_cents + r.body.amount_tax_cents);
    const abroad = await a.post('/v1/quotes', { json: { ...body, ship_to: { ...body.ship_to, country: 'DE' } } });
    assert.equal(abroad.status, 422);
    assert.match(abroad.body.error.param, /^ship_to/);
  });

  it('a quote without a material is requires_input (201)', async () => {
    const r = await a.post('/v1/quotes', { json: { items: [{ design_id: design.id, quantity: 1, configuration: {} }] } });
    assert.equal(r.status, 201, r.text);
    assert.equal(r.body.status, 'requires_input');
    assert.ok(r.body.requirements.length >= 1);
  });

  it('review link carries the configuration and reads back', async () => {
    const configuration = { parts: design.parts.map((p: { id: string }) => ({ part_id: p.id, material_id: material.id })) };
    const r = await a.post('/v1/review-links', { json: { design_id: design.id, configuration, dfm_id: readyDfm.id } });
    assert.equal(r.status, 201, r.text);
    assert.equal(r.body.object, 'review_link');
    assert.match(r.body.id, /^rvl_/);
    assert.equal(r.body.status, 'open');
    const back = await a.get(`/v1/review-links/${r.body.id}`);
    assert.equal(back.status, 200);
    assert.deepEqual(back.body.configuration, configuration);
    assert.equal(back.body.design_id, design.id);
    assert.equal((await b.get(`/v1/review-links/${r.body.id}`)).status, 404);
    assert.equal((await b.post('/v1/review-links', { json: { design_id: design.id } })).status, 404);

    // A person opens review_url (no key: the link is the credential), edits and saves.
    const pagePath = new URL(r.body.review_url).pathname;
    const html = await a.get(pagePath, { key: null, unchecked: true });
    assert.equal(html.status, 200);
    assert.match(html.headers.get('content-type') ?? '', /text\/html/);
    assert.ok(html.text.includes(design.parts[0].id));
    assert.match(html.headers.get('content-security-policy') ?? '', /default-src 'none'/);
    const edited = { defaults: { material_id: material.id }, parts: [{ part_id: design.parts[0].id, finish_id: null }] };
    const bad = await a.post(pagePath, { key: null, json: { configuration: { parts: [{ part_id: 'prt_not_here' }] } } });
    assert.equal(bad.status, 422);
    assert.equal(bad.body.error.param, 'configuration.parts[0].part_id');
    // an unknown material is refused, not saved: the page shows the error with its closest ids
    const typo = await a.post(pagePath, { key: null, json: { configuration: { defaults: { material_id: `${material.id}x` } } } });
    assert.equal(typo.status, 422, typo.text);
    assert.equal(typo.body.error.code, 'invalid_configuration');
    assert.equal(typo.body.error.param, 'configuration.defaults.material_id');
    assert.match(typo.body.error.message, new RegExp(`not in the catalog\\. Did you mean ${material.id}`));
    const typoInPart = await a.post(pagePath, { key: null, json: { configuration: { parts: [{ part_id: design.parts[0].id, material_id: 'mat_nope' }] } } });
    assert.equal(typoInPart.status, 422, typoInPart.text);
    assert.equal(typoInPart.body.error.param, 'configuration.parts[0].material_id');
    assert.equal((await a.get(`/v1/review-links/${r.body.id}`)).body.status, r.body.status, 'nothing saved');
    const script = await a.get('/assets/site/review.js', { key: null, unchecked: true });
    assert.ok(html.text.includes('src="/assets/site/review.js"'), 'the page saves with the site script');
    assert.match(script.text, /else \{ msg\.className = 'err'; msg\.textContent = .*body\.error\.message/, 'the page shows the refusal');
    const saved = await a.post(pagePath, { key: null, json: { configuration: edited } });
    assert.equal(saved.status, 200, saved.text);
    assert.equal(saved.body.status, 'saved');
    // The agent reads the edited configuration back and re-quotes it before continuing.
    const reread = await a.get(`/v1/review-links/${r.body.id}`);
    assert.equal(reread.body.status, 'saved');
    assert.equal(reread.body.configuration.defaults.material_id, material.id);
    assert.ok(reread.body.configuration_updated_at >= r.body.configuration_updated_at);
    const requote = await a.post('/v1/quotes', { json: { items: [{ design_id: design.id, quantity: 1, configuration: reread.body.configuration }] } });
    assert.equal(requote.status, 201, requote.text);
    assert.equal(requote.body.status, 'ready');
    assert.equal((await a.get('/review/rvl_guess', { key: null, unchecked: true })).status, 404);
  });

  it('a multi-part file quote: 202 processing, then requires_input with the discovered design id', async () => {
    const form = stepForm(ASSEMBLY, { request: JSON.stringify({ quantity: 2 }) });
    const r = await a.post('/v1/quotes', { form });
    assert.ok(r.status === 202 || r.status === 201, r.text);
    let q = r.body;
    const deadline = Date.now() + 120_000;
    while (q.status === 'processing' && Date.now() < deadline) {
      await new Promise((res) => setTimeout(res, 200));
      q = (await a.get(`/v1/quotes/${q.id}`)).body;
    }
    assert.equal(q.status, 'requires_input', JSON.stringify(q));
    const designId = q.items[0].design_id;
    assert.match(designId, /^des_/);
    assert.equal(q.requirements[0].code, 'assembly_configuration_required');
    const d = await a.get(`/v1/designs/${designId}`);
    assert.equal(d.body.status, 'ready');
    assert.ok(d.body.parts.length >= 2);
    assert.deepEqual(q.requirements[0].part_ids, d.body.parts.map((p: { id: string }) => p.id));
  });

  it('a single-part file quote with Prefer: wait is priced in one call', async () => {
    const form = stepForm(L_BRACKET, { request: JSON.stringify({ quantity: 3, configuration: { defaults: { material_id: material.id } } }) });
    const r = await a.post('/v1/quotes', { form, headers: { prefer: 'wait=60' } });
    assert.equal(r.status, 201, r.text);
    assert.equal(r.body.status, 'ready', JSON.stringify(r.body.requirements));
    assert.equal(r.body.items[0].quantity, 3);
  });
});
