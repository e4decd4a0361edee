// openEdgeVertices counts edge uses in a hash table instead of sorting every edge key; the vertices it
// finds, and the order it adds them in (the seam weld walks them sorted, split.ts reads them by
// membership), must be what the sorted keys gave.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { edgeKey, openEdgeVertices } from '../src/geometry/weld.ts';

/** The former implementation: every undirected edge key sorted, runs of length 1 are open. */
function openBySorting(triangles: Uint32Array): Set<number> {
  const keys = new Float64Array(triangles.length);
  let n = 0;
  for (let t = 0; t < triangles.length; t += 3) {
    for (let k = 0; k < 3; k++) {
      const a = triangles[t + k], b = triangles[t + ((k + 1) % 3)];
      if (a !== b) keys[n++] = edgeKey(a, b);
    }
  }
  const sorted = keys.subarray(0, n).sort();
  const open = new Set<number>();
  for (let i = 0; i < n; ) {
    let j = i + 1;
    while (j < n && sorted[j] === sorted[i]) j++;
    if (j - i === 1) { const a = Math.floor(sorted[i] / 67108864); open.add(a); open.add(sorted[i] - a * 67108864); }
    i = j;
  }
  return open;
}

test('a closed tetrahedron has no open vertices; one missing face opens its three', () => {
  const tet = [0, 1, 2, 0, 3, 1, 1, 3, 2, 2, 3, 0];
  assert.deepEqual([...openEdgeVertices(new Uint32Array(tet))], []);
  assert.deepEqual([...openEdgeVertices(new Uint32Array(tet.slice(3)))], [0, 1, 2]);
});

test('openEdgeVertices finds the vertices of the sorted-key version, in the same order', () => {
  // small vertex ranges so edges repeat (closed, open and over-used edges, degenerate triangles)
  const mesh = fc.integer({ min: 2, max: 60 }).chain((nv) => fc.array(fc.integer({ min: 0, max: nv - 1 }), { minLength: 0, maxLength: 600 }))
    .map((xs) => new Uint32Array(xs.slice(0, xs.length - (xs.length % 3))));
  fc.assert(fc.property(mesh, (tris) => {
    const got = [...openEdgeVertices(tris)], want = [...openBySorting(tris)];
    return got.length === want.length && got.every((v, i) => v === want[i]);
  }), { numRuns: 3000 });
  // large vertex indices (up to the 2^26 edgeKey assumes)
  const big = new Uint32Array([67108863, 5, 40000000, 40000000, 5, 7, 1, 2, 3]);
  assert.deepEqual([...openEdgeVertices(big)], [...openBySorting(big)]);
});
