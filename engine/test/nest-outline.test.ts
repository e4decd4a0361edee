// Real flats nest as their true shape (engine/src/nest/flat-outline.ts, docs/nesting.md "Part
// outlines"): the analysis keeps each sheet flat's cut contours as polygons within
// FLAT_OUTLINE_TOLERANCE_MM, only when asked (the public design is unchanged), and a quote of an
// L-shaped flat analysed from STEP nests tighter than its bounding boxes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { analyze } from '../src/analyze.ts';
import { defaultCatalog } from '../src/catalog/index.ts';
import { partPrices, type LineItem } from '../src/pricing/index.ts';
import { FLAT_OUTLINE_TOLERANCE_MM, simplifyLoop } from '../src/nest/flat-outline.ts';
import { outlineArea, partOutline } from '../src/nest/index.ts';
import type { Design, Part } from '../src/contract.ts';
import { designOf, sheetPart as sheetPartOf } from './helpers/examples.ts';

const root = new URL('../../', import.meta.url).pathname;
const bytesOf = (p: string): Uint8Array => readFileSync(root + p);
const catalog = defaultCatalog();
const STEEL_2MM = 'mat_mild_steel_2_0mm';

const sheetPart = (d: Design): Part => d.parts.find((p) => p.flat_pattern)!;

test('the analysis keeps an L flat\'s cut contours when asked, and only then', async () => {
  const bytes = bytesOf('fixtures/sheet/plate_l_t2.step');
  const plain = await analyze(bytes);
  assert.equal(sheetPart(plain)._flat_outline, undefined, 'the public design has no outline');
  assert.ok(!JSON.stringify(plain).includes('_flat_outline'));
  const kept = sheetPart(await analyze(bytes, { flatOutlines: true }));
  const o = kept._flat_outline!;
  assert.ok(o, 'the part keeps its outline');
  // straight edges only: the L's six corners; its three holes
  assert.equal(o.outer.length, 6);
  assert.equal(o.holes.length, 3);
  const fp = kept.flat_pattern!;
  assert.ok(Math.abs(fp.length_mm - 300) < 0.01 && Math.abs(fp.width_mm - 200) < 0.01);
  for (const [x, y] of o.outer) assert.ok(x >= -0.001 && y >= -0.001 && x <= fp.length_mm + 0.001 && y <= fp.width_mm + 0.001);
  // the polygons' area is the flat's (holes within the tolerance times their perimeter)
  const area = outlineArea(partOutline(kept)!);
  const holePerimeter = Math.PI * (10 + 8 + 8);
  assert.ok(Math.abs(area - fp.area_mm2) <= FLAT_OUTLINE_TOLERANCE_MM * holePerimeter, `outline ${area} vs flat ${fp.area_mm2} mm2`);
  assert.ok(area < 0.5 * fp.length_mm * fp.width_mm, 'the outline is an L, not its box');
});

test('arcs are kept within the tolerance: a round flange\'s outer circle and holes', async () => {
  const part = sheetPart(await analyze(bytesOf('fixtures/sheet/washer_flange_t2.step'), { flatOutlines: true }));
  const o = part._flat_outline!;
  assert.equal(o.holes.length, 5);
  const c = [part.flat_pattern!.length_mm / 2, part.flat_pattern!.width_mm / 2];
  const r = (p: readonly number[]): number => Math.hypot(p[0] - c[0], p[1] - c[1]);
  // every vertex on the 60 mm circle, every edge's middle within the tolerance of it
  for (let i = 0; i < o.outer.length; i++) {
    const a = o.outer[i], b = o.outer[(i + 1) % o.outer.length];
    assert.ok(Math.abs(r(a) - 30) < 0.002, `vertex at r ${r(a)}`);
    assert.ok(30 - r([(a[0] + b[0]) / 2, (a[1] + b[1]) / 2]) <= FLAT_OUTLINE_TOLERANCE_MM + 1e-9);
  }
  // far fewer points than a fine sampling: a few dozen
  assert.ok(o.outer.length >= 20 && o.outer.length <= 80, `${o.outer.length} points`);
});

