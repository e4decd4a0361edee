// A real assembly quotes whole (issue 32): ROVER6's frame (fixtures/real/, Autodesk Fusion, 0.01 mm
// declared accuracy) and its wheel support bracket alone (fixtures/real-parts/). Their bend cylinders
// are bounded only by loose edges, so a free cylinder fit misses the radius or tilts the axis; the
// refit against the tangent flanges (engine/src/geometry/fit.ts, refitTangentCylinder) unfolds them.
// Truth: the author's flat DXFs (fixtures/real/rover6-frame-truth.json).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { analyze } from '../src/analyze.ts';
import { dfm } from '../src/dfm/index.ts';
import { partPrices } from '../src/pricing/index.ts';
import { defaultCatalog } from '../src/catalog/index.ts';
import type { Design } from '../src/contract.ts';

const FIXTURES = fileURLToPath(new URL('../../fixtures/', import.meta.url));
interface TruthPart { name: string; instance_count: number; length_mm: number; width_mm: number; inner_profiles: number; bend_lines: number }
const truth: { thickness_mm: number; parts: TruthPart[] } = JSON.parse(readFileSync(`${FIXTURES}real/rover6-frame-truth.json`, 'utf8'));
/** How close a flat's extents must come to the author's DXF, mm (Fusion's declared accuracy). */
const FLAT_TOLERANCE_MM = 0.01;
const ctx = { id: 'dfm_real', now: '2026-01-01T00:00:00.000Z' };
const catalog = defaultCatalog();

function sameAsAuthor(d: Design, t: TruthPart): void {
  const p = d.parts.find((x) => x.name === t.name);
  assert.ok(p, `${t.name} in ${d.parts.map((x) => x.name).join(', ')}`);
  assert.equal(p.manufacturable, true, `${t.name}: ${p.unsupported_message}`);
  assert.equal(p.detected_thickness_mm, truth.thickness_mm, t.name);
  assert.equal(p.bend_count, t.bend_lines, `${t.name}: bends`);
  assert.equal(p.hole_count, t.inner_profiles, `${t.name}: holes`);
  assert.ok(Math.abs(p.flat_pattern!.length_mm - t.length_mm) < FLAT_TOLERANCE_MM, `${t.name}: length ${p.flat_pattern!.length_mm} vs the author's ${t.length_mm}`);
  assert.ok(Math.abs(p.flat_pattern!.width_mm - t.width_mm) < FLAT_TOLERANCE_MM, `${t.name}: width ${p.flat_pattern!.width_mm} vs the author's ${t.width_mm}`);
}

test('real: ROVER6 wheel support bracket (Fusion, every bend cylinder bounded by loose edges) unfolds to its author\'s flat DXF', async () => {
  const d = await analyze(new Uint8Array(readFileSync(`${FIXTURES}real-parts/rover6-wheel-support-bracket.step.gz`)), { kFactor: 0.44 });
  assert.equal(d.parts.length, 1);
  sameAsAuthor(d, truth.parts.find((t) => t.name === 'ROVER6_WHEEL_SUPPORT_BRAKET v1')!);
});

test('real: the ROVER6 frame assembly unfolds part by part to the author\'s DXFs, and its DFM and quote block nothing', async () => {
  const d = await analyze(new Uint8Array(readFileSync(`${FIXTURES}real/rover6-frame-assembly.step.gz`)), { kFactor: 0.44, createdAt: ctx.now });
  assert.deepEqual(d.parts.map((p) => [p.name, p.instance_count]).sort(), truth.parts.map((t) => [t.name, t.instance_count]).sort());
  for (const t of truth.parts) sameAsAuthor(d, t);
  // the frame is 2 mm stainless in the project's bill of materials
  const parts = d.parts.map((p) => ({ part_id: p.id, material_id: 'mat_304_2_0mm' }));
  // as drawn, many holes sit 5.75 mm from a bend (below 2.5 t + r = 7 mm): a real risk the buyer accepts
  const asDrawn = dfm(d, { parts }, catalog, ctx);
  assert.equal(asDrawn.status, 'blocked');
  assert.deepEqual([...new Set(asDrawn.parts.flatMap((p) => p.issues.map((i) => i.code)))], ['hole_too_close_to_bend']);
  const config = { parts, accepted_risks: ['hole_too_close_to_bend'] };
  const report = dfm(d, config, catalog, ctx);
  assert.notEqual(report.status, 'blocked', JSON.stringify(report.parts.filter((p) => p.status === 'blocked').map((p) => [p.part_id, p.issues.map((i) => i.code)])));
  assert.deepEqual(report.parts.filter((p) => p.status === 'blocked'), []);
  const prices = partPrices({ items: [{ design_id: d.id, quantity: 1, configuration: config }] }, new Map([[d.id, d]]), catalog, { now: ctx.now, dfmIds: ['dfm_q'] });
  const [item] = prices.items;
  assert.equal(item.status, 'ready');
  assert.equal(item.line_items.length, truth.parts.length, 'a line item per part');
  assert.ok(Number.isInteger(item.amount_cents) && item.amount_cents > 0);
});

