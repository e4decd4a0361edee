// Ring sections and cut contours on a real imported tube (the Ø32 x 2 fixture), plus robustness:
// rigid-motion invariance and degenerate solids.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { importStep } from '../src/import/index.ts';
import { buildSolid } from '../src/geometry/topology.ts';
import { recognizeTube } from '../src/tube/index.ts';
import { faceOfTriangles, sliceMesh, classifySection, pointInPolygon } from '../src/tube/section.ts';
import { skinBoundaryLoops, loopLength, windingAboutAxis } from '../src/tube/cuts.ts';
import { candidateAxes, canonicalDirection } from '../src/tube/axes.ts';
import type { ImportedSolid, Solid, Vec3 } from '../src/geometry/model.ts';

const FIXTURES = fileURLToPath(new URL('../../fixtures/tubes/', import.meta.url));
const imported = async (f: string): Promise<ImportedSolid> => (await importStep(new Uint8Array(readFileSync(FIXTURES + f))))[0];

test('pointInPolygon and classifySection', () => {
  const sq = (s: number): [number, number][] => [[-s, -s], [s, -s], [s, s], [-s, s]];
  assert.equal(pointInPolygon([0, 0], sq(1)), true);
  assert.equal(pointInPolygon([2, 0], sq(1)), false);
  const loop = (s: number) => ({ points: sq(s), faces: [0, 0, 0, 0], area: 4 * s * s });
  assert.equal(classifySection([loop(2), loop(1)]).kind, 'annulus');
  assert.equal(classifySection([loop(1)]).kind, 'solid');
  const apart = { points: sq(1).map(([x, y]) => [x + 10, y] as [number, number]), faces: [0, 0, 0, 0], area: 4 };
  assert.equal(classifySection([loop(2), apart]).kind, 'other');
});

test('section of the Ø32 x 2 tube is a ring on the two skins', async () => {
  const solid = buildSolid(await imported('round-32x2-l100.step'), 0);
  const { loops, broken } = sliceMesh(solid, faceOfTriangles(solid), [1, 0, 0], [0, 1, 0], [0, 0, 1], 37.3);
  assert.equal(broken, false);
  const c = classifySection(loops);
  assert.equal(c.kind, 'annulus');
  const ring = Math.abs(c.outer!.area) - Math.abs(c.inner!.area);
  const exact = Math.PI * (16 * 16 - 14 * 14);
  assert.ok(Math.abs(ring / exact - 1) < 0.01, `ring area ${ring} vs ${exact}`);
  for (const f of c.outer!.faces) assert.equal(solid.faces[f].surface.kind === 'cylinder' && solid.faces[f].surface.radius > 15, true);
});

test('cut contours of the Ø32 tube: two end circles of exact length 2 pi 16', async () => {
  const solid = buildSolid(await imported('round-32x2-l100.step'), 0);
  const skin = new Set(solid.faces.filter((f) => f.surface.kind === 'cylinder' && f.surface.convex).map((f) => f.id));
  const loops = skinBoundaryLoops(solid, faceOfTriangles(solid), skin);
  assert.equal(loops.length, 2);
  for (const edges of loops) {
    const { length, exact } = loopLength(solid, edges);
    assert.equal(exact, true);
    assert.ok(Math.abs(length - 2 * Math.PI * 16) < 1e-4, `${length}`);
    // the tessellated polygon alone would be short by far more than the tolerance
    let chord = 0;
    for (const e of edges) chord += Math.hypot(...([0, 1, 2].map((k) => solid.points[e.b * 3 + k] - solid.points[e.a * 3 + k])) as [number, number, number]);
    assert.ok(length - chord > 1e-3, 'refinement adds length the chords miss');
    assert.ok(Math.abs(Math.abs(windingAboutAxis(solid, edges, [0, 0, 0], [0, 1, 0], [0, 0, 1])) - 1) < 1e-9);
  }
});

test('candidate axes of a tube start with its axis', async () => {
  const solid = buildSolid(await imported('square-40x3-r4.5-l300.step'), 0);
  const axes = candidateAxes(solid);
  assert.ok(axes.length >= 1);
  const [dx, dy, dz] = axes[0].direction;
  assert.ok(Math.abs(dx) < 1e-9 && Math.abs(dy - 1) < 1e-9 && Math.abs(dz) < 1e-9, `${axes[0].direction}`);
  assert.deepEqual(canonicalDirection([0, -1, 0]), [0, 1, 0]);
});

