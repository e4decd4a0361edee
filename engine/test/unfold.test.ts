// Exact unfolding: flat size against the bend-allowance formula, volume identity at K = 0.5, exact
// arcs in the outline, bend lines in the middle of their strips, the frame, and the flats that must
// be cut apart (flanges that meet at closed corners).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { draw, type Shape3D } from 'replicad';
import { importStep } from '../src/import/index.ts';
import { buildSolid } from '../src/geometry/topology.ts';
import type { SheetAnalysis, Solid, Vec3 } from '../src/geometry/model.ts';
import { recognizeSheet } from '../src/sheet/index.ts';
import { bendAllowance } from '../src/sheet/kfactor.ts';
import { applyRigid } from '../src/sheet/rigid3.ts';
import { contourBounds } from '../src/sheet/segments.ts';
import { initReplicad } from '../../fixtures/lib/oc.ts';
import { stepText } from '../../fixtures/lib/step.ts';

const fixtures = fileURLToPath(new URL('../../fixtures/', import.meta.url));

async function solidOf(file: string): Promise<Solid> {
  const [s] = await importStep(readFileSync(fixtures + file));
  return buildSolid(s, 0);
}

async function solidFromShape(shape: Shape3D): Promise<Solid> {
  const text = await stepText([{ shape, name: 'part' }], 'mm');
  const [s] = await importStep(new TextEncoder().encode(text));
  return buildSolid(s, 0);
}

function unfold(solid: Solid, kFactor?: number): SheetAnalysis {
  const r = recognizeSheet(solid, kFactor === undefined ? {} : { kFactor });
  assert.equal(r.kind, 'sheet', r.kind === 'refused' ? `${r.reason}: ${r.message}` : '');
  return r as SheetAnalysis;
}

const near = (got: number, want: number, tol: number, what: string) =>
  assert.ok(Math.abs(got - want) <= tol, `${what}: got ${got}, want ${want} +- ${tol}`);

test('L t 2 r 2, legs 40 + 30 tangent to tangent: flat length = 70 + BA for any K', async () => {
  const solid = await solidOf('sheet/l_t2_r2.step');
  for (const k of [0.33, 0.44, 0.5]) {
    const r = unfold(solid, k);
    near(r.flat.length, 70 + bendAllowance(90, 2, k, 2), 1e-6, `K ${k}`);
    near(r.flat.width, 40, 1e-6, 'width');
    near(r.flat.area, r.flat.length * 40, 1e-5, 'area');
    near(r.flat.cutLength, 2 * (r.flat.length + 40), 1e-5, 'cut length');
    assert.equal(r.flat.kFactor, k);
  }
});

test('without an explicit K the default comes from r/t (ANSI table)', async () => {
  const r = unfold(await solidOf('sheet/l_t2_r2.step'));
  near(r.flat.kFactor, 0.42, 1e-12, 'K at r/t = 1');
  near(r.flat.length, 70 + bendAllowance(90, 2, 0.42, 2), 1e-6, 'length');
});

test('K = 0.5 puts the neutral axis mid-thickness: flat area x t = exact solid volume', async () => {
  // exact volumes from the generator (the tessellated mesh volume is smaller: chords cut the bends)
  const truth = JSON.parse(readFileSync(fixtures + 'truth.json', 'utf8')) as { fixtures: Array<{ file: string; parts: Array<{ volume_mm3: number }> }> };
  for (const file of ['sheet/u_t1.5_r1.5.step', 'sheet/hat_t2_r2.4.step', 'sheet/acute45_t3_r4.step', 'sheet/u_t1.5_slots.step', 'sheet/obtuse150_t0.8_r1.step']) {
    const volume = truth.fixtures.find((f) => f.file === file)!.parts[0].volume_mm3;
    const r = unfold(await solidOf(file), 0.5);
    near(r.flat.area * r.thickness, volume, volume * 1e-7, file);
  }
});

test('hat t 2 r 2.4: flat length is linear in K (four 90 degree bends)', async () => {
  const solid = await solidOf('sheet/hat_t2_r2.4.step');
  const a = unfold(solid, 0.44).flat.length, b = unfold(solid, 0.47).flat.length;
  near(b - a, 4 * (Math.PI / 2) * 0.03 * 2, 1e-6, 'dL/dK');
});

test('outline arcs come from the fitted walls, not tessellation chords', async () => {
  const r = unfold(await solidOf('sheet/plate_rounded_t1.5.step'));
  const arcs = r.flat.outer.filter((s) => s.kind === 'arc');
  assert.ok(arcs.length >= 4, 'rounded corners are arcs');
  const lines = r.flat.outer.filter((s) => s.kind === 'line');
  assert.ok(lines.length <= 8, `straight sides are single lines (${lines.length})`);
  for (const c of r.flat.inner) assert.ok(c.every((s) => s.kind === 'arc' || s.kind === 'line'));
  const round = r.flat.inner.filter((c) => c.length === 1 && c[0].kind === 'arc');
  assert.ok(round.length >= 1);
  for (const c of round) { const s = c[0]; assert.ok(s.kind === 'arc' && Math.abs(s.radius * 2 - Math.round(s.radius * 2 * 1000) / 1000) < 1e-6); }
});

