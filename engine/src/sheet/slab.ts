// Every point of a sheet part lies within the thickness under its skin. A boss, standoff, rib or
// pressed-in hardware modelled into the solid sticks out of that slab: the part is not a plain sheet.
import type { PlaneSurface, Solid, Vec3 } from '../geometry/model.ts';
import { basisOf, dot, norm, point, sub, scale } from '../geometry/vec.ts';
import { angleOn, type Unfolding } from './unfold.ts';

/** Slack around the slab, mm. */
const SLAB_TOLERANCE = 1e-2;

interface PlaneSlab { kind: 'plane'; n: Vec3; d: number; e1: Vec3; e2: Vec3; lo: [number, number]; hi: [number, number] }
interface CylinderSlab { kind: 'cylinder'; face: number; rMin: number; rMax: number; sMin: number; sMax: number; span: number; slack: number }
type Slab = PlaneSlab | CylinderSlab;

export interface OutsidePoint { point: Vec3; distance: number }

/**
 * Material outside the slab, grouped by the connected non-skin faces that carry it: each group is one
 * modelled feature (extruded hole, louver, lance, emboss, standoff, stud, rib, second wall).
 */
export interface OutsideFeature {
  /** non-skin faces that have a vertex outside the slab, connected through shared edges */
  faces: number[];
  /** the vertex farthest outside, and how far, mm */
  worst: OutsidePoint;
  /** bounding box of the outside vertices, mm */
  min: Vec3;
  max: Vec3;
  /** centroid of the outside vertices, mm */
  center: Vec3;
  /** bounding box of every vertex of the group's faces (a feature is small as a whole, not only its tip), mm */
  faceMin: Vec3;
  faceMax: Vec3;
}

/** Every vertex's distance outside the slab (0 inside), in vertex order. */
function outsideDistances(solid: Solid, u: Unfolding): Float64Array {
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
  const n = solid.points.length / 3;
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const p = point(solid.points, i);
    let best = Infinity;
    for (const s of slabs) {
      const d = slabDistance(s, p, u, t);
      if (d < best) best = d;
      if (best <= tol) break;
    }
    out[i] = best > tol ? best : 0;
  }
  return out;
}

/** Connected groups of non-skin faces carrying material outside the slab, largest first. */
export function featuresOutsideSheet(solid: Solid, u: Unfolding): OutsideFeature[] {
  const dist = outsideDistances(solid, u);
  const carrying = new Set<number>();
  for (const f of solid.faces) {
    if (u.skin.has(f.id)) continue;
    for (const v of f.vertices) if (dist[v] > 0) { carrying.add(f.id); break; }
  }
  const seen = new Set<number>();
  const features: OutsideFeature[] = [];
  for (const start of [...carrying].sort((a, b) => a - b)) {
    if (seen.has(start)) continue;
    const faces: number[] = [];
    const stack = [start];
    seen.add(start);
    while (stack.length > 0) {
      const f = stack.pop()!;
      faces.push(f);
      for (const g of solid.faces[f].neighbours) if (carrying.has(g) && !seen.has(g)) { seen.add(g); stack.push(g); }
    }
    faces.sort((a, b) => a - b);
    const min: Vec3 = [Infinity, Infinity, Infinity], max: Vec3 = [-Infinity, -Infinity, -Infinity], sum: Vec3 = [0, 0, 0];
    let worst: OutsidePoint | null = null, count = 0;
    const visited = new Set<number>();
    for (const f of faces) {
      for (const v of solid.faces[f].vertices) {
        if (dist[v] <= 0 || visited.has(v)) continue;
        visited.add(v);
        const p = point(solid.points, v);
        for (let k = 0; k < 3; k++) { min[k] = Math.min(min[k], p[k]); max[k] = Math.max(max[k], p[k]); sum[k] += p[k]; }
        count++;
        if (!worst || dist[v] > worst.distance) worst = { point: p, distance: dist[v] };
      }
    }
    const faceMin: Vec3 = [Infinity, Infinity, Infinity], faceMax: Vec3 = [-Infinity, -Infinity, -Infinity];
    for (const f of faces) {
      for (const v of solid.faces[f].vertices) {
        const p = point(solid.points, v);
        for (let k = 0; k < 3; k++) { faceMin[k] = Math.min(faceMin[k], p[k]); faceMax[k] = Math.max(faceMax[k], p[k]); }
      }
    }
    features.push({ faces, worst: worst!, min, max, center: scale(sum, 1 / count), faceMin, faceMax });
  }
  return features.sort((a, b) => b.worst.distance - a.worst.distance);
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
