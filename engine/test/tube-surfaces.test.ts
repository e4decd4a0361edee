// Surface relations and the exact edge projection used for cut lengths.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { CylinderSurface, PlaneSurface, ConeSurface, Surface, Vec3 } from '../src/geometry/model.ts';
import { add, dot, norm, normalize, scale, sub } from '../src/geometry/vec.ts';
import { runsAlong, sameSurface, implicit, projectOntoIntersection, distanceToLine } from '../src/tube/surfaces.ts';

const cyl = (radius: number, axis: Vec3 = [1, 0, 0], origin: Vec3 = [0, 0, 0], convex = true): CylinderSurface =>
  ({ kind: 'cylinder', axis, origin, radius, spanDegrees: 360, convex, axialMin: 0, axialMax: 100 });
const plane = (normal: Vec3, offset: number): PlaneSurface => ({ kind: 'plane', normal, offset });

test('runsAlong: planes containing the axis and cylinders about it only', () => {
  assert.equal(runsAlong(plane([0, 0, 1], 5), [1, 0, 0]), true);
  assert.equal(runsAlong(plane([1, 0, 0], 5), [1, 0, 0]), false);
  assert.equal(runsAlong(plane([Math.SQRT1_2, 0, Math.SQRT1_2], 5), [1, 0, 0]), false);
  assert.equal(runsAlong(cyl(16), [1, 0, 0]), true);
  assert.equal(runsAlong(cyl(16, [0, 1, 0]), [1, 0, 0]), false);
  assert.equal(runsAlong({ kind: 'other' }, [1, 0, 0]), false);
});

test('sameSurface: one skin split into faces, not neighbouring skins', () => {
  assert.equal(sameSurface(cyl(16, [1, 0, 0], [0, 0, 0]), cyl(16, [-1, 0, 0], [50, 0, 0])), true);
  assert.equal(sameSurface(cyl(16), cyl(14)), false);
  assert.equal(sameSurface(cyl(16), cyl(16, [1, 0, 0], [0, 0, 0.1])), false);
  assert.equal(sameSurface(cyl(16), cyl(16, [1, 0, 0], [0, 0, 0], false)), false);
  assert.equal(sameSurface(plane([0, 0, 1], 15), plane([0, 0, 1], 15.000001)), true);
  assert.equal(sameSurface(plane([0, 0, 1], 15), plane([0, 0, -1], -15)), false, 'opposite sides of a wall face opposite ways');
  assert.equal(sameSurface(plane([0, 0, 1], 15), plane([0, 0, 1], 13)), false);
});

test('implicit forms vanish on the surface', () => {
  assert.ok(Math.abs(implicit(cyl(16), [3, 16, 0])!.f) < 1e-12);
  assert.ok(Math.abs(implicit(plane([0, 0, 1], 2), [7, 8, 2])!.f) < 1e-12);
  const cone: ConeSurface = { kind: 'cone', apex: [0, 0, 0], axis: [1, 0, 0], halfAngleDegrees: 30, convex: true };
  const h = 10, r = h * Math.tan(Math.PI / 6);
  assert.ok(Math.abs(implicit(cone, [h, 0, r])!.f) < 1e-12);
  assert.ok(implicit(cone, [h, 0, r + 1])!.f > 0);
});

test('projectOntoIntersection lands on a miter ellipse (cylinder x 45 deg plane)', () => {
  const c = cyl(10);
  const n: Vec3 = [Math.SQRT1_2, Math.SQRT1_2, 0];
  const p = plane(n, 0);
  // chord midpoint between two points of the ellipse x = -y, y^2 + z^2 = 100
  const a: Vec3 = [-10 * Math.cos(0.3), 10 * Math.cos(0.3), 10 * Math.sin(0.3)];
  const b: Vec3 = [-10 * Math.cos(0.6), 10 * Math.cos(0.6), 10 * Math.sin(0.6)];
  const m: Vec3 = [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2, (a[2] + b[2]) / 2];
  const q = projectOntoIntersection(c, p, m, 1)!;
  assert.ok(q);
  assert.ok(Math.abs(Math.hypot(q[1], q[2]) - 10) < 1e-9);
  assert.ok(Math.abs(q[0] + q[1]) < 1e-9);
});