// Printalyzer's base-unit enclosure (fixtures/real/printalyzer-enclosure-assembly.step.gz, Autodesk
// Fusion): two 1.2 mm folded parts and 13 PEM press-in parts; truth from the author's flat DXFs and
// fabrication notes (fixtures/real/printalyzer-enclosure-truth.json).
const pz: {
  thickness_mm: number;
  sheet_parts: Array<{ what: string; length_mm: number; width_mm: number; inner_profiles: number; bend_lines: number; circle_diameters_mm: number[] }>;
  hardware: Array<{ name: string; instance_count: number; kind: string; size: string }>;
} = JSON.parse(readFileSync(`${FIXTURES}real/printalyzer-enclosure-truth.json`, 'utf8'));

test('real: the Printalyzer enclosure (two folded parts, 13 PEM parts) unfolds to its author\'s DXFs and quotes whole', async () => {
  const d = await analyze(new Uint8Array(readFileSync(`${FIXTURES}real/printalyzer-enclosure-assembly.step.gz`)), { kFactor: 0.44, createdAt: ctx.now });
  for (const h of pz.hardware) {
    const p = d.parts.find((x) => x.name === h.name);
    assert.ok(p, h.name);
    assert.deepEqual([p.instance_count, p.bought_in?.kind, p.bought_in?.size], [h.instance_count, h.kind, h.size], h.name);
  }
  const sheets = d.parts.filter((p) => !p.bought_in);
  assert.equal(sheets.length, pz.sheet_parts.length);
  for (const t of pz.sheet_parts) {
    const p = sheets.find((x) => x.bend_count === t.bend_lines);
    assert.ok(p, `${t.what}: a part with ${t.bend_lines} bends among ${sheets.map((x) => x.bend_count).join(', ')}`);
    assert.equal(p.manufacturable, true, `${t.what}: ${p.unsupported_message}`);
    assert.equal(p.detected_thickness_mm, pz.thickness_mm);
    assert.ok(Math.abs(p.flat_pattern!.length_mm - t.length_mm) < FLAT_TOLERANCE_MM, `${t.what}: length ${p.flat_pattern!.length_mm} vs ${t.length_mm}`);
    assert.ok(Math.abs(p.flat_pattern!.width_mm - t.width_mm) < FLAT_TOLERANCE_MM, `${t.what}: width ${p.flat_pattern!.width_mm} vs ${t.width_mm}`);
    assert.equal(p.hole_count, t.inner_profiles, `${t.what}: holes`);
    const round = p.holes.filter((h) => h.shape === 'round').map((h) => h.diameter_mm).sort((a, b) => a - b);
    assert.deepEqual(round, t.circle_diameters_mm, `${t.what}: round holes`);
    // faces 5 microns off the skin where folds meet (within Fusion's 0.01 mm) are no modelled threads
    assert.deepEqual(p.blind_features, [], `${t.what}: ${JSON.stringify(p.blind_features)}`);
  }
  const parts = sheets.map((p) => ({ part_id: p.id, material_id: 'mat_mild_steel_1_2mm' }));
  const asDrawn = dfm(d, { parts }, catalog, ctx);
  // two M4 nut holes on the base's fold-up tabs sit 4.09 mm from their bends (below 2.5 t + r = 4.2 mm)
  assert.deepEqual([...new Set(asDrawn.parts.flatMap((p) => p.issues.filter((i) => i.severity === 'blocking' || i.code === 'hole_too_close_to_bend').map((i) => i.code)))], ['hole_too_close_to_bend']);
  const config = { parts, accepted_risks: ['hole_too_close_to_bend'] };
  const report = dfm(d, config, catalog, ctx);
  // Not yet checked here: the PEM parts are not seated in their holes (their shapes are not read as
  // hardware, so engine/src/hardware/seating.ts finds no axis); seated, they would become the holes'
  // catalog selections, and the base's six M4 nuts sit 6.35 mm from an edge (the catalog's CLS-M4 asks 6.9).
  assert.equal(report.status, 'ready', JSON.stringify(report.parts.filter((p) => p.status !== 'ready')));
  assert.equal(report.parts.filter((p) => p.left_out?.reason === 'bought_in').length, pz.hardware.length);
  const prices = partPrices({ items: [{ design_id: d.id, quantity: 1, configuration: config }] }, new Map([[d.id, d]]), catalog, { now: ctx.now, dfmIds: ['dfm_q'] });
  assert.equal(prices.items[0].status, 'ready');
  assert.deepEqual(prices.items[0].line_items.map((l) => l.part_id).sort(), sheets.map((p) => p.id).sort(), 'the two folded parts are priced, the PEM parts are not invented');
});
