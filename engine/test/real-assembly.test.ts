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
