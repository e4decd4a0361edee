// What existing clients of the live API read and send (docs/api.md "Conventions"), walked over real HTTP on real
// corpus parts: string production warnings, the two accepted risks, review links on designs and DFM
// reports, the catalog fields, empty JSON bodies, and a multi-part file quote that keeps its item.
// Every response is also checked against /v1/openapi.json by the client.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { startTestService, type TestService } from './helpers/service.ts';
import { Client, clientsFor, stepForm } from './helpers/client.ts';

// the shared real-CAD corpus beside the checkout (as CI lays it out)
const PCIE = fileURLToPath(new URL('../../shared/corpus/real/thunderscope-pcie-bracket.step', import.meta.url));
const HOLES_NEAR_BEND = new URL('../fixtures/sheet/l_t2_holes_near_bend.step', import.meta.url).pathname;
const PLATE_T3 = new URL('../fixtures/sheet/plate_countersunk_t3.step', import.meta.url).pathname;
const ASSEMBLY = new URL('../fixtures/assembly/asm_brackets_mirror.step', import.meta.url).pathname;
const STEEL_2MM = 'mat_mild_steel_2_0mm';
const STEEL_3MM = 'mat_mild_steel_3_0mm';
const RISKS = ['hole_too_close_to_bend', 'countersink_too_close_to_bend'];
const SOURCES = ['geometry', 'configuration', 'catalog', 'assembly'];

const isInt = (v: unknown): boolean => Number.isInteger(v);

async function analyzed(client: Client, file: string): Promise<any> {
  const r = await client.post('/v1/analyze', { form: stepForm(file), headers: { prefer: 'wait=60' } });
  assert.equal(r.status, 200, r.text);
  assert.equal(r.body.status, 'ready', r.text);
  return r.body;
}

/** The DFM report's shape as a pydantic client reads it. */
function assertReportShape(report: any): void {
  assert.equal(report.object, 'dfm_report');
  assert.match(report.review_link_id, /^rvl_/);
  assert.match(report.review_url, new RegExp(`/review/${report.review_link_id}$`));
  assert.equal(typeof report.production_files.corrections_applied, 'boolean');
  for (const part of report.parts) {
    assert.ok(Array.isArray(part.production_warnings));
    for (const w of part.production_warnings) assert.equal(typeof w, 'string', `${part.part_id}: production_warnings holds strings`);
    assert.deepEqual(part.production_warning_details.map((d: { message: string }) => d.message), part.production_warnings, 'details are the same warnings');
    for (const d of part.production_warning_details) assert.equal(typeof d.code, 'string');
    for (const issue of part.issues) {
      assert.ok(['blocking', 'warning'].includes(issue.severity), issue.code);
      assert.ok(SOURCES.includes(issue.source), `${issue.code}: source ${issue.source}`);
      assert.equal(typeof issue.accepted, 'boolean');
    }
  }
  for (const r of report.requirements) assert.equal(typeof r.allowed_values_url, 'string');
  for (const risk of report.configuration.accepted_risks ?? []) assert.ok(RISKS.includes(risk));
}

