// Rigid motions p' = R p + t (R as rows) and the extents of a point set in a frame.
import type { Rigid, Vec3 } from '../geometry/model.ts';
import { dot, cross } from '../geometry/vec.ts';

export const IDENTITY: Rigid = { rotation: [[1, 0, 0], [0, 1, 0], [0, 0, 1]], translation: [0, 0, 0] };

export function rotate(r: Rigid['rotation'], p: Vec3): Vec3 { return [dot(r[0], p), dot(r[1], p), dot(r[2], p)]; }

export function applyRigid(m: Rigid, p: Vec3): Vec3 {
  const q = rotate(m.rotation, p);
  return [q[0] + m.translation[0], q[1] + m.translation[1], q[2] + m.translation[2]];
}

export function transpose(r: Rigid['rotation']): Rigid['rotation'] {
  return [[r[0][0], r[1][0], r[2][0]], [r[0][1], r[1][1], r[2][1]], [r[0][2], r[1][2], r[2][2]]];
}

export function invertRigid(m: Rigid): Rigid {
  const rt = transpose(m.rotation);
  const t = rotate(rt, m.translation);
  return { rotation: rt, translation: [-t[0], -t[1], -t[2]] };
}

/** a after b: p -> a(b(p)) */
export function composeRigid(a: Rigid, b: Rigid): Rigid {
  const bt = transpose(b.rotation);
  const rotation = a.rotation.map((row) => rotate(bt, row)) as Rigid['rotation'];
  return { rotation, translation: applyRigid(a, b.translation) };
}

export function determinant(r: Rigid['rotation']): number { return dot(r[0], cross(r[1], r[2])); }

/** Axis-aligned box of the points after the motion. */
export function extentsIn(points: Float64Array, m: Rigid): { min: Vec3; max: Vec3 } {
  const min: Vec3 = [Infinity, Infinity, Infinity], max: Vec3 = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < points.length; i += 3) {
    const q = applyRigid(m, [points[i], points[i + 1], points[i + 2]]);
    for (let k = 0; k < 3; k++) { if (q[k] < min[k]) min[k] = q[k]; if (q[k] > max[k]) max[k] = q[k]; }
  }
  return { min, max };
}

