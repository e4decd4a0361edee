import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { analyze, analyzeModel } from '../src/index.ts';
import type { Design, Part } from '../src/contract.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
const bytesOf = (p: string): Uint8Array => readFileSync(root + p);

const DESIGN_KEYS = ['id', 'object', 'status', 'status_url', 'name', 'created_at', 'suggested_process', 'formed_dimensions', 'parts', 'part_instances', 'model_url', 'image_url', 'review_url', 'review_link_id', 'error'];
const PART_KEYS = ['id', 'name', 'suggested_process', 'manufacturable', 'unsupported_reason', 'instance_count', 'formed_dimensions', 'detected_thickness_mm', 'volume_mm3', 'surface_area_cm2', 'bend_count', 'bends', 'hole_count', 'holes', 'flat_pattern', 'flat_pattern_dimensions', 'cut_length_mm', 'tube', 'warnings', 'model_url', 'flat_pattern_model_url', 'image_url'];

function assertWellFormed(d: Design): void {
  for (const k of DESIGN_KEYS) assert.ok(k in d, `design.${k}`);
  assert.match(d.id, /^des_[0-9a-f]{24}$/);
  assert.equal(d.object, 'design');
  assert.equal(d.status, 'ready');
  assert.equal(d.error, null);
  assert.ok(!Number.isNaN(Date.parse(d.created_at)));
  assert.ok(d.parts.length >= 1);
  assert.ok(d.suggested_process === 'sheet_metal' || d.suggested_process === 'tube_laser');
  for (const p of d.parts) assertPart(p);
  const ids = new Set(d.parts.map((p) => p.id));
  assert.equal(ids.size, d.parts.length);
  assert.equal(d.part_instances.length, d.parts.reduce((n, p) => n + p.instance_count, 0));
  for (const p of d.parts) {
    const mine = d.part_instances.filter((i) => i.part_id === p.id);
    assert.deepEqual(mine.map((i) => i.instance_index).sort((a, b) => a - b), [...Array(p.instance_count).keys()]);
  }
  for (const i of d.part_instances) { assert.match(i.id, /^pin_[0-9a-f]{24}$/); assert.ok(ids.has(i.part_id)); }
  assert.ok(JSON.parse(JSON.stringify(d)), 'JSON-serialisable');
}

function assertPart(p: Part): void {
  for (const k of PART_KEYS) assert.ok(k in p, `part.${k}`);
  assert.match(p.id, /^prt_[0-9a-f]{24}$/);
  assert.ok(p.instance_count >= 1);
  assert.ok(p.volume_mm3 > 0 && p.surface_area_cm2 > 0);
  const f = p.formed_dimensions;
  assert.ok(f.length_mm >= f.width_mm && f.width_mm > 0 && f.height_mm > 0, JSON.stringify(f));
  assert.equal(p.bend_count, p.bends.length);
  assert.equal(p.hole_count, p.holes.length);
  if (p.manufacturable) {
    assert.equal(p.unsupported_reason, null);
    if (p.suggested_process === 'sheet_metal') {
      assert.ok(p.flat_pattern && p.flat_pattern_dimensions && p.detected_thickness_mm);
      assert.ok(p.flat_pattern.length_mm >= p.flat_pattern.width_mm);
      assert.equal(p.flat_pattern_dimensions.height_mm, p.detected_thickness_mm);
      for (const b of p.bends) {
        // every sheet bend says where it lies in the flat and (null only when unmeasurable) its flange lengths
        assert.ok(b.line_mm && b.line_mm.flat().every(Number.isFinite), `bend ${b.id} line_mm`);
        assert.ok(b.flange_lengths_mm !== undefined, `bend ${b.id} has flange_lengths_mm`);
        assert.ok(b.flange_lengths_mm === null || (b.flange_lengths_mm.length === 2 && b.flange_lengths_mm.every((x) => x >= 0)), `bend ${b.id} flange_lengths_mm`);
      }
    } else {
      assert.ok(p.tube);
    }
  } else {
    assert.ok(p.unsupported_reason, 'a refused part says why');
    assert.ok(typeof p.unsupported_message === 'string' && p.unsupported_message.length > 0);
  }
}

