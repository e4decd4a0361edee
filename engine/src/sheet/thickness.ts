// Sheet thickness: the most common distance between opposite, facing-away parallel planar faces that
// overlap in projection (weighted by the overlapping area).
import type { Face, PlaneSurface, Solid, Vec3 } from '../geometry/model.ts';
import { basisOf, dot, point } from '../geometry/vec.ts';

/** Normals this close to opposite count as anti-parallel (cosine slack, ~0.01 degree). */
const ANTIPARALLEL_COS = 1 - 1.5e-8;
/** Distances within this are one thickness, mm. */
export const THICKNESS_TOLERANCE = 1e-3;

export interface PlanePair { a: number; b: number; distance: number; overlap: number }

export interface ThicknessResult {
  thickness: number;
  /** every overlapping anti-parallel pair, both directions listed once (a < b) */
  pairs: PlanePair[];
}

/** Overlap weights within this fraction are a tie. */
const TIE_RELATIVE = 1e-6;
/** Slack when comparing the projected boxes of two opposite faces, mm. */
const BOX_SLACK = 1e-3;

type Tri2 = [number, number, number, number, number, number];

interface Projected {
  face: Face; plane: PlaneSurface; e1: Vec3; e2: Vec3; tris: Tri2[]; centroids: Array<[number, number, number]>; min: [number, number]; max: [number, number];
  /** built on first use: most faces never meet an opposite one */
  grid?: TriangleGrid;
}

function project(solid: Solid, face: Face, plane: PlaneSurface): Projected {
  // one basis per direction (not per normal sign), so opposite faces share it and their boxes compare
  const n = plane.normal;
  const k = Math.abs(n[0]) > 1e-6 ? 0 : Math.abs(n[1]) > 1e-6 ? 1 : 2;
  const [e1, e2] = basisOf(n[k] < 0 ? [-n[0], -n[1], -n[2]] : n);
  const tris: Tri2[] = [];
  const centroids: Array<[number, number, number]> = [];
  const min: [number, number] = [Infinity, Infinity], max: [number, number] = [-Infinity, -Infinity];
  for (const t of face.triangles) {
    const q: number[] = [];
    for (let k = 0; k < 3; k++) {
      // dot(point, e1) and dot(point, e2) on scalars: no array per vertex of every planar face
      const v = 3 * solid.triangles[t * 3 + k], P = solid.points;
      const x = P[v] * e1[0] + P[v + 1] * e1[1] + P[v + 2] * e1[2], y = P[v] * e2[0] + P[v + 1] * e2[1] + P[v + 2] * e2[2];
      q.push(x, y);
      min[0] = Math.min(min[0], x); min[1] = Math.min(min[1], y); max[0] = Math.max(max[0], x); max[1] = Math.max(max[1], y);
    }
    tris.push(q as Tri2);
    const area = Math.abs((q[2] - q[0]) * (q[5] - q[1]) - (q[4] - q[0]) * (q[3] - q[1])) / 2;
    centroids.push([(q[0] + q[2] + q[4]) / 3, (q[1] + q[3] + q[5]) / 3, area]);
  }
  return { face, plane, e1, e2, tris, centroids, min, max };
}

function inTriangle(x: number, y: number, t: Tri2): boolean {
  const d1 = (x - t[2]) * (t[1] - t[3]) - (t[0] - t[2]) * (y - t[3]);
  const d2 = (x - t[4]) * (t[3] - t[5]) - (t[2] - t[4]) * (y - t[5]);
  const d3 = (x - t[0]) * (t[5] - t[1]) - (t[4] - t[0]) * (y - t[1]);
  // points on an edge count as inside (a centroid can sit exactly on the other face's diagonal)
  const tol = 1e-9 * Math.abs((t[2] - t[0]) * (t[5] - t[1]) - (t[4] - t[0]) * (t[3] - t[1]));
  const neg = d1 < -tol || d2 < -tol || d3 < -tol, pos = d1 > tol || d2 > tol || d3 > tol;
  return !(neg && pos);
}

/** Cells per side of a face's triangle grid, per triangle: about one triangle per cell. */
const GRID_CELLS_PER_TRIANGLE = 1;
/** A triangle is listed in every cell its box touches, widened by this share of the face's box (plus
 * this floor, mm): inTriangle accepts points a hair outside an edge (its relative tolerance above). */
const GRID_SLACK_SHARE = 1e-6, GRID_SLACK_MIN = 1e-9;

interface TriangleGrid { nx: number; ny: number; x0: number; y0: number; sx: number; sy: number; cells: number[][] }

/** Buckets a face's projected triangles by box, so a point is tested only against the few triangles
 * near it (the answer is the same as testing all of them: a point inside a triangle lies in its box). */
