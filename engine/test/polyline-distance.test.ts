// The pruned polyline distance (sheet/segments.ts) gives exactly the brute-force minimum.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { pointSegmentDistance, polylineDistance } from '../src/sheet/segments.ts';
import type { Vec2 } from '../src/geometry/model.ts';

function bruteForce(p: Vec2[], q: Vec2[]): number {
  let best = Infinity;
  for (const x of p) for (let j = 0; j < q.length; j++) best = Math.min(best, pointSegmentDistance(x, q[j], q[(j + 1) % q.length]));
  for (const x of q) for (let j = 0; j < p.length; j++) best = Math.min(best, pointSegmentDistance(x, p[j], p[(j + 1) % p.length]));
  return best;
}

const point = fc.tuple(fc.double({ min: -100, max: 100, noNaN: true }), fc.double({ min: -100, max: 100, noNaN: true })) as fc.Arbitrary<Vec2>;
const ring = fc.array(point, { minLength: 1, maxLength: 40 });

test('polylineDistance equals the brute-force minimum, bit for bit', () => {
  fc.assert(fc.property(ring, ring, (p, q) => { assert.equal(polylineDistance(p, q), bruteForce(p, q)); }), { numRuns: 2000 });
});

test('a hole inside an outline: the distance to its nearest side', () => {
  const circle: Vec2[] = Array.from({ length: 64 }, (_, i) => [50 + 2 * Math.cos((i * Math.PI) / 32), 5 + 2 * Math.sin((i * Math.PI) / 32)]);
  const outline: Vec2[] = [[0, 0], [100, 0], [100, 40], [0, 40]];
  assert.ok(Math.abs(polylineDistance(circle, outline) - 3) < 1e-12);
});
