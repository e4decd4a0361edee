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

/** Crossing points of one section, keyed by the mesh edge (lo < hi vertex) they lie on: an
 * open-addressed table over typed arrays, since a section visits a few hundred edges and Map entries
 * of objects cost more than the walk itself. Slots are numbered in order of first sight. */
export class EdgeCrossings {
  private readonly table: Int32Array;
  private mask = 0;
  size = 0;
  readonly lo: Int32Array; readonly hi: Int32Array;
  readonly x: Float64Array; readonly y: Float64Array;
  /** per slot: the slot the section continues to from this edge (-1: none yet), and its B-rep face */
  readonly to: Int32Array; readonly face: Int32Array;
  /** room for up to `capacity` edges per section; one table serves every section of an axis */
  constructor(readonly capacity: number) {
    this.table = new Int32Array(EdgeCrossings.tableSize(capacity));
    this.lo = new Int32Array(capacity); this.hi = new Int32Array(capacity);
    this.x = new Float64Array(capacity); this.y = new Float64Array(capacity);
    this.to = new Int32Array(capacity); this.face = new Int32Array(capacity);
  }
  private static tableSize(capacity: number): number {
    let size = 4;
    while (size < 2 * capacity) size *= 2;
    return size;
  }
  /** empties the table for a section of at most `capacity` edges */
  reset(capacity: number): void {
    if (capacity > this.capacity) throw new Error(`a section of ${capacity} edges in a table for ${this.capacity}`);
    const size = EdgeCrossings.tableSize(capacity);
    this.table.fill(-1, 0, size);
    this.mask = size - 1;
    this.size = 0;
  }
  private hash(lo: number, hi: number): number { return (Math.imul(lo, 0x9e3779b1) ^ Math.imul(hi, 0x85ebca77)) & this.mask; }
  /** slot of edge (lo, hi), or -1 */
  find(lo: number, hi: number): number {
    for (let h = this.hash(lo, hi); ; h = (h + 1) & this.mask) {
      const k = this.table[h];
      if (k < 0 || (this.lo[k] === lo && this.hi[k] === hi)) return k;
    }
  }
  /** new slot for an edge find() did not find */
  add(lo: number, hi: number, x: number, y: number): number {
    const k = this.size++;
    this.lo[k] = lo; this.hi[k] = hi; this.x[k] = x; this.y[k] = y; this.to[k] = -1;
    let h = this.hash(lo, hi);
    while (this.table[h] >= 0) h = (h + 1) & this.mask;
    this.table[h] = k;
    return k;
  }
}

/** Triangles that each plane d.p = xs[k] crosses (vertices on both sides), in mesh order; xs
 * ascending, `along` = projectAlong(solid, d). One pass over the mesh serves every section of an
 * axis. A vertex is on the far side when along - x > 0, which for doubles is along > x. */
export function crossedTriangles(solid: Solid, along: Float64Array, xs: readonly number[]): number[][] {
  const T = solid.triangles, out = xs.map(() => [] as number[]);
  for (let t = 0; t < T.length / 3; t++) {
    const a = along[T[t * 3]], b = along[T[t * 3 + 1]], c = along[T[t * 3 + 2]];
    // a NaN is on no plane's far side, like -Infinity
    const hi = Math.max(a > -Infinity ? a : -Infinity, b > -Infinity ? b : -Infinity, c > -Infinity ? c : -Infinity);
    const lo = a > -Infinity && b > -Infinity && c > -Infinity ? Math.min(a, b, c) : -Infinity;
    // crossed by x when some vertex is beyond it (hi > x) and some is not (lo <= x)
    let k0 = 0, k1 = xs.length;
    while (k0 < k1) { const m = (k0 + k1) >> 1; if (xs[m] < lo) k0 = m + 1; else k1 = m; }
    for (let k = k0; k < xs.length && xs[k] < hi; k++) out[k].push(t);
  }
  return out;
}

/** Section of the mesh by the plane d.p = x (`along`: precomputed projectAlong(solid, d)). Loops that cannot be closed (open mesh) are dropped
 * and reported through `broken`. */
