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
  // On scalars (three arrays per triangle were most of an analysis' allocations after the fits); every
  // sum below is the one the loops over i, j wrote, in the same order: S_ij += (v / 20) (a_i a_j +
  // b_i b_j + d_i d_j + (a_i + b_i + d_i)(a_j + b_j + d_j)), c_i += v (a_i + b_i + d_i) / 4.
  let c0 = 0, c1 = 0, c2 = 0;
  let s00 = 0, s01 = 0, s02 = 0, s10 = 0, s11 = 0, s12 = 0, s20 = 0, s21 = 0, s22 = 0;
  const o0 = o[0], o1 = o[1], o2 = o[2];
  for (let t = 0; t < tri.length; t += 3) {
    const ia = tri[t] * 3, ib = tri[t + 1] * 3, id = tri[t + 2] * 3;
    const a0 = p[ia] - o0, a1 = p[ia + 1] - o1, a2 = p[ia + 2] - o2;
    const b0 = p[ib] - o0, b1 = p[ib + 1] - o1, b2 = p[ib + 2] - o2;
    const d0 = p[id] - o0, d1 = p[id + 1] - o1, d2 = p[id + 2] - o2;
    const v = (a0 * (b1 * d2 - b2 * d1) - a1 * (b0 * d2 - b2 * d0) + a2 * (b0 * d1 - b1 * d0)) / 6;
    vol += v;
    const e0 = a0 + b0 + d0, e1 = a1 + b1 + d1, e2 = a2 + b2 + d2;
    c0 += (v * e0) / 4; c1 += (v * e1) / 4; c2 += (v * e2) / 4;
    const w = v / 20;
    s00 += w * (a0 * a0 + b0 * b0 + d0 * d0 + e0 * e0);
    s01 += w * (a0 * a1 + b0 * b1 + d0 * d1 + e0 * e1);
    s02 += w * (a0 * a2 + b0 * b2 + d0 * d2 + e0 * e2);
    s10 += w * (a1 * a0 + b1 * b0 + d1 * d0 + e1 * e0);
    s11 += w * (a1 * a1 + b1 * b1 + d1 * d1 + e1 * e1);
    s12 += w * (a1 * a2 + b1 * b2 + d1 * d2 + e1 * e2);
    s20 += w * (a2 * a0 + b2 * b0 + d2 * d0 + e2 * e0);
    s21 += w * (a2 * a1 + b2 * b1 + d2 * d1 + e2 * e1);
    s22 += w * (a2 * a2 + b2 * b2 + d2 * d2 + e2 * e2);
  }
  const c = [c0, c1, c2];
  const s = [[s00, s01, s02], [s10, s11, s12], [s20, s21, s22]];
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
