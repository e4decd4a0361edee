// Surface relations the tube recogniser needs: parallel to an axis, same surface, and an implicit
// form (value + gradient) to project points onto the intersection curve of two surfaces.
import type { Surface, Vec3 } from '../geometry/model.ts';
import { sub, dot, cross, norm, scale, hypot3 } from '../geometry/vec.ts';
import { PARALLEL_TOLERANCE_DEGREES, SAME_SURFACE_TOLERANCE_MM } from './tolerances.ts';

const PARALLEL_SIN = Math.sin((PARALLEL_TOLERANCE_DEGREES * Math.PI) / 180);

export function parallelDirections(a: Vec3, b: Vec3): boolean { return norm(cross(a, b)) < PARALLEL_SIN; }
export function perpendicularDirections(a: Vec3, b: Vec3): boolean { return Math.abs(dot(a, b)) < PARALLEL_SIN; }

/** True when the surface is a prism wall along direction d: a plane containing d or a cylinder about d. */
export function runsAlong(s: Surface, d: Vec3): boolean {
  if (s.kind === 'plane') return perpendicularDirections(s.normal, d);
  if (s.kind === 'cylinder') return parallelDirections(s.axis, d);
  return false;
}

/** Distance from point p to the line through o along unit a. */
export function distanceToLine(p: Vec3, o: Vec3, a: Vec3): number {
  const w = sub(p, o);
  return norm(sub(w, scale(a, dot(w, a))));
}

/** Two faces lie on one geometric surface (a skin split into several B-rep faces). */
export function sameSurface(a: Surface, b: Surface): boolean {
  if (a.kind === 'plane' && b.kind === 'plane') {
    return parallelDirections(a.normal, b.normal) && dot(a.normal, b.normal) > 0 && Math.abs(a.offset - b.offset) < SAME_SURFACE_TOLERANCE_MM;
  }
  if (a.kind === 'cylinder' && b.kind === 'cylinder') {
    return parallelDirections(a.axis, b.axis) && a.convex === b.convex && Math.abs(a.radius - b.radius) < SAME_SURFACE_TOLERANCE_MM
      && distanceToLine(b.origin, a.origin, a.axis) < SAME_SURFACE_TOLERANCE_MM;
  }
  return false;
}

/** Signed implicit value and gradient; null when the surface has no usable implicit form. */
export function implicit(s: Surface, p: Vec3): { f: number; g: Vec3 } | null {
  if (s.kind === 'plane') return { f: dot(s.normal, p) - s.offset, g: s.normal };
  if (s.kind === 'cylinder') {
    const w = sub(p, s.origin);
    const radial = sub(w, scale(s.axis, dot(w, s.axis)));
    const r = norm(radial);
    if (r < 1e-12) return null;
    return { f: r - s.radius, g: scale(radial, 1 / r) };
  }
  if (s.kind === 'cone') {
    const w = sub(p, s.apex);
    const h = dot(w, s.axis);
    const radial = sub(w, scale(s.axis, h));
    const r = norm(radial);
    if (r < 1e-12) return null;
    const a = (s.halfAngleDegrees * Math.PI) / 180;
    return { f: r * Math.cos(a) - h * Math.sin(a), g: sub(scale(radial, Math.cos(a) / r), scale(s.axis, Math.sin(a))) };
  }
  return null;
}

/** implicit() without allocating, for the projection's inner loop (the tube cut lengths call it
 * hundreds of thousands of times per file): value at out[0], gradient at out[1..3]; false where
 * implicit() gives null. The same operations in the same order as implicit(), so bit-identical. */
function implicitInto(s: Surface, x: number, y: number, z: number, out: Float64Array): boolean {
  if (s.kind === 'plane') {
    const n = s.normal;
    out[0] = n[0] * x + n[1] * y + n[2] * z - s.offset;
    out[1] = n[0]; out[2] = n[1]; out[3] = n[2];
    return true;
  }
  if (s.kind !== 'cylinder' && s.kind !== 'cone') return false;
  const o = s.kind === 'cylinder' ? s.origin : s.apex, a = s.axis;
  const wx = x - o[0], wy = y - o[1], wz = z - o[2];
  const h = wx * a[0] + wy * a[1] + wz * a[2];
  const rx = wx - a[0] * h, ry = wy - a[1] * h, rz = wz - a[2] * h;
  const r = hypot3(rx, ry, rz);
  if (r < 1e-12) return false;
  if (s.kind === 'cylinder') {
    const inv = 1 / r;
    out[0] = r - s.radius;
    out[1] = rx * inv; out[2] = ry * inv; out[3] = rz * inv;
    return true;
  }
  const ang = (s.halfAngleDegrees * Math.PI) / 180, c = Math.cos(ang), sn = Math.sin(ang), k = c / r;
  out[0] = r * c - h * sn;
  out[1] = rx * k - a[0] * sn; out[2] = ry * k - a[1] * sn; out[3] = rz * k - a[2] * sn;
  return true;
}

const IA = new Float64Array(4), IB = new Float64Array(4);

/** Newton projection of p onto the curve where surfaces a and b meet; null when they are tangent
 * there or the iteration does not settle (then the caller keeps the chord). Scalar arithmetic
 * (implicitInto) in the order of the vector form it replaced, so the points are bit-identical. */
export function projectOntoIntersection(a: Surface, b: Surface, p: Vec3, maxMove: number): Vec3 | null {
  let qx = p[0], qy = p[1], qz = p[2];
  for (let it = 0; it < 8; it++) {
    if (!implicitInto(a, qx, qy, qz, IA) || !implicitInto(b, qx, qy, qz, IB)) return null;
    const fa = IA[0], fb = IB[0];
    if (Math.abs(fa) < 1e-11 && Math.abs(fb) < 1e-11) return hypot3(qx - p[0], qy - p[1], qz - p[2]) <= maxMove ? [qx, qy, qz] : null;
    // minimum-norm step: q -= J^T (J J^T)^-1 f with J = [ga; gb]
    const ax = IA[1], ay = IA[2], az = IA[3], bx = IB[1], by = IB[2], bz = IB[3];
    const aa = ax * ax + ay * ay + az * az, ab = ax * bx + ay * by + az * bz, bb = bx * bx + by * by + bz * bz;
    const det = aa * bb - ab * ab;
    if (det < 1e-6) return null;
    const la = (bb * fa - ab * fb) / det, lb = (aa * fb - ab * fa) / det;
    qx = qx - (ax * la + bx * lb); qy = qy - (ay * la + by * lb); qz = qz - (az * la + bz * lb);
  }
  if (!implicitInto(a, qx, qy, qz, IA) || !implicitInto(b, qx, qy, qz, IB) || Math.abs(IA[0]) > 1e-7 || Math.abs(IB[0]) > 1e-7) return null;
  return hypot3(qx - p[0], qy - p[1], qz - p[2]) <= maxMove ? [qx, qy, qz] : null;
}
