// Every point of a sheet part lies within the thickness under its skin. A boss, standoff, rib or
// pressed-in hardware modelled into the solid sticks out of that slab: the part is not a plain sheet.
import type { PlaneSurface, Solid, Vec3 } from '../geometry/model.ts';
import { basisOf, dot, norm, point, sub, scale } from '../geometry/vec.ts';
import { angleOn, type Unfolding } from './unfold.ts';

/** Slack around the slab, mm. */
export const SLAB_TOLERANCE = 1e-2;

interface PlaneSlab { kind: 'plane'; n: Vec3; d: number; e1: Vec3; e2: Vec3; lo: [number, number]; hi: [number, number] }
interface CylinderSlab { kind: 'cylinder'; face: number; rMin: number; rMax: number; sMin: number; sMax: number; span: number; slack: number }
type Slab = PlaneSlab | CylinderSlab;

export interface OutsidePoint { point: Vec3; distance: number }

/** The solid's vertex farthest outside every skin face's thickness slab, or null when all are inside. */
export function pointOutsideSheet(solid: Solid, u: Unfolding): OutsidePoint | null {
  const t = u.thickness, tol = SLAB_TOLERANCE;
  const slabs: Slab[] = [];
  for (const f of u.skin) {
    const face = solid.faces[f];
    const map = u.maps.get(f)!;
    if (face.surface.kind === 'plane') {
      const s = face.surface as PlaneSurface;
      const [e1, e2] = basisOf(s.normal);
      const lo: [number, number] = [Infinity, Infinity], hi: [number, number] = [-Infinity, -Infinity];
      for (const v of face.vertices) {
        const p = point(solid.points, v);
        const x = dot(p, e1), y = dot(p, e2);
        lo[0] = Math.min(lo[0], x); lo[1] = Math.min(lo[1], y); hi[0] = Math.max(hi[0], x); hi[1] = Math.max(hi[1], y);
      }
      const grow = t * 2 + tol;
      slabs.push({ kind: 'plane', n: s.normal, d: s.offset, e1, e2, lo: [lo[0] - grow, lo[1] - grow], hi: [hi[0] + grow, hi[1] + grow] });
    } else if (face.surface.kind === 'cylinder' && map.cylinder) {
      const c = map.cylinder;
      let span = 0, sMin = Infinity, sMax = -Infinity;
      for (const v of face.vertices) {
        const p = point(solid.points, v);
        span = Math.max(span, angleOn(c, p));
        const h = dot(sub(p, c.origin), c.axis);
        sMin = Math.min(sMin, h); sMax = Math.max(sMax, h);
      }
      const convex = face.surface.convex;
      slabs.push({
        kind: 'cylinder', face: f, rMin: (convex ? c.radius - t : c.radius) - tol, rMax: (convex ? c.radius : c.radius + t) + tol,
        sMin: sMin - t - tol, sMax: sMax + t + tol, span, slack: (t + tol) / Math.max(c.radius, t),
      });
    }
  }
  let worst: OutsidePoint | null = null;
  const n = solid.points.length / 3;
  for (let i = 0; i < n; i++) {
    const p = point(solid.points, i);
    let best = Infinity;
    for (const s of slabs) {
      const d = slabDistance(s, p, u, t);
      if (d < best) best = d;
      if (best <= tol) break;
    }
    if (best > tol && (!worst || best > worst.distance)) worst = { point: p, distance: best };
  }
  return worst;
}

/** 0 inside the slab; otherwise how far outside (along the thickness direction when in the footprint). */
function slabDistance(s: Slab, p: Vec3, u: Unfolding, t: number): number {
  if (s.kind === 'plane') {
    const x = dot(p, s.e1), y = dot(p, s.e2);
    if (x < s.lo[0] || x > s.hi[0] || y < s.lo[1] || y > s.hi[1]) return Infinity;
    const h = dot(p, s.n) - s.d;
    return h > 0 ? h : h < -t ? -t - h : 0;
  }
  const c = u.maps.get(s.face)!.cylinder!;
  const d = sub(p, c.origin);
  const h = dot(d, c.axis);
  if (h < s.sMin || h > s.sMax) return Infinity;
  const phi = angleOn(c, p);
  if (phi > s.span + s.slack && phi < 2 * Math.PI - s.slack) return Infinity;
  const r = norm(sub(d, scale(c.axis, h)));
  return r < s.rMin ? s.rMin - r : r > s.rMax ? r - s.rMax : 0;
}
