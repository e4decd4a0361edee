// Sheet recognition on real STEP data: thickness, bends (angle, radius, length, direction, sharp),
// holes (shape, size, countersink, distances, ids) and refusals with precise reasons.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { importStep } from '../src/import/index.ts';
import { buildSolid } from '../src/geometry/topology.ts';
import type { Refusal, SheetAnalysis, Solid } from '../src/geometry/model.ts';
import { recognizeSheet } from '../src/sheet/index.ts';
import { measureThickness } from '../src/sheet/thickness.ts';
import { defaultInnerRadius } from '../src/sheet/kfactor.ts';

const root = fileURLToPath(new URL('../../fixtures/', import.meta.url));

export async function loadSolids(file: string): Promise<Solid[]> {
  const imported = await importStep(readFileSync(root + file));
  return imported.map((s, i) => buildSolid(s, i));
}

async function sheet(file: string, kFactor?: number): Promise<SheetAnalysis> {
  const [solid] = await loadSolids(file);
  const r = recognizeSheet(solid, kFactor === undefined ? {} : { kFactor });
  assert.equal(r.kind, 'sheet', r.kind === 'refused' ? `${r.reason}: ${r.message}` : '');
  return r as SheetAnalysis;
}

async function refused(file: string): Promise<Refusal> {
  const [solid] = await loadSolids(file);
  const r = recognizeSheet(solid);
  assert.equal(r.kind, 'refused');
  return r as Refusal;
}

const near = (got: number, want: number, tol: number, what: string) =>
  assert.ok(Math.abs(got - want) <= tol, `${what}: got ${got}, want ${want} +- ${tol}`);

test('thickness: most common distance of overlapping opposite planes (t 2, t 5, t 0.5)', async () => {
  for (const [file, t] of [['sheet/l_t2_r2.step', 2], ['sheet/u_t5_r5.step', 5], ['sheet/l_t0.5_r0.5_hole.step', 0.5]] as const) {
    const [solid] = await loadSolids(file);
    near(measureThickness(solid)!.thickness, t, 1e-6, file);
    near((await sheet(file)).thickness, t, 1e-6, file);
  }
});

test('Z bracket: two 90 degree r 3 bends of length 50, one up and one down', async () => {
  const r = await sheet('sheet/z_t2_r3.step');
  assert.equal(r.bends.length, 2);
  for (const b of r.bends) {
    near(b.angleDegrees, 90, 1e-3, 'angle'); near(b.innerRadius, 3, 1e-4, 'radius'); near(b.length, 50, 1e-4, 'length');
    assert.equal(b.sharp, false);
  }
  assert.deepEqual(r.bends.map((b) => b.direction).sort(), ['down', 'up']);
  assert.deepEqual(r.bends.map((b) => b.id), [1, 2]);
  assert.deepEqual(r.warnings, []);
});

test('hat section: bend directions alternate down/up/up/down along the flat', async () => {
  const r = await sheet('sheet/hat_t2_r2.4.step');
  const dirs = r.bends.map((b) => b.direction);
  // compare up to one global flip: which skin is "top" is a convention
  const want = ['down', 'up', 'up', 'down'];
  const flipped = want.map((d) => (d === 'up' ? 'down' : 'up'));
  assert.ok(JSON.stringify(dirs) === JSON.stringify(want) || JSON.stringify(dirs) === JSON.stringify(flipped), dirs.join(','));
  for (const b of r.bends) near(b.innerRadius, 2.4, 1e-4, 'radius');
});

test('acute and obtuse bends report the bend-through angle', async () => {
  for (const [file, angle, radius] of [['sheet/acute30_t1_r1.step', 30, 1], ['sheet/acute45_t3_r4.step', 45, 4], ['sheet/obtuse150_t0.8_r1.step', 150, 1], ['sheet/obtuse135_t1.2_r1.5.step', 135, 1.5]] as const) {
    const r = await sheet(file);
    assert.equal(r.bends.length, 1, file);
    near(r.bends[0].angleDegrees, angle, 0.01, file);
    near(r.bends[0].innerRadius, radius, 1e-3, file);
  }
});

test('plate: round holes, a slot (width and length), ids ordered by position, distances to the edge', async () => {
  const r = await sheet('sheet/plate_t3_holes_slot.step');
  assert.equal(r.bends.length, 0);
  assert.equal(r.holes.length, 4);
  const diameters = r.holes.map((h) => `${h.shape}:${h.diameter.toFixed(3)}`).sort();
  assert.deepEqual(diameters, ['round:10.000', 'round:6.500', 'round:6.500', 'slot:8.000']);
  const slot = r.holes.find((h) => h.shape === 'slot')!;
  near(slot.slotLength!, 30, 1e-4, 'slot length');
  assert.deepEqual(r.holes.map((h) => h.id), [1, 2, 3, 4]);
  for (let i = 1; i < r.holes.length; i++) {
    const a = r.holes[i - 1].center, b = r.holes[i].center;
    assert.ok(a[0] < b[0] + 1e-3, 'ids follow x');
  }
  for (const h of r.holes) {
    assert.equal(h.nearestBendId, null);
    assert.equal(h.distanceToNearestBend, null);
    // centre in the flat frame: inside the 120 x 80 rectangle, edge distance consistent with it
    assert.ok(h.center[0] > 0 && h.center[0] < 120 && h.center[1] > 0 && h.center[1] < 80);
    if (h.shape === 'round') {
      const edge = Math.min(h.center[0], 120 - h.center[0], h.center[1], 80 - h.center[1]) - h.diameter / 2;
      near(h.distanceToNearestEdge, edge, 2e-3, `hole ${h.id} edge distance`);
    }
  }
});