test('analyze() returns a well-formed Design with deterministic ids', async () => {
  const bytes = bytesOf('fixtures/sheet/l_t2_r2.step');
  const a = await analyze(bytes, { fileName: 'l.step', createdAt: '2026-01-01T00:00:00.000Z' });
  const b = await analyze(bytes, { fileName: 'l.step', createdAt: '2026-01-01T00:00:00.000Z' });
  assertWellFormed(a);
  assert.deepEqual(a, b);
  assert.equal(a.name, 'l.step');
  assert.equal(a.parts[0].instance_count, 1);
  const other = await analyze(bytesOf('fixtures/sheet/u_t1.5_r1.5.step'));
  assert.notEqual(other.id, a.id);
  assert.notEqual(other.parts[0].id, a.parts[0].id);
});

test('the assembly fixture: 3 unique parts with instance counts 3, 1, 2 and six part instances', async () => {
  const d = await analyze(bytesOf('fixtures/assembly/asm_brackets_mirror.step'), { fileName: 'asm.step' });
  assertWellFormed(d);
  assert.deepEqual(d.parts.map((p) => p.instance_count), [3, 1, 2]);
  assert.equal(d.part_instances.length, 6);
  assert.ok(d.formed_dimensions && d.formed_dimensions.length_mm >= d.formed_dimensions.width_mm);
});

test('volumes and surface areas come from the solid, in mm3 and cm2', async () => {
  const truth = JSON.parse(readFileSync(root + 'fixtures/truth.json', 'utf8')) as { fixtures: Array<{ id: string; file: string; parts: Array<{ volume_mm3: number }> }> };
  for (const id of ['plate_t3_holes_slot', 'hat_t2_r2.4_inch_pose_c', 'neg_machined_block']) {
    const fx = truth.fixtures.find((f) => f.id === id)!;
    const d = await analyze(bytesOf('fixtures/' + fx.file));
    const v = d.parts[0].volume_mm3;
    assert.ok(Math.abs(v - fx.parts[0].volume_mm3) / fx.parts[0].volume_mm3 < 2e-3, `${id}: ${v} vs ${fx.parts[0].volume_mm3}`);
  }
  const plate = await analyze(bytesOf('fixtures/sheet/plate_t3_holes_slot.step'));
  // both skins (flat area 9228.83 mm2) plus the cut walls (541.389 mm x 3 mm): 200.818 cm2; the mesh's
  // chords on the hole walls add a few hundredths of a percent
  const exact = (2 * 9228.8285564 + 541.389372261 * 3) / 100;
  assert.ok(Math.abs(plate.parts[0].surface_area_cm2 - exact) / exact < 5e-4, `${plate.parts[0].surface_area_cm2} vs ${exact}`);
});

test('a refused or unframed part gets a box-aligned normalized frame: a real 190 x 190 x 4 plate', async () => {
  const d = await analyze(bytesOf('../shared/corpus/real/ender3-y-plate.step'));
  const f = d.parts[0].formed_dimensions;
  assert.ok(Math.abs(f.length_mm - 190) < 1e-3 && Math.abs(f.width_mm - 190) < 1e-3 && Math.abs(f.height_mm - 4) < 1e-3, JSON.stringify(f));
});

// Whether each negative is refused is the recognisers' acceptance (fixtures-truth.test.ts); here:
// every negative analyses to a well-formed design, and a refusal always carries an allowed reason.
test('negative fixtures analyse to well-formed designs; refusals carry a reason', async () => {
  const truth = JSON.parse(readFileSync(root + 'fixtures/truth.json', 'utf8')) as { fixtures: Array<{ file: string; category: string; parts: Array<{ acceptable_reasons?: string[] }> }> };
  for (const fx of truth.fixtures.filter((f) => f.category === 'negative')) {
    const d = await analyze(bytesOf('fixtures/' + fx.file));
    assertWellFormed(d);
    const p = d.parts[0];
    if (!p.manufacturable) assert.ok(fx.parts[0].acceptable_reasons!.includes(p.unsupported_reason!), `${fx.file}: ${p.unsupported_reason}`);
  }
});