test('projectOntoIntersection refuses tangent surfaces and far jumps', () => {
  // plane tangent to the cylinder along a line: no transverse intersection
  assert.equal(projectOntoIntersection(cyl(10), plane([0, 0, 1], 10), [5, 0.5, 9.9], 1), null);
  assert.equal(projectOntoIntersection(cyl(10), plane([1, 0, 0], 0), [0, 0, 0.5], 0.1), null, 'the curve is 9.5 mm away');
});

test('distanceToLine', () => {
  assert.equal(distanceToLine([5, 3, 4], [0, 0, 0], [1, 0, 0]), 5);
});

/** The projection in its vector form (implicit() per point, vector helpers), as it was before it ran
 * on scalars: the scalar form must give the same doubles, or cut lengths would change. */
function projectReference(a: Surface, b: Surface, p: Vec3, maxMove: number): Vec3 | null {
  let q = p;
  for (let it = 0; it < 8; it++) {
    const ia = implicit(a, q), ib = implicit(b, q);
    if (!ia || !ib) return null;
    if (Math.abs(ia.f) < 1e-11 && Math.abs(ib.f) < 1e-11) return norm(sub(q, p)) <= maxMove ? q : null;
    const aa = dot(ia.g, ia.g), ab = dot(ia.g, ib.g), bb = dot(ib.g, ib.g);
    const det = aa * bb - ab * ab;
    if (det < 1e-6) return null;
    const la = (bb * ia.f - ab * ib.f) / det, lb = (aa * ib.f - ab * ia.f) / det;
    q = sub(q, add(scale(ia.g, la), scale(ib.g, lb)));
  }
  const ia = implicit(a, q), ib = implicit(b, q);
  if (!ia || !ib || Math.abs(ia.f) > 1e-7 || Math.abs(ib.f) > 1e-7) return null;
  return norm(sub(q, p)) <= maxMove ? q : null;
}

test('projectOntoIntersection gives the vector form\'s doubles, bit for bit, on planes, cylinders, cones and free-form surfaces', () => {
  const coord = fc.double({ min: -60, max: 60, noNaN: true });
  const vec = fc.tuple(coord, coord, coord);
  const unit = vec.filter((v) => norm(v) > 1e-3).map((v) => normalize(v));
  const surface: fc.Arbitrary<Surface> = fc.oneof(
    fc.record({ normal: unit, offset: coord }).map(({ normal, offset }) => plane(normal, offset)),
    fc.record({ axis: unit, origin: vec, radius: fc.double({ min: 0.5, max: 40, noNaN: true }), convex: fc.boolean() }).map(({ axis, origin, radius, convex }) => cyl(radius, axis, origin, convex)),
    fc.record({ apex: vec, axis: unit, halfAngleDegrees: fc.double({ min: 1, max: 80, noNaN: true }), convex: fc.boolean() }).map((c): ConeSurface => ({ kind: 'cone', ...c })),
    fc.constant<Surface>({ kind: 'other', hint: 'bspline' }),
  );
  let found = 0;
  fc.assert(fc.property(surface, surface, vec, fc.double({ min: 0.01, max: 100, noNaN: true }), (a, b, p, maxMove) => {
    const got = projectOntoIntersection(a, b, p, maxMove), want = projectReference(a, b, p, maxMove);
    if (got) found++;
    return want === null ? got === null : got !== null && got.every((x, i) => Object.is(x, want[i]));
  }), { numRuns: 20000 });
  assert.ok(found > 100, `only ${found} projections found a curve: the property checked too little`);
  // a cone meeting a plane: the cone's own branch, where a point is found
  const cone: ConeSurface = { kind: 'cone', apex: [0, 0, 0], axis: [1, 0, 0], halfAngleDegrees: 30, convex: true };
  const q = projectOntoIntersection(cone, plane([1, 0, 0], 10), [10.2, 0.3, 5.5], 2);
  assert.ok(q && Object.is(q[0], projectReference(cone, plane([1, 0, 0], 10), [10.2, 0.3, 5.5], 2)![0]));
  assert.ok(Math.abs(Math.hypot(q[1], q[2]) - 10 * Math.tan(Math.PI / 6)) < 1e-9);
});