test('simplifying a loop keeps every sample within the tolerance', () => {
  const pts = Array.from({ length: 400 }, (_, i) => {
    const t = (2 * Math.PI * i) / 400;
    return [100 * Math.cos(t) + 3 * Math.sin(7 * t), 50 * Math.sin(t)] as [number, number];
  });
  const s = simplifyLoop(pts, 0.1);
  assert.ok(s.length < pts.length / 2 && s.length >= 3);
  const dist = (p: readonly number[], a: readonly number[], b: readonly number[]): number => {
    const dx = b[0] - a[0], dy = b[1] - a[1], l2 = dx * dx + dy * dy;
    const t = Math.max(0, Math.min(1, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / l2));
    return Math.hypot(p[0] - a[0] - t * dx, p[1] - a[1] - t * dy);
  };
  for (const p of pts) assert.ok(Math.min(...s.map((a, i) => dist(p, a, s[(i + 1) % s.length]))) <= 0.1 + 1e-9);
});

test('an L flat from STEP quoted at 20 nests tighter than its bounding boxes', async () => {
  const design = await analyze(bytesOf('fixtures/sheet/plate_l_t2.step'), { flatOutlines: true });
  // the same design as one analysed before outlines were kept: nested as its box less round holes
  const boxed: Design = { ...design, id: 'des_boxed', parts: design.parts.map(({ _flat_outline: _o, ...p }) => p) };
  const quote = (d: Design): LineItem => partPrices({ items: [{ design_id: d.id, quantity: 20, configuration: { defaults: { material_id: STEEL_2MM } } }] }, { [d.id]: d }, catalog, { now: '2026-11-28T15:00:00.000Z', dfmIds: ['dfm_0'] })
    .items[0].line_items.find((l) => l.part_id)!;
  const shape = quote(design), box = quote(boxed);
  const material = (l: LineItem): number => l.breakdown.find((b) => b.type === 'material')!.amount_cents;
  assert.ok(shape.nest && box.nest);
  // the box packing of 20 L's is under 44 % used; nested as L's, pairs interlock
  assert.ok(box.nest.utilization < 0.45, `box packing ${box.nest.utilization}`);
  assert.ok(shape.nest.utilization > box.nest.utilization + 0.15, `true shape ${shape.nest.utilization} vs boxes ${box.nest.utilization}`);
  assert.ok(shape.nest.sheets < box.nest.sheets, `${shape.nest.sheets} vs ${box.nest.sheets} sheets`);
  assert.ok(material(shape) < material(box), `material ${material(shape)} vs ${material(box)} cents`);
});

test('a shape that nests worse than its rectangle is charged the rectangle\'s nest (it holds the true flat)', () => {
  // a 190 mm square with 55 mm corners cut: the greedy placement tiles its squares tighter
  const S = 190, c = 55;
  const outer: Array<[number, number]> = [[c, 0], [S - c, 0], [S, c], [S, S - c], [S - c, S], [c, S], [0, S - c], [0, c]];
  const flat = { k_factor: 0.42, length_mm: S, width_mm: S, area_mm2: S * S - 2 * c * c, cut_length_mm: 4 * (S - 2 * c) + 4 * c * Math.SQRT2, pierce_count: 0 };
  const octagon = sheetPartOf({ id: 'prt_octagon', holes: [], hole_count: 0, flat_pattern: flat, flat_pattern_dimensions: { length_mm: S, width_mm: S, height_mm: 2 }, detected_thickness_mm: 2, _flat_outline: { outer, holes: [] } });
  const { _flat_outline: _o, ...square } = octagon;
  const quote = (p: Part): LineItem => {
    const d = designOf([p], `des_${p._flat_outline ? 'shape' : 'box'}`);
    return partPrices({ items: [{ design_id: d.id, quantity: 10, configuration: { defaults: { material_id: STEEL_2MM } } }] }, { [d.id]: d }, catalog, { now: '2026-11-28T15:00:00.000Z', dfmIds: ['dfm_0'] }).items[0].line_items[0];
  };
  const shape = quote(octagon), box = quote(square as Part);
  assert.ok(shape.nest && box.nest);
  assert.ok(shape.nest.sheets <= box.nest.sheets, `${shape.nest.sheets} vs ${box.nest.sheets} sheets`);
  assert.ok(shape.nest.utilization >= box.nest.utilization);
});
