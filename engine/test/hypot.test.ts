// hypot3/hypot2 stand in for Math.hypot on the engine's hot paths because they are faster; analysis
// results stay byte-identical only if they return exactly what Math.hypot returns, edge cases included.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { hypot2, hypot3 } from '../src/geometry/vec.ts';

const SPECIAL = [0, -0, NaN, Infinity, -Infinity, Number.MIN_VALUE, -Number.MIN_VALUE, 1e-310, Number.MAX_VALUE, -Number.MAX_VALUE, 1, -1, 1e-12, 3e154];
// every double: random bit patterns (subnormals, huge, NaN payloads) and everyday magnitudes in mm
const anyDouble = fc.oneof(fc.double(), fc.double({ min: -1e4, max: 1e4, noNaN: true }), fc.constantFrom(...SPECIAL));

test('hypot3 is Math.hypot bit for bit', () => {
  for (const x of SPECIAL) for (const y of SPECIAL) for (const z of SPECIAL) assert.ok(Object.is(hypot3(x, y, z), Math.hypot(x, y, z)), `${x}, ${y}, ${z}`);
  fc.assert(fc.property(anyDouble, anyDouble, anyDouble, (x, y, z) => Object.is(hypot3(x, y, z), Math.hypot(x, y, z))), { numRuns: 200000 });
});

test('hypot2 is Math.hypot bit for bit', () => {
  for (const x of SPECIAL) for (const y of SPECIAL) assert.ok(Object.is(hypot2(x, y), Math.hypot(x, y)), `${x}, ${y}`);
  fc.assert(fc.property(anyDouble, anyDouble, (x, y) => Object.is(hypot2(x, y), Math.hypot(x, y))), { numRuns: 200000 });
});