test('countersinks: through diameter cut, cone outer diameter and included angle reported', async () => {
  const r = await sheet('sheet/plate_countersunk_t3.step');
  const sunk = r.holes.filter((h) => h.countersink).map((h) => `${h.diameter.toFixed(3)}/${h.countersink!.outerDiameter.toFixed(2)}/${h.countersink!.angleDegrees.toFixed(0)}`).sort();
  assert.deepEqual(sunk, ['3.400/6.73/90', '4.496/9.12/82', '4.500/8.97/90', '5.500/11.20/90']);
  assert.equal(r.holes.filter((h) => !h.countersink).length, 1);
  // the flat cuts the through hole, not the countersink's outer circle
  for (const c of r.flat.inner) {
    assert.equal(c.length, 1);
    const seg = c[0];
    assert.ok(seg.kind === 'arc' && [1.7, 2.25, 2.75, 2.248, 4].some((rad) => Math.abs(seg.radius - rad) < 2e-3), JSON.stringify(seg));
  }
});

test('holes near a bend: distance from the hole edge to the bend zone (tangent line)', async () => {
  const r = await sheet('sheet/l_t2_holes_near_bend.step');
  const round = r.holes.filter((h) => h.shape === 'round').map((h) => h.distanceToNearestBend!).sort((a, b) => a - b);
  near(round[0], 0.5, 2e-3, 'first hole');
  near(round[1], 1, 2e-3, 'second hole');
  const slot = r.holes.find((h) => h.shape === 'slot')!;
  near(slot.distanceToNearestBend!, 2, 2e-3, 'slot');
  assert.ok(r.holes.every((h) => h.nearestBendId === 1));
});

test('hole and bend ids do not depend on the pose of the part', async () => {
  const a = await sheet('sheet/l_t2_r2.step');
  for (const file of ['sheet/l_t2_r2_pose_a.step', 'sheet/l_t2_r2_pose_b.step']) {
    const b = await sheet(file);
    assert.equal(b.bends.length, a.bends.length);
    near(b.flat.length, a.flat.length, 1e-6, 'length');
    for (let i = 0; i < a.flat.bendLines.length; i++) {
      near(b.flat.bendLines[i].a[0], a.flat.bendLines[i].a[0], 1e-4, 'bend line x');
    }
  }
  const p = await sheet('sheet/plate_t3_holes_slot.step');
  const q = await sheet('sheet/plate_t3_holes_slot_inch.step');
  assert.deepEqual(q.holes.map((h) => [h.id, h.shape, h.diameter.toFixed(3), h.center.map((x) => x.toFixed(3))]),
    p.holes.map((h) => [h.id, h.shape, h.diameter.toFixed(3), h.center.map((x) => x.toFixed(3))]));
});

test('sharp bends are recognised and warned about: a modelled (near-zero) bend face keeps its radius, the tooling radius is an adjustment; planes meeting get the default radius', async () => {
  // sharp inside with an outer bend face: the modelled radius 0; two planes meeting: the default radius
  for (const [file, bendFace] of [['sheet/sharp_l_t2.step', false], ['sheet/sharp_45_t1.step', true], ['sheet/sharp_inside_z_t1.5.step', true]] as const) {
    const r = await sheet(file);
    assert.ok(r.bends.length >= 1, file);
    for (const b of r.bends) {
      assert.equal(b.sharp, true, file);
      near(b.innerRadius, bendFace ? 0 : defaultInnerRadius(r.thickness), 1e-6, file);
    }
    const w = r.warnings.find((x) => x.code === 'sharp_bend');
    const tool = Number(defaultInnerRadius(r.thickness).toFixed(3));
    const says = bendFace ? `tooling radius of ${tool} mm` : `default inner radius ${tool} mm`;
    assert.ok(w && w.message.includes(says), `${file}: ${w?.message}`);
  }
  // a closed hem (r 0.01) made at r = t = 1.5 grows by pi x 1.49; its 90 degree bend shrinks by 1.49 (2 - pi / 2)
  const cover = await sheet('sheet/cover_hem_and_l_t1.5.step');
  const grow = Math.PI * 1.49 + (Math.PI / 2) * 1.49 - 2 * 1.49;
  assert.ok(cover.warnings.some((x) => x.code === 'sharp_bend' && x.message.includes(`${grow.toFixed(2)} mm longer`)), cover.warnings.map((x) => x.message).join('; '));
});