describe('existing clients of the live API', () => {
  let t: TestService;
  let a: Client;

  before(async () => {
    t = await startTestService();
    ({ a } = await clientsFor(t));
  });
  after(async () => { await t.close(); });

  it('a ready design carries a website review link of its own, readable back', async () => {
    const design = await analyzed(a, PCIE);
    assert.match(design.review_link_id, /^rvl_/);
    assert.match(design.review_url, new RegExp(`/review/${design.review_link_id}$`));
    const again = await a.get(`/v1/designs/${design.id}`);
    assert.equal(again.body.review_link_id, design.review_link_id, 'one link per design');
    const link = await a.get(`/v1/review-links/${design.review_link_id}`);
    assert.equal(link.status, 200, link.text);
    assert.equal(link.body.design_id, design.id);
    const page = await fetch(design.review_url);
    assert.equal(page.status, 200);
  });

  it('DFM of a real part with production warnings: strings, with their codes beside them', async () => {
    const design = await analyzed(a, PCIE);
    const r = await a.post('/v1/dfm', { json: { design_id: design.id, configuration: {} } });
    assert.equal(r.status, 201, r.text);
    assertReportShape(r.body);
    assert.ok(r.body.parts.some((p: { production_warnings: string[] }) => p.production_warnings.length > 0), 'the PCIe bracket has warnings (extruded hole)');
    const back = await a.get(`/v1/dfm/${r.body.id}`);
    assert.deepEqual(back.body, r.body);
    const link = await a.get(`/v1/review-links/${r.body.review_link_id}`);
    assert.equal(link.body.dfm_id, r.body.id);
  });

  it('a tap and a countersink near an edge: warnings as strings, the edge finding needs no acceptance', async () => {
    const design = await analyzed(a, PLATE_T3);
    const part = design.parts[0];
    const base = { defaults: { material_id: STEEL_3MM } };
    const first = await a.post('/v1/dfm', { json: { design_id: design.id, configuration: base } });
    const holes = first.body.parts[0].capabilities.holes as Array<{ hole_id: number; taps: { option_ids: string[] } }>;
    const tappable = holes.find((h) => h.taps.option_ids.length > 0);
    assert.ok(tappable, 'some hole takes a tap');
    const tapped = await a.post('/v1/dfm', { json: { design_id: design.id, configuration: { ...base, accepted_risks: RISKS, parts: [{ part_id: part.id, taps: [{ hole_id: tappable.hole_id, tap_id: tappable.taps.option_ids[0] }] }] } } });
    assert.equal(tapped.status, 201, tapped.text);
    assertReportShape(tapped.body);
    assert.ok(tapped.body.parts[0].production_warnings.length > 0, 'a tapped part has a production warning');

    const hole = [...part.holes].filter((h: { id: number; countersink: unknown }) => h.id !== tappable.hole_id && h.countersink === null).sort((x: any, y: any) => x.distance_to_nearest_edge_mm - y.distance_to_nearest_edge_mm)[0] ?? part.holes[0];
    const countersunk = { ...base, accepted_risks: RISKS, parts: [{ part_id: part.id, countersinks: [{ hole_id: hole.id, outer_diameter_mm: hole.diameter_mm + 2, angle: 90, side: 'top' }] }] };
    const cs = await a.post('/v1/dfm', { json: { design_id: design.id, configuration: countersunk } });
    assert.equal(cs.status, 201, cs.text);
    assertReportShape(cs.body);
    const issues = cs.body.parts[0].issues as Array<{ code: string; severity: string; accepted: boolean }>;
    const edge = issues.find((i) => i.code === 'countersink_too_close_to_edge');
    assert.ok(edge, `a countersink ${hole.distance_to_nearest_edge_mm} mm from the edge is flagged: ${JSON.stringify(issues)}`);
    assert.equal(edge.severity, 'warning');
    assert.ok(!issues.some((i) => i.severity === 'blocking' || (RISKS.includes(i.code) && !i.accepted)), JSON.stringify(issues));
    assert.notEqual(cs.body.parts[0].status, 'blocked', 'the edge warning needs no acceptance');

    const refused = await a.post('/v1/dfm', { json: { design_id: design.id, configuration: { ...countersunk, accepted_risks: ['countersink_too_close_to_edge'] } } });
    assert.equal(refused.status, 422);
    assert.equal(refused.body.error.param, 'configuration.accepted_risks[0]');

    const link = await a.post('/v1/review-links', { json: { design_id: design.id, configuration: countersunk, dfm_id: cs.body.id } });
    assert.equal(link.status, 201, link.text);
    const read = await a.get(`/v1/review-links/${link.body.id}`);
    assert.deepEqual(read.body.configuration.accepted_risks, RISKS);
    assert.equal(read.body.dfm_id, cs.body.id);
  });

  it('quotes name their design, error and assembly-operation amounts; a multi-part file quote keeps its item and DFM', async () => {
    const design = await analyzed(a, HOLES_NEAR_BEND);
    const q = await a.post('/v1/quotes', { json: { items: [{ design_id: design.id, quantity: 3, configuration: { defaults: { material_id: STEEL_2MM }, accepted_risks: RISKS } }] } });
    assert.equal(q.status, 201, q.text);
    assert.equal(q.body.design_id, design.id);
    assert.equal(q.body.error, null);
    for (const item of q.body.items) {
      assert.ok(isInt(item.assembly_operations_amount_cents), 'assembly_operations_amount_cents');
      assertReportShape(item.dfm);
    }
    for (const w of q.body.manufacturing_warnings) assert.equal(typeof w.message, 'string');

    const file = await a.post('/v1/quotes', { form: stepForm(ASSEMBLY, { request: JSON.stringify({ quantity: 1, configuration: { defaults: { material_id: STEEL_2MM } } }) }), headers: { prefer: 'wait=60' } });
    assert.equal(file.status, 201, file.text);
    assert.equal(file.body.status, 'requires_input');
    assert.match(file.body.design_id, /^des_/);
    assert.equal(file.body.items.length, 1, 'the item is listed, not dropped');
    const [item] = file.body.items;
    assert.equal(item.design_id, file.body.design_id);
    assert.equal(item.status, 'requires_input');
    assertReportShape(item.dfm);
    assert.equal(item.dfm.design_id, item.design_id);
  });

  it('every catalog entry has the fields clients read', async () => {
    const str = (v: unknown): boolean => typeof v === 'string' && v.length > 0;
    const checks: Record<string, (e: any) => boolean> = {
      '/v1/materials': (e) => str(e.description) && typeof e.thickness_mm === 'number' && typeof e.bendable === 'boolean',
      '/v1/finishes': (e) => str(e.slug) && str(e.category) && Array.isArray(e.processes) && isInt(e.base_price_cents) && typeof e.price_per_cm2_cents === 'number',
      '/v1/powder-coat-colors': (e) => str(e.slug) && /^#[0-9a-fA-F]{6}$/.test(e.hex_color) && typeof e.price_multiplier === 'number' && typeof e.available === 'boolean',
      '/v1/hardware/taps': (e) => str(e.size) && ['metric', 'unified'].includes(e.thread_standard) && e.hole_diameter_mm > 0,
      '/v1/hardware/studs': (e) => str(e.size) && ['metric', 'unified'].includes(e.thread_standard) && e.hole_diameter_mm > 0,
      '/v1/hardware/nuts': (e) => str(e.size) && ['metric', 'unified'].includes(e.thread_standard) && e.hole_diameter_mm > 0,
      '/v1/hardware/standoffs': (e) => str(e.size) && ['metric', 'unified'].includes(e.thread_standard) && e.hole_diameter_mm > 0,
    };
    for (const [path, ok] of Object.entries(checks)) {
      const r = await a.get(`${path}?limit=500`);
      assert.equal(r.status, 200, r.text);
      for (const e of r.body.data) assert.ok(ok(e), `${path}: ${JSON.stringify(e)}`);
    }
  });

  it('a body-less request with Content-Type: application/json is routed, not refused as invalid JSON', async () => {
    const headers = { authorization: `Bearer ${t.keyA}`, 'content-type': 'application/json' };
    const get = await fetch(`${t.url}/v1/materials?limit=1`, { headers });
    assert.equal(get.status, 200);
    const del = await fetch(`${t.url}/v1/designs/des_nope`, { method: 'DELETE', headers, body: '' });
    assert.notEqual(del.status, 400);
    assert.notEqual(((await del.json()) as { error: { code: string } }).error.code, 'invalid_json');
    const post = await fetch(`${t.url}/v1/review-links`, { method: 'POST', headers, body: '' });
    const body = (await post.json()) as { error: { code: string } };
    assert.equal(post.status, 422, 'no body: the missing fields are named, not a JSON parse error');
    assert.notEqual(body.error.code, 'invalid_json');
  });
});
