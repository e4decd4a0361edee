// Surface relations the tube recogniser needs: parallel to an axis, same surface, and an implicit
// form (value + gradient) to project points onto the intersection curve of two surfaces.
import type { Surface, Vec3 } from '../geometry/model.ts';
import { sub, dot, cross, norm, scale, add } from '../geometry/vec.ts';
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

/** Newton projection of p onto the curve where surfaces a and b meet; null when they are tangent
 * there or the iteration does not settle (then the caller keeps the chord). */
export function projectOntoIntersection(a: Surface, b: Surface, p: Vec3, maxMove: number): Vec3 | null {
  let q = p;
  for (let it = 0; it < 8; it++) {
    const ia = implicit(a, q), ib = implicit(b, q);
    if (!ia || !ib) return null;
    if (Math.abs(ia.f) < 1e-11 && Math.abs(ib.f) < 1e-11) return norm(sub(q, p)) <= maxMove ? q : null;
    // minimum-norm step: q -= J^T (J J^T)^-1 f with J = [ga; gb]
    const aa = dot(ia.g, ia.g), ab = dot(ia.g, ib.g), bb = dot(ib.g, ib.g);
    const det = aa * bb - ab * ab;
    if (det < 1e-6) return null;
    const la = (bb * ia.f - ab * ib.f) / det, lb = (aa * ib.f - ab * ia.f) / det;
    q = sub(q, add(scale(ia.g, la), scale(ib.g, lb)));
  }
  const ia = implicit(a, q), ib = implicit(b, q);
  if (!ia || !ib || Math.abs(ia.f) > 1e-7 || Math.abs(ib.f) > 1e-7) return null;
  return norm(sub(q, p)) <= maxMove ? q : null;
}