test('bend lines: middle of the unrolled strip, across the full width, with angle and direction', async () => {
  const k = 0.44;
  const r = unfold(await solidOf('sheet/l_t2_r2.step'), k);
  assert.equal(r.flat.bendLines.length, 1);
  const line = r.flat.bendLines[0];
  const ba = bendAllowance(90, 2, k, 2);
  // a plain rectangle: the bend line (the only feature) is turned toward the origin, so the
  // shorter leg (30) comes first and the line lies at 30 + BA/2
  near(line.a[0], 30 + ba / 2, 1e-6, 'x of a');
  near(line.b[0], 30 + ba / 2, 1e-6, 'x of b');
  near(Math.abs(line.b[1] - line.a[1]), 40, 1e-6, 'length');
  near(line.angleDegrees, 90, 1e-6, 'angle');
  assert.equal(line.direction, r.bends[0].direction);
  assert.equal(line.bendId, r.bends[0].id);
});

test('frame: the root face lands on z = 0 with the material below, and the flat sits on [0,L] x [0,W]', async () => {
  const solid = await solidOf('sheet/plate_t3_holes_slot.step');
  const r = unfold(solid);
  let zmin = Infinity, zmax = -Infinity;
  for (let i = 0; i < solid.points.length; i += 3) {
    const p = applyRigid(r.frame, [solid.points[i], solid.points[i + 1], solid.points[i + 2]] as Vec3);
    zmin = Math.min(zmin, p[2]); zmax = Math.max(zmax, p[2]);
  }
  near(zmax, 0, 1e-9, 'top at z = 0');
  near(zmin, -3, 1e-9, 'material below');
  const b = contourBounds(r.flat.outer);
  near(b.min[0], 0, 1e-9, 'x0'); near(b.min[1], 0, 1e-9, 'y0');
  near(b.max[0], r.flat.length, 1e-9, 'x1'); near(b.max[1], r.flat.width, 1e-9, 'y1');
  // for a flat plate the frame maps the part onto its flat: hole centres agree with the 3D holes
  for (const h of r.holes) {
    const wall = solid.faces[h.faceId].surface;
    assert.equal(wall.kind, 'cylinder');
    if (wall.kind === 'cylinder' && h.shape === 'round') {
      const c = applyRigid(r.frame, wall.origin);
      near(c[0], h.center[0], 1e-6, 'hole x'); near(c[1], h.center[1], 1e-6, 'hole y');
    }
  }
});

test('a hem (180 degrees) unfolds; its angle is reported as 180', async () => {
  const r = unfold(await solidOf('sheet/hem_t1_r1_open.step'));
  assert.ok(r.bends.some((b) => Math.abs(b.angleDegrees - 180) < 0.01), r.bends.map((b) => b.angleDegrees).join(','));
});

test('a box whose walls meet at closed corners unfolds from its inside (holes drilled across a bend: bend-cutouts.test.ts)', async () => {
  await initReplicad();
  const box = draw([0, 0]).lineTo([60, 0]).lineTo([60, 40]).lineTo([0, 40]).close().sketchOnPlane('XY').extrude(20) as Shape3D;
  const pocket = draw([2, 2]).lineTo([58, 2]).lineTo([58, 38]).lineTo([2, 38]).close().sketchOnPlane('XY', 2).extrude(20) as Shape3D;
  const b = recognizeSheet(await solidFromShape(box.cut(pocket)));
  // unfolded from its outside the walls' corner columns overlap; from the inside the four walls are cut
  // apart at the corners (a cross-shaped flat, corners welded): the 2 x 2 x 18 columns are left for the weld
  assert.equal(b.kind, 'sheet', b.kind === 'refused' ? `${b.reason}: ${b.message}` : '');
  if (b.kind !== 'sheet') return;
  assert.equal(b.bends.length, 4);
  assert.ok(b.bends.every((x) => x.sharp && Math.abs(x.angleDegrees - 90) < 1e-6));
  const corner = b.warnings.find((w) => w.code === 'closed_corner');
  assert.ok(corner && /4 edge\(s\) \(72\.0 mm\).*up to 144\.0 mm2/.test(corner.message), corner?.message);
});

test('each bend carries its flat line (as flat.bendLines) and the straight flange lengths on both sides, tangent line to edge', async () => {
  // L: legs 40 and 30 tangent to tangent; U: legs 40, 60 (the web, between the two bend zones), 40
  for (const [file, want] of [['sheet/l_t2_r2.step', [[30, 40]]], ['sheet/u_t5_r5.step', [[40, 60], [40, 60]]]] as const) {
    const r = recognizeSheet(await solidOf(file), { kFactor: 0.5 });
    assert.equal(r.kind, 'sheet');
    if (r.kind !== 'sheet') continue;
    r.bends.forEach((b, i) => {
      const bl = r.flat.bendLines.find((x) => x.bendId === b.id)!;
      assert.deepEqual(b.line, [bl.a, bl.b]);
      const got = [...b.flangeLengths!].sort((x, y) => x - y);
      const exp = [...want[i]].sort((x, y) => x - y);
      got.forEach((g, k) => assert.ok(Math.abs(g - exp[k]) < 1e-6, `${file} bend ${b.id}: flanges ${b.flangeLengths}, want ${want[i]}`));
    });
  }
});
