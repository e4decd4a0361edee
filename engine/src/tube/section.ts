// Plane sections of a closed triangle mesh, chained into loops that remember the B-rep face each
// piece came from. Crossing points are keyed by the mesh edge they lie on, so chaining is exact
// (no distance tolerance) on a closed, welded mesh.
import type { Solid, Vec2, Vec3 } from '../geometry/model.ts';

export interface SectionLoop {
  /** points in the (u, v) plane coordinates, mm */
  points: Vec2[];
  /** B-rep face of the segment from points[i] to points[i + 1] */
  faces: number[];
  /** signed area in (u, v), mm2 (positive = counter-clockwise) */
  area: number;
}

/** Face id of every triangle. */
export function faceOfTriangles(solid: Solid): Int32Array {
  const out = new Int32Array(solid.triangles.length / 3).fill(-1);
  for (const f of solid.faces) for (const t of f.triangles) out[t] = f.id;
  return out;
}

/** Every point's coordinate along d (shared by all sections across one axis). */
export function projectAlong(solid: Solid, d: Vec3): Float64Array {
  const P = solid.points, out = new Float64Array(P.length / 3);
  for (let i = 0; i < out.length; i++) out[i] = d[0] * P[i * 3] + d[1] * P[i * 3 + 1] + d[2] * P[i * 3 + 2];
  return out;
}

/** Section of the mesh by the plane d.p = x (`along`: precomputed projectAlong(solid, d)). Loops that cannot be closed (open mesh) are dropped
 * and reported through `broken`. */
export function sliceMesh(solid: Solid, faceOfTri: Int32Array, d: Vec3, u: Vec3, v: Vec3, x: number, along?: Float64Array): { loops: SectionLoop[]; broken: boolean } {
  const P = solid.points, T = solid.triangles;
  const n = P.length / 3;
  const side = new Int8Array(n);
  const s = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    s[i] = (along ? along[i] : d[0] * P[i * 3] + d[1] * P[i * 3 + 1] + d[2] * P[i * 3 + 2]) - x;
    side[i] = s[i] > 0 ? 1 : 0;
  }
  const key = (a: number, b: number) => (a < b ? a * n + b : b * n + a);
  const crossing = (a: number, b: number): Vec2 => {
    const t = s[a] / (s[a] - s[b]);
    const px = P[a * 3] + t * (P[b * 3] - P[a * 3]), py = P[a * 3 + 1] + t * (P[b * 3 + 1] - P[a * 3 + 1]), pz = P[a * 3 + 2] + t * (P[b * 3 + 2] - P[a * 3 + 2]);
    return [u[0] * px + u[1] * py + u[2] * pz, v[0] * px + v[1] * py + v[2] * pz];
  };
  // directed segment: from the entry edge to the exit edge of each crossed triangle, oriented so
  // that loops run consistently (outward winding of the mesh gives it)
  const next = new Map<number, { to: number; face: number }>();
  const where = new Map<number, Vec2>();
  for (let t = 0; t < T.length / 3; t++) {
    const a = T[t * 3], b = T[t * 3 + 1], c = T[t * 3 + 2];
    const sa = side[a], sb = side[b], sc = side[c];
    if (sa === sb && sb === sc) continue;
    // the lone vertex and the edges leaving it, in winding order
    const [lone, p, q] = sa !== sb && sa !== sc ? [a, b, c] : sb !== sa && sb !== sc ? [b, c, a] : [c, a, b];
    const k1 = key(lone, p), k2 = key(q, lone);
    if (!where.has(k1)) where.set(k1, crossing(lone, p));
    if (!where.has(k2)) where.set(k2, crossing(q, lone));
    if (side[lone] === 1) next.set(k2, { to: k1, face: faceOfTri[t] });
    else next.set(k1, { to: k2, face: faceOfTri[t] });
  }
  const loops: SectionLoop[] = [];
  const used = new Set<number>();
  let broken = false;
  for (const start of next.keys()) {
    if (used.has(start)) continue;
    const points: Vec2[] = [], faces: number[] = [];
    let k = start, closed = false;
    while (!used.has(k)) {
      used.add(k);
      const step = next.get(k);
      if (!step) break;
      points.push(where.get(k)!);
      faces.push(step.face);
      k = step.to;
      if (k === start) { closed = true; break; }
    }
    if (!closed) { broken = true; continue; }
    let area = 0;
    for (let i = 0; i < points.length; i++) {
      const [x0, y0] = points[i], [x1, y1] = points[(i + 1) % points.length];
      area += (x0 * y1 - x1 * y0) / 2;
    }
    loops.push({ points, faces, area });
  }
  return { loops, broken };
}

export function pointInPolygon(p: Vec2, poly: Vec2[]): boolean {
  let inside = false;
  for (let i = 0, j = poly.length - 1; i < poly.length; j = i++) {
    const [xi, yi] = poly[i], [xj, yj] = poly[j];
    if (yi > p[1] !== yj > p[1] && p[0] < ((xj - xi) * (p[1] - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

export type StationKind = 'annulus' | 'solid' | 'other';

/** Classifies a section: one loop inside another (hollow ring), one simple loop, or anything else. */
export function classifySection(loops: SectionLoop[]): { kind: StationKind; outer?: SectionLoop; inner?: SectionLoop } {
  if (loops.length === 1) return { kind: 'solid', outer: loops[0] };
  if (loops.length === 2) {
    const [a, b] = Math.abs(loops[0].area) >= Math.abs(loops[1].area) ? [loops[0], loops[1]] : [loops[1], loops[0]];
    if (pointInPolygon(b.points[0], a.points)) return { kind: 'annulus', outer: a, inner: b };
  }
  return { kind: 'other' };
}
