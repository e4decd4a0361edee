// Volume, centroid and second moments of a closed, outward-wound triangle mesh (float64),
// integrated exactly over the tetrahedra the triangles span with a reference point.
import type { Solid, Vec3 } from '../geometry/model.ts';
import { eigenSym3 } from '../geometry/vec.ts';

export interface MassProperties {
  volume: number;
  centroid: Vec3;
  /** covariance of the volume about the centroid, mm2 (second moment / volume) */
  covariance: number[][];
  /** principal variances ascending, mm2, and their unit axes */
  variances: [number, number, number];
  axes: [Vec3, Vec3, Vec3];
}

export function massProperties(solid: Solid): MassProperties {
  const p = solid.points, tri = solid.triangles;
  // Integrate about the box centre: keeps the sums well conditioned far from the origin.
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
  const centroidLocal = vol !== 0 ? c.map((x) => x / vol) : [0, 0, 0];
  const covariance = s.map((row, i) => row.map((x, j) => (vol !== 0 ? x / vol - centroidLocal[i] * centroidLocal[j] : 0)));
  const eig = eigenSym3(covariance);
  return {
    volume: vol,
    centroid: [centroidLocal[0] + o[0], centroidLocal[1] + o[1], centroidLocal[2] + o[2]],
    covariance,
    variances: eig.values,
    axes: eig.vectors,
  };
}