test('analyzeModel() exposes each unique part with its solid, analysis, frame and instances', async () => {
  const m = await analyzeModel(bytesOf('fixtures/assembly/asm_brackets_mirror.step'));
  assert.equal(m.parts.length, 3);
  assert.equal(m.solids.length, 6);
  for (const p of m.parts) {
    assert.equal(p.instances.length, p.part.instance_count);
    assert.ok(['sheet', 'tube', 'refused'].includes(p.analysis.kind));
    assert.equal(p.instances[0].solidIndex, p.solid.index);
    assert.deepEqual(m.design.parts.find((x) => x.id === p.part.id), p.part);
  }
});

test('bends carry the recogniser\'s flat line and flange lengths: L with legs 40 and 30 tangent to edge', async () => {
  const m = await analyzeModel(bytesOf('fixtures/sheet/l_t2_r2.step'));
  const [b] = m.design.parts[0].bends;
  const a = m.parts[0].analysis;
  assert.ok(a.kind === 'sheet');
  assert.deepEqual(b.line_mm, a.bends[0].line.map((pt) => pt.map((x) => Math.round(x * 1e6) / 1e6)));
  assert.deepEqual(b.flange_lengths_mm!.slice().sort((x, y) => x - y).map((x) => Math.round(x * 100) / 100), [30, 40]);
});

test('an explicit K-factor reaches every flat pattern', async () => {
  const d = await analyze(bytesOf('fixtures/sheet/l_t2_r2.step'), { kFactor: 0.44 });
  for (const p of d.parts) if (p.flat_pattern) assert.equal(p.flat_pattern.k_factor, 0.44);
});

test('the default K-factor is reported like every other figure, without float noise', async () => {
  for (const f of ['fixtures/sheet/l_t2_r2.step', 'fixtures/sheet/hat_t2_r2.4.step', 'fixtures/sheet/l_t3_r1.5.step']) {
    const d = await analyze(bytesOf(f));
    for (const p of d.parts) if (p.flat_pattern) assert.equal(p.flat_pattern.k_factor, Math.round(p.flat_pattern.k_factor * 1e6) / 1e6, `${f}: ${p.flat_pattern.k_factor}`);
  }
});

test('a tube part: process, tube block, and wall holes placed on the unrolled wall', async () => {
  const d = await analyze(bytesOf('fixtures/tubes/round-50x3-l250-holes.step'));
  assertWellFormed(d);
  const p = d.parts[0];
  assert.equal(p.suggested_process, 'tube_laser');
  assert.equal(d.suggested_process, 'tube_laser');
  assert.ok(p.tube && p.tube.length_mm > 0);
  assert.equal(p.flat_pattern, null);
  assert.ok(p.hole_count > 0);
  for (const h of p.holes) {
    assert.ok(h.center_mm[0] > 0 && h.center_mm[0] < p.tube.length_mm, 'centre along the axis within the tube');
    assert.ok(h.center_mm[1] >= 0 && h.center_mm[1] <= Math.PI * p.tube.outer_diameter_mm! + 1e-6, 'centre around the perimeter');
    assert.ok(h.distance_to_nearest_edge_mm >= 0);
  }
});

test('a window cut through a tube wall is a hole of shape other in the design, sized by its narrow side', async () => {
  const bytes = new Uint8Array(readFileSync(new URL('../../fixtures/tubes/rect-100x50x3-sharp-window-trapezoid.step', import.meta.url)));
  const part = (await analyze(bytes)).parts[0];
  assert.equal(part.suggested_process, 'tube_laser');
  assert.equal(part.hole_count, 1);
  const [w] = part.holes;
  assert.equal(w.shape, 'other');
  assert.ok(Math.abs(w.diameter_mm - 30) <= 0.05, `window 60 x 30 mm: narrow side ${w.diameter_mm}`);
  // 275 mm from the start of the 550 mm tube (miters included)
  assert.ok(Math.abs(w.center_mm[0] - 275) <= 0.05, `x ${w.center_mm[0]}`);
  // to the real (mitred) end, edge to edge on the unrolled wall: the start mitre slants down the side
  // wall next to the window, and the shortest way there crosses the corner: from the window's corner
  // (245 mm along, 35 mm from the corner edge) to the mitre's end at that wall's foot (50, 50):
  // sqrt(195^2 + 85^2) = 212.72, shorter than the 245 mm along the top wall
  assert.ok(Math.abs(w.distance_to_nearest_edge_mm - Math.hypot(195, 85)) <= 0.05, `${w.distance_to_nearest_edge_mm}`);
});
