// 3D rigid motions for composing the unfolding transforms down the face tree.
import type { Rigid, Vec3 } from '../geometry/model.ts';
import { dot, scale, sub } from '../geometry/vec.ts';

export const IDENTITY: Rigid = { rotation: [[1, 0, 0], [0, 1, 0], [0, 0, 1]], translation: [0, 0, 0] };

export function applyRigid(m: Rigid, p: Vec3): Vec3 {
  const [r0, r1, r2] = m.rotation;
  return [dot(r0, p) + m.translation[0], dot(r1, p) + m.translation[1], dot(r2, p) + m.translation[2]];
}

function rotateVector(m: Rigid, v: Vec3): Vec3 {
  return [dot(m.rotation[0], v), dot(m.rotation[1], v), dot(m.rotation[2], v)];
}

/** outer after inner: p -> outer(inner(p)) */
export function compose(outer: Rigid, inner: Rigid): Rigid {
  const R = outer.rotation, S = inner.rotation;
  const rot = [0, 1, 2].map((i) => [0, 1, 2].map((j) => R[i][0] * S[0][j] + R[i][1] * S[1][j] + R[i][2] * S[2][j])) as Rigid['rotation'];
  return { rotation: rot, translation: applyRigid(outer, inner.translation) };
}

/** Rotation by `angle` radians about the line through `origin` along unit `axis` (right hand). */
export function rotationAbout(origin: Vec3, axis: Vec3, angle: number): Rigid {
  const c = Math.cos(angle), s = Math.sin(angle), C = 1 - c;
  const [x, y, z] = axis;
  const rotation: Rigid['rotation'] = [
    [c + x * x * C, x * y * C - z * s, x * z * C + y * s],
    [y * x * C + z * s, c + y * y * C, y * z * C - x * s],
    [z * x * C - y * s, z * y * C + x * s, c + z * z * C],
  ];
  const m: Rigid = { rotation, translation: [0, 0, 0] };
  return { rotation, translation: sub(origin, rotateVector(m, origin)) };
}

export function translation(t: Vec3): Rigid { return { rotation: IDENTITY.rotation, translation: t }; }

/** The motion taking the orthonormal right-handed frame (origin, ex, ey, ez) to the world axes at 0. */
export function frameToWorld(origin: Vec3, ex: Vec3, ey: Vec3, ez: Vec3): Rigid {
  const rotation: Rigid['rotation'] = [ex, ey, ez];
  const m: Rigid = { rotation, translation: [0, 0, 0] };
  return { rotation, translation: scale(rotateVector(m, origin), -1) };
}

