// Rigid motions p' = R p + t (R as rows) and the extents of a point set in a frame.
import type { Rigid, Vec3 } from '../geometry/model.ts';
import { dot } from '../geometry/vec.ts';

export const IDENTITY: Rigid = { rotation: [[1, 0, 0], [0, 1, 0], [0, 0, 1]], translation: [0, 0, 0] };

export function rotate(r: Rigid['rotation'], p: Vec3): Vec3 { return [dot(r[0], p), dot(r[1], p), dot(r[2], p)]; }

export function applyRigid(m: Rigid, p: Vec3): Vec3 {
  const q = rotate(m.rotation, p);
  return [q[0] + m.translation[0], q[1] + m.translation[1], q[2] + m.translation[2]];
}

/** Axis-aligned box of the points after the motion. */
export function extentsIn(points: Float64Array, m: Rigid): { min: Vec3; max: Vec3 } {
  const min: Vec3 = [Infinity, Infinity, Infinity], max: Vec3 = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < points.length; i += 3) {
    const q = applyRigid(m, [points[i], points[i + 1], points[i + 2]]);
    for (let k = 0; k < 3; k++) { if (q[k] < min[k]) min[k] = q[k]; if (q[k] > max[k]) max[k] = q[k]; }
  }
  return { min, max };
}

