// The hot loops written on scalars for speed (docs/performance.md) must give the very bits their
// straightforward vector formulation gives: analyses are compared byte for byte across versions
// (bench/same-results.ts). Each reference below is the formulation the kernel replaced.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { importStepDetailed } from '../src/import/index.ts';
import { buildSolids } from '../src/geometry/topology.ts';
import { massProperties } from '../src/parts/mass.ts';
import { signatureOf } from '../src/parts/instances.ts';
import { point } from '../src/geometry/vec.ts';
import type { Solid, Vec3 } from '../src/geometry/model.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
const FIXTURES = ['sheet/bend_holes_l_t2_r2.step', 'sheet/box_section_seam_t1.5.step'];

async function solidsOf(path: string): Promise<Solid[]> {
  const imp = await importStepDetailed(readFileSync(root + 'fixtures/' + path));
  return buildSolids(imp.solids, { accuracyMm: imp.accuracyMm });
}

/** Volume integrals with an array per vertex and loops over the 3 x 3 moments. */
function referenceMoments(solid: Solid): { vol: number; c: number[]; s: number[][] } {
  const p = solid.points, tri = solid.triangles;
  const o: Vec3 = [(solid.bbox.min[0] + solid.bbox.max[0]) / 2, (solid.bbox.min[1] + solid.bbox.max[1]) / 2, (solid.bbox.min[2] + solid.bbox.max[2]) / 2];
  let vol = 0;
  const c = [0, 0, 0];
  const s = [[0, 0, 0], [0, 0, 0], [0, 0, 0]];
  for (let t = 0; t < tri.length; t += 3) {
    const a = [p[tri[t] * 3] - o[0], p[tri[t] * 3 + 1] - o[1], p[tri[t] * 3 + 2] - o[2]];
    const b = [p[tri[t + 1] * 3] - o[0], p[tri[t + 1] * 3 + 1] - o[1], p[tri[t + 1] * 3 + 2] - o[2]];
    const d = [p[tri[t + 2] * 3] - o[0], p[tri[t + 2] * 3 + 1] - o[1], p[tri[t + 2] * 3 + 2] - o[2]];
    const v = (a[0] * (b[1] * d[2] - b[2] * d[1]) - a[1] * (b[0] * d[2] - b[2] * d[0]) + a[2] * (b[0] * d[1] - b[1] * d[0])) / 6;
    vol += v;
    for (let i = 0; i < 3; i++) c[i] += (v * (a[i] + b[i] + d[i])) / 4;
    for (let i = 0; i < 3; i++) {
      for (let j = 0; j < 3; j++) {
        const sum = a[i] + b[i] + d[i], sumj = a[j] + b[j] + d[j];
        s[i][j] += (v / 20) * (a[i] * a[j] + b[i] * b[j] + d[i] * d[j] + sum * sumj);
      }
    }
  }
  return { vol, c, s };
}

test('massProperties gives the bits of the vector formulation', async () => {
  for (const f of FIXTURES) {
    for (const solid of await solidsOf(f)) {
      const ref = referenceMoments(solid);
      const got = massProperties(solid);
      assert.ok(Object.is(got.volume, ref.vol), `${f}: volume`);
      const o = [(solid.bbox.min[0] + solid.bbox.max[0]) / 2, (solid.bbox.min[1] + solid.bbox.max[1]) / 2, (solid.bbox.min[2] + solid.bbox.max[2]) / 2];
      const centroid = ref.c.map((x, k) => (ref.vol !== 0 ? x / ref.vol : 0) + o[k]);
      assert.deepEqual(got.centroid, centroid, `${f}: centroid`);
      const cl = ref.c.map((x) => (ref.vol !== 0 ? x / ref.vol : 0));
      assert.deepEqual(got.covariance, ref.s.map((row, i) => row.map((x, j) => (ref.vol !== 0 ? x / ref.vol - cl[i] * cl[j] : 0))), `${f}: covariance`);
    }
  }
});

test('instance signatures list the corners (vertices of three or more faces) in ascending vertex order', async () => {
  for (const f of FIXTURES) {
    for (const solid of await solidsOf(f)) {
      const faceCountOf = new Map<number, number>();
      for (const face of solid.faces) for (const v of face.vertices) faceCountOf.set(v, (faceCountOf.get(v) ?? 0) + 1);
      const corners = [...faceCountOf].sort((x, y) => x[0] - y[0]).filter(([, n]) => n >= 3).map(([v]) => point(solid.points, v));
      assert.ok(corners.length > 0, `${f}: has corners`);
      assert.deepEqual(signatureOf(solid).corners, corners, `${f}: corners`);
    }
  }
});
