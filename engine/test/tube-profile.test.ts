// Profile measurement from skin surfaces: sizes, wall, corner radius, frame axes, and the precise
// reasons for sections that are not a standard tube.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { CylinderSurface, PlaneSurface, Surface, Vec3 } from '../src/geometry/model.ts';
import { measureProfile } from '../src/tube/profile.ts';

const X: Vec3 = [1, 0, 0];
const cyl = (radius: number, convex: boolean, origin: Vec3 = [0, 0, 0]): CylinderSurface =>
  ({ kind: 'cylinder', axis: X, origin, radius, spanDegrees: 90, convex, axialMin: 0, axialMax: 100 });
const plane = (normal: Vec3, offset: number): PlaneSurface => ({ kind: 'plane', normal, offset });

/** Skins of a w x h rectangular tube centred at (cy, cz), outer corner radius r (corners at +-). */
function rectSkins(w: number, h: number, t: number, r: number, cy = 0, cz = 0): { outer: Surface[]; inner: Surface[] } {
  const outer: Surface[] = [plane([0, 1, 0], w / 2 + cy), plane([0, -1, 0], w / 2 - cy), plane([0, 0, 1], h / 2 + cz), plane([0, 0, -1], h / 2 - cz)];
  const inner: Surface[] = [plane([0, -1, 0], -(w / 2 - t) - cy), plane([0, 1, 0], -(w / 2 - t) + cy), plane([0, 0, -1], -(h / 2 - t) - cz), plane([0, 0, 1], -(h / 2 - t) + cz)];
  if (r > 0) for (const [sy, sz] of [[1, 1], [1, -1], [-1, 1], [-1, -1]]) {
    outer.push(cyl(r, true, [0, cy + sy * (w / 2 - r), cz + sz * (h / 2 - r)]));
    if (r > t) inner.push(cyl(r - t, false, [0, cy + sy * (w / 2 - r), cz + sz * (h / 2 - r)]));
  }
  return { outer, inner };
}

test('round: diameter, wall, centre on the axis', () => {
  const r = measureProfile([cyl(16, true, [0, 5, -2])], [cyl(14, false, [30, 5, -2])], X);
  assert.ok(r.ok);
  if (!r.ok) return;
  assert.equal(r.profile.profile, 'round');
  assert.equal(r.profile.outerDiameter, 32);
  assert.equal(r.profile.wall, 2);
  assert.equal(r.profile.cornerRadius, null);
});

test('round with an eccentric bore is refused with the offset', () => {
  const r = measureProfile([cyl(16, true)], [cyl(14, false, [0, 0.5, 0])], X);
  assert.equal(r.ok, false);
  if (!r.ok) assert.match(r.message, /eccentric by 0.5 mm/);
});

test('rectangular: width is the larger size, along e2; centre found', () => {
  const { outer, inner } = rectSkins(30, 60, 2.5, 5, 10, -4);
  const r = measureProfile(outer, inner, X);
  assert.ok(r.ok);
  if (!r.ok) return;
  assert.equal(r.profile.profile, 'rectangular');
  assert.equal(r.profile.outerWidth, 60);
  assert.equal(r.profile.outerHeight, 30);
  assert.ok(Math.abs(r.profile.wall - 2.5) < 1e-12);
  assert.equal(r.profile.cornerRadius, 5);
  assert.ok(Math.abs(Math.abs(r.profile.e2[2]) - 1) < 1e-12, 'the 60 mm side is along Z in the source');
  const c = r.profile.center;
  assert.ok(Math.abs(c[1] - 10) < 1e-12 && Math.abs(c[2] + 4) < 1e-12, `centre ${c}`);
});

test('square with sharp corners', () => {
  const { outer, inner } = rectSkins(40, 40, 2, 0);
  const r = measureProfile(outer, inner, X);
  assert.ok(r.ok && r.profile.profile === 'square' && r.profile.cornerRadius === 0);
});

test('different wall thicknesses are refused', () => {
  const { outer, inner } = rectSkins(40, 40, 2, 0);
  inner[0] = plane([0, -1, 0], -(20 - 3));
  inner[1] = plane([0, 1, 0], -(20 - 3));
  const r = measureProfile(outer, inner, X);
  assert.equal(r.ok, false);
  if (!r.ok) assert.match(r.message, /different thicknesses \(3 and 2 mm\)|different thicknesses \(2 and 3 mm\)/);
});

test('a hexagonal or D-shaped section is neither round nor rectangular', () => {
  const r = measureProfile([cyl(16, true), plane([0, 0, 1], 10)], [cyl(14, false)], X);
  assert.equal(r.ok, false);
  if (!r.ok) assert.match(r.message, /neither round nor rectangular/);
});