/** Rotation matrix from a unit quaternion. */
function rotation(q: [number, number, number, number]): [Vec3, Vec3, Vec3] {
  const n = Math.hypot(...q) || 1;
  const [w, x, y, z] = q.map((v) => v / n);
  return [
    [1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
    [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
    [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)],
  ];
}

function moved(src: ImportedSolid, R: [Vec3, Vec3, Vec3], t: Vec3): Solid {
  const p = src.positions, out = new Float64Array(p.length);
  for (let i = 0; i < p.length; i += 3) {
    for (let k = 0; k < 3; k++) out[i + k] = R[k][0] * p[i] + R[k][1] * p[i + 1] + R[k][2] * p[i + 2] + t[k];
  }
  return buildSolid({ ...src, positions: out }, 0);
}

for (const file of ['round-50x3-l250-holes.step', 'rect-80x40x3-r6-miter30-hole.step']) {
  test(`recognition of ${file} does not depend on where the part sits`, async () => {
    const src = await imported(file);
    const ref = recognizeTube(buildSolid(src, 0));
    assert.equal(ref?.kind, 'tube');
    if (ref?.kind !== 'tube') return;
    const coord = fc.double({ min: -500, max: 500, noNaN: true });
    const unit = fc.double({ min: -1, max: 1, noNaN: true });
    await fc.assert(fc.asyncProperty(fc.tuple(unit, unit, unit, unit), fc.tuple(coord, coord, coord), async (q, t) => {
      fc.pre(Math.hypot(...q) > 0.1);
      const r = recognizeTube(moved(src, rotation(q), t));
      assert.equal(r?.kind, 'tube');
      if (r?.kind !== 'tube') return;
      assert.equal(r.profile, ref.profile);
      for (const k of ['outerDiameter', 'outerWidth', 'outerHeight', 'wall', 'length'] as const) {
        const a = r[k], b = ref[k];
        assert.ok((a === null && b === null) || Math.abs((a as number) - (b as number)) < 1e-6, `${k}: ${a} vs ${b}`);
      }
      assert.ok(Math.abs(r.cutLength / ref.cutLength - 1) < 1e-5);
      assert.deepEqual(r.features.map((f) => f.kind), ref.features.map((f) => f.kind));
    }), { numRuns: 4 });
  });
}

test('degenerate solids are not tube-like and do not crash', () => {
  const empty: Solid = { index: 0, name: 'empty', points: new Float64Array(0), triangles: new Uint32Array(0), faces: [], edges: [], volume: 0, area: 0, bbox: { min: [0, 0, 0], max: [0, 0, 0] } };
  assert.equal(recognizeTube(empty), null);
});

/** Deterministic noise per coordinate triple, so shared vertices stay bitwise shared. */
function noisy(src: ImportedSolid, amplitudeMm: number): ImportedSolid {
  const p = src.positions, out = new Float64Array(p.length);
  for (let i = 0; i < p.length; i += 3) {
    const h = Math.sin(p[i] * 12.9898 + p[i + 1] * 78.233 + p[i + 2] * 37.719) * 43758.5453;
    for (let k = 0; k < 3; k++) out[i + k] = p[i + k] + amplitudeMm * Math.sin(h * (k + 1));
  }
  return { ...src, positions: out };
}

// Real exports carry 10-20 nm of modelling noise: recognition must not depend on exact values.
for (const file of ['square-40x3-r4.5-l300.step', 'round-42.4x2.6-miter45-both.step']) {
  test(`${file} with 20 nm vertex noise gives the same tube`, async () => {
    const src = await imported(file);
    const ref = recognizeTube(buildSolid(src, 0));
    const r = recognizeTube(buildSolid(noisy(src, 2e-5), 0));
    assert.equal(ref?.kind, 'tube');
    assert.equal(r?.kind, 'tube', r?.kind === 'refused' ? r.message : 'null');
    if (r?.kind !== 'tube' || ref?.kind !== 'tube') return;
    assert.equal(r.profile, ref.profile);
    assert.ok(Math.abs(r.wall - ref.wall) < 1e-3 && Math.abs(r.length - ref.length) < 1e-3);
    assert.ok(Math.abs(r.cutLength / ref.cutLength - 1) < 1e-4);
    assert.deepEqual(r.features.map((f) => f.kind), ref.features.map((f) => f.kind));
  });
}