export function sliceMesh(solid: Solid, faceOfTri: Int32Array, d: Vec3, u: Vec3, v: Vec3, x: number, along = projectAlong(solid, d)): { loops: SectionLoop[]; broken: boolean } {
  return sliceCrossed(solid, faceOfTri, u, v, x, along, crossedTriangles(solid, along, [x])[0]);
}

/** Each crossed triangle brings at most two edges not seen before. */
export function edgesOfSection(crossed: readonly number[]): number { return 2 * crossed.length; }

/** Slot of the section's crossing on edge a-b, computed from a's side the first time the edge is
 * seen (a function of its own, not a closure per section). */
function crossing(edges: EdgeCrossings, P: Float64Array, along: Float64Array, x: number, u: Vec3, v: Vec3, a: number, b: number): number {
  const lo = a < b ? a : b, hi = a < b ? b : a;
  const k = edges.find(lo, hi);
  if (k >= 0) return k;
  const sa = along[a] - x, sb = along[b] - x;
  const t = sa / (sa - sb);
  const px = P[a * 3] + t * (P[b * 3] - P[a * 3]), py = P[a * 3 + 1] + t * (P[b * 3 + 1] - P[a * 3 + 1]), pz = P[a * 3 + 2] + t * (P[b * 3 + 2] - P[a * 3 + 2]);
  return edges.add(lo, hi, u[0] * px + u[1] * py + u[2] * pz, v[0] * px + v[1] * py + v[2] * pz);
}

/** sliceMesh from the triangles the plane crosses (crossedTriangles), which alone decide the
 * section; `edges` is a table with room for edgesOfSection(crossed), reused across sections. */
export function sliceCrossed(solid: Solid, faceOfTri: Int32Array, u: Vec3, v: Vec3, x: number, along: Float64Array, crossed: readonly number[], edges = new EdgeCrossings(edgesOfSection(crossed))): { loops: SectionLoop[]; broken: boolean } {
  const P = solid.points, T = solid.triangles;
  edges.reset(edgesOfSection(crossed));
  // directed segment: from the entry edge to the exit edge of each crossed triangle, oriented so
  // that loops run consistently (outward winding of the mesh gives it); `starts` keeps the entry
  // edges in order of first sight, which fixes where each loop starts
  const starts: number[] = [];
  for (const t of crossed) {
    const a = T[t * 3], b = T[t * 3 + 1], c = T[t * 3 + 2];
    const sa = along[a] - x > 0, sb = along[b] - x > 0, sc = along[c] - x > 0;
    // the lone vertex and the edges leaving it, in winding order
    const lone = sa !== sb && sa !== sc ? a : sb !== sa && sb !== sc ? b : c;
    const p = lone === a ? b : lone === b ? c : a, q = lone === a ? c : lone === b ? a : b;
    const k1 = crossing(edges, P, along, x, u, v, lone, p), k2 = crossing(edges, P, along, x, u, v, q, lone);
    const far = along[lone] - x > 0;
    const from = far ? k2 : k1, to = far ? k1 : k2;
    if (edges.to[from] < 0) starts.push(from);
    edges.to[from] = to;
    edges.face[from] = faceOfTri[t];
  }
  const loops: SectionLoop[] = [];
  const used = new Uint8Array(edges.size);
  let broken = false;
  for (const start of starts) {
    if (used[start]) continue;
    const points: Vec2[] = [], faces: number[] = [];
    let k = start, closed = false;
    while (!used[k]) {
      used[k] = 1;
      if (edges.to[k] < 0) break;
      points.push([edges.x[k], edges.y[k]]);
      faces.push(edges.face[k]);
      k = edges.to[k];
      if (k === start) { closed = true; break; }
    }
    if (!closed) { broken = true; continue; }
    let area = 0;
    for (let i = 0; i < points.length; i++) {
      const p0 = points[i], p1 = points[(i + 1) % points.length];
      area += (p0[0] * p1[1] - p1[0] * p0[1]) / 2;
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