test('a window across a bend splits the bend face; it is still one bend over the full width', async () => {
  const r = await sheet('sheet/l_t2_window_across_bend.step');
  assert.equal(r.bends.length, 1);
  near(r.bends[0].length, 60, 1e-4, 'bend length');
  assert.equal(r.flat.pierceCount, 1);
  assert.equal(r.holes[0].shape, 'other');
  near(r.holes[0].distanceToNearestBend!, 0, 1e-9, 'window reaches into the bend');
});

test('refusals: machined block, tapered plate, solid bar, B-spline and torus bends, non-concentric bend', async () => {
  const cases: Array<[string, string[]]> = [
    ['negative/neg_machined_block.step', ['not_constant_thickness', 'not_sheet_metal']],
    ['negative/neg_tapered_plate.step', ['not_constant_thickness']],
    ['negative/neg_solid_bar.step', ['not_sheet_metal']],
    ['negative/neg_bspline_bend.step', ['non_cylindrical_bend']],
    ['negative/neg_torus_bend.step', ['non_cylindrical_bend']],
    ['negative/neg_non_concentric_bend.step', ['not_constant_thickness']],
  ];
  for (const [file, reasons] of cases) {
    const r = await refused(file);
    assert.ok(reasons.includes(r.reason), `${file}: ${r.reason} (${r.message})`);
    assert.equal(r.process, 'sheet_metal');
    assert.ok(r.message.length > 20, 'the message says why');
  }
});

test('modelled hardware (solid boss, tubular standoff) is left out of the flat with a hardware_modelled warning', async () => {
  const boss = await sheet('negative/neg_plate_with_boss.step');
  near(boss.thickness, 2, 1e-6, 'boss plate t');
  near(boss.flat.area, 100 * 60, 1e-3, 'boss plate flat area (the boss is not cut)');
  assert.equal(boss.holes.length, 0);
  const w = boss.warnings.find((x) => x.code === 'hardware_modelled');
  assert.ok(w && /Ø10\.00 mm, 8\.00 mm high/.test(w.message) && /no hole/.test(w.message), w?.message);
  const standoff = await sheet('negative/neg_plate_with_standoff.step');
  near(standoff.thickness, 2.5, 1e-6, 'standoff plate t');
  near(standoff.flat.area, 120 * 80 - Math.PI * 1.6 ** 2, 1e-2, 'standoff plate flat area (the bore is cut)');
  assert.equal(standoff.holes.length, 1);
  near(standoff.holes[0].diameter, 3.2, 1e-3, 'bore under the standoff');
  assert.ok(standoff.warnings.some((x) => x.code === 'hardware_modelled' && /Ø6\.00\/Ø3\.20 mm, 6\.00 mm high/.test(x.message)), JSON.stringify(standoff.warnings));
});

test('an invalid explicit K-factor is rejected, not silently used', async () => {
  const [solid] = await loadSolids('sheet/l_t2_r2.step');
  assert.throws(() => recognizeSheet(solid, { kFactor: 0.8 }), /K-factor/);
  assert.throws(() => recognizeSheet(solid, { kFactor: 0 }), /K-factor/);
});

test('hostile solids are refused with a reason, never a crash', () => {
  const empty: Solid = { index: 0, name: 'empty', points: new Float64Array(0), triangles: new Uint32Array(0), faces: [], edges: [], volume: 0, area: 0, bbox: { min: [0, 0, 0], max: [0, 0, 0] } };
  const a = recognizeSheet(empty);
  assert.equal(a.kind, 'refused');
  // one lonely planar face with no opposite and no triangles behind it
  const lonely: Solid = {
    ...empty, name: 'lonely', points: new Float64Array([0, 0, 0, 1, 0, 0, 0, 1, 0]), triangles: new Uint32Array([0, 1, 2]), volume: 0, area: 0.5,
    faces: [{ id: 0, surface: { kind: 'plane', normal: [0, 0, 1], offset: 0 }, area: 0.5, triangles: new Uint32Array([0]), vertices: new Uint32Array([0, 1, 2]), loops: [[0, 1, 2]], neighbours: [] }],
  };
  const b = recognizeSheet(lonely);
  assert.equal(b.kind, 'refused');
  assert.ok(b.kind === 'refused' && b.message.length > 0);
});

test('a countersunk hole points at its through-hole wall, coaxial with the reported centre', async () => {
  const [solid] = await loadSolids('sheet/plate_countersunk_t3.step');
  const r = recognizeSheet(solid) as SheetAnalysis;
  for (const h of r.holes.filter((x) => x.countersink)) {
    const wall = solid.faces[h.faceId].surface;
    assert.equal(wall.kind, 'cylinder');
    if (wall.kind === 'cylinder') near(2 * wall.radius, h.diameter, 1e-6, `hole ${h.id} wall`);
  }
});