function gridOf(a: Projected): TriangleGrid {
  const side = Math.max(1, Math.round(Math.sqrt(a.tris.length * GRID_CELLS_PER_TRIANGLE)));
  const w = a.max[0] - a.min[0], h = a.max[1] - a.min[1];
  const nx = w > 0 ? side : 1, ny = h > 0 ? side : 1;
  const sx = w > 0 ? w / nx : 1, sy = h > 0 ? h / ny : 1;
  const slack = GRID_SLACK_SHARE * Math.max(w, h) + GRID_SLACK_MIN;
  const cells: number[][] = Array.from({ length: nx * ny }, () => []);
  const cell = (v: number, v0: number, s: number, n: number) => Math.min(n - 1, Math.max(0, Math.floor((v - v0) / s)));
  a.tris.forEach((t, i) => {
    const i0 = cell(Math.min(t[0], t[2], t[4]) - slack, a.min[0], sx, nx), i1 = cell(Math.max(t[0], t[2], t[4]) + slack, a.min[0], sx, nx);
    const j0 = cell(Math.min(t[1], t[3], t[5]) - slack, a.min[1], sy, ny), j1 = cell(Math.max(t[1], t[3], t[5]) + slack, a.min[1], sy, ny);
    for (let j = j0; j <= j1; j++) for (let k = i0; k <= i1; k++) cells[j * nx + k].push(i);
  });
  return { nx, ny, x0: a.min[0], y0: a.min[1], sx, sy, cells };
}

/** Area of b whose triangle centroids fall on a, both projected along a's normal. */
function overlapArea(a: Projected, b: Projected): number {
  // b's basis differs (opposite normal): re-project b's centroids into a's basis via 3D
  let area = 0;
  const bx = b.e1, by = b.e2, off = b.plane.offset;
  const n = b.plane.normal;
  const g = (a.grid ??= gridOf(a));
  for (const [x, y, w] of b.centroids) {
    const p: Vec3 = [bx[0] * x + by[0] * y + n[0] * off, bx[1] * x + by[1] * y + n[1] * off, bx[2] * x + by[2] * y + n[2] * off];
    const u = dot(p, a.e1), v = dot(p, a.e2);
    if (u < a.min[0] || u > a.max[0] || v < a.min[1] || v > a.max[1]) continue;
    const k = Math.min(g.nx - 1, Math.floor((u - g.x0) / g.sx)), j = Math.min(g.ny - 1, Math.floor((v - g.y0) / g.sy));
    for (const t of g.cells[j * g.nx + k]) if (inTriangle(u, v, a.tris[t])) { area += w; break; }
  }
  return area;
}

export function measureThickness(solid: Solid): ThicknessResult | null {
  const planes = solid.faces.filter((f) => f.surface.kind === 'plane').map((f) => project(solid, f, f.surface as PlaneSurface));
  const pairs: PlanePair[] = [];
  for (let i = 0; i < planes.length; i++) {
    for (let j = i + 1; j < planes.length; j++) {
      const a = planes[i], b = planes[j];
      if (dot(a.plane.normal, b.plane.normal) > -ANTIPARALLEL_COS) continue;
      // facing away from each other with material between: offsets sum to the separation
      const distance = a.plane.offset + b.plane.offset;
      if (!(distance > THICKNESS_TOLERANCE)) continue;
      if (a.max[0] < b.min[0] - BOX_SLACK || b.max[0] < a.min[0] - BOX_SLACK || a.max[1] < b.min[1] - BOX_SLACK || b.max[1] < a.min[1] - BOX_SLACK) continue;
      const overlap = Math.max(overlapArea(a, b), overlapArea(b, a));
      if (overlap > 0) pairs.push({ a: a.face.id, b: b.face.id, distance, overlap });
    }
  }
  if (pairs.length === 0) return null;
  // cluster the distances and pick the cluster with the largest overlapping area
  const sorted = pairs.slice().sort((p, q) => p.distance - q.distance);
  let best = { weight: -1, thickness: 0 };
  for (let i = 0; i < sorted.length;) {
    let j = i, w = 0, wd = 0;
    while (j < sorted.length && sorted[j].distance - sorted[i].distance <= THICKNESS_TOLERANCE) { w += sorted[j].overlap; wd += sorted[j].overlap * sorted[j].distance; j++; }
    // a tie goes to the thicker sheet: what is thinner over as much area is blind work (a milled tray's floor)
    if (w > best.weight * (1 - TIE_RELATIVE) && (w > best.weight * (1 + TIE_RELATIVE) || wd / w > best.thickness + THICKNESS_TOLERANCE)) best = { weight: w, thickness: wd / w };
    i = j;
  }
  return { thickness: best.thickness, pairs };
}

/** Planar faces with an overlapping opposite face at the sheet thickness, each with those opposites. */
export function sheetPlanes(result: ThicknessResult): Map<number, Set<number>> {
  const out = new Map<number, Set<number>>();
  const add = (a: number, b: number) => { if (!out.has(a)) out.set(a, new Set()); out.get(a)!.add(b); };
  for (const p of result.pairs) {
    if (Math.abs(p.distance - result.thickness) <= THICKNESS_TOLERANCE) { add(p.a, p.b); add(p.b, p.a); }
  }
  return out;
}
