// ImportedSolid -> Solid: welded vertices, outward winding, faces with fitted surfaces, boundary
// loops, shared edges and neighbours. Everything is exact (bitwise-equal shared vertices), so no
// adjacency tolerance exists.
import type { ImportedSolid, Solid, Face, Edge, Vec3 } from './model.ts';
import { weldExact, type Welded } from './weld.ts';
import { HalfEdges } from './half-edges.ts';
import { fitSurface, refitTangentCylinder, strictFitTolerance, type FaceSample, type Facets } from './fit.ts';
import type { PlaneSurface, CylinderSurface } from './model.ts';
import { sub, norm, point, hypot3 } from './vec.ts';

/** Signed volume and area of a triangle mesh (float64). */
function meshMeasures(points: Float64Array, triangles: Uint32Array): { volume: number; area: number } {
  let volume = 0, area = 0;
  for (let t = 0; t < triangles.length; t += 3) {
    const ia = 3 * triangles[t], ib = 3 * triangles[t + 1], ic = 3 * triangles[t + 2];
    const a0 = points[ia], a1 = points[ia + 1], a2 = points[ia + 2];
    const b0 = points[ib], b1 = points[ib + 1], b2 = points[ib + 2];
    const c0 = points[ic], c1 = points[ic + 1], c2 = points[ic + 2];
    // norm(cross(b - a, c - a)) on scalars: the same operations in the same order
    const u0 = b0 - a0, u1 = b1 - a1, u2 = b2 - a2, w0 = c0 - a0, w1 = c1 - a1, w2 = c2 - a2;
    area += hypot3(u1 * w2 - u2 * w1, u2 * w0 - u0 * w2, u0 * w1 - u1 * w0) / 2;
    volume += (a0 * (b1 * c2 - b2 * c1) - a1 * (b0 * c2 - b2 * c0) + a2 * (b0 * c1 - b1 * c0)) / 6;
  }
  return { volume, area };
}

export function buildSolid(imported: ImportedSolid, index: number): Solid {
  return buildWelded(imported, index, weldExact(imported.positions));
}

function buildWelded(imported: ImportedSolid, index: number, welded: Welded, accuracyMm: number | null = null): Solid {
  const { points, remap } = welded;
  const triangles = new Uint32Array(imported.indices.length);
  for (let i = 0; i < triangles.length; i++) triangles[i] = remap[imported.indices[i]];
  let { volume, area } = meshMeasures(points, triangles);
  if (volume < 0) {
    for (let t = 0; t < triangles.length; t += 3) { const s = triangles[t + 1]; triangles[t + 1] = triangles[t + 2]; triangles[t + 2] = s; }
    volume = -volume;
  }
  const triCount = triangles.length / 3;
  const faceOfTri = new Int32Array(triCount).fill(-1);
  imported.faceRanges.forEach((r, f) => { for (let t = r.first; t <= r.last && t < triCount; t++) faceOfTri[t] = f; });

  // Half-edge a->b -> triangle; the twin b->a lives in the neighbouring triangle.
  const halfEdge = new HalfEdges(triangles.length);
  for (let t = 0; t < triCount; t++) {
    for (let k = 0; k < 3; k++) {
      const a = triangles[t * 3 + k], b = triangles[t * 3 + ((k + 1) % 3)];
      if (a !== b) halfEdge.set(a, b, t);
    }
  }
  // the vertices of the face being walked: marked with its id (-1: none yet)
  const faceMark = new Int32Array(points.length / 3).fill(-1);

  const bbox = { min: [Infinity, Infinity, Infinity] as Vec3, max: [-Infinity, -Infinity, -Infinity] as Vec3 };
  for (let i = 0; i < points.length; i += 3) {
    for (let k = 0; k < 3; k++) { bbox.min[k] = Math.min(bbox.min[k], points[i + k]); bbox.max[k] = Math.max(bbox.max[k], points[i + k]); }
  }
  const modelSize = norm(sub(bbox.max, bbox.min));

  const faces: Face[] = [];
  const edges: Edge[] = [];
  const residuals: number[] = [];
  const strict = strictFitTolerance(modelSize);
  // cylinders fitted loosely (every vertex on loose edges): refitted against their tangent planes below
  const looseCylinders: Array<{ f: number; sample: FaceSample }> = [];
  for (let f = 0; f < imported.faceRanges.length; f++) {
    const r = imported.faceRanges[f];
    const tris: number[] = [];
    for (let t = r.first; t <= r.last && t < triCount; t++) tris.push(t);
    const faceVertices: number[] = [];
    const capacity = Math.max(0, Math.min(r.last, triCount - 1) - r.first + 1);
    const facets: Facets = { count: 0, normals: new Float64Array(3 * capacity), areas: new Float64Array(capacity), centroids: new Float64Array(3 * capacity) };
    let faceArea = 0;
    // boundary half-edges of the face: next vertex and the face across
    const next = new Map<number, Array<{ to: number; across: number }>>();
    for (const t of tris) {
      const ia = triangles[t * 3], ib = triangles[t * 3 + 1], ic = triangles[t * 3 + 2];
      if (faceMark[ia] !== f) { faceMark[ia] = f; faceVertices.push(ia); }
      if (faceMark[ib] !== f) { faceMark[ib] = f; faceVertices.push(ib); }
      if (faceMark[ic] !== f) { faceMark[ic] = f; faceVertices.push(ic); }
      // cross(b - a, c - a), its norm and scale(n, 1 / len) on scalars, in the same order
      const a0 = points[3 * ia], a1 = points[3 * ia + 1], a2 = points[3 * ia + 2];
      const b0 = points[3 * ib], b1 = points[3 * ib + 1], b2 = points[3 * ib + 2];
      const c0 = points[3 * ic], c1 = points[3 * ic + 1], c2 = points[3 * ic + 2];
      const u0 = b0 - a0, u1 = b1 - a1, u2 = b2 - a2, w0 = c0 - a0, w1 = c1 - a1, w2 = c2 - a2;
      const n0 = u1 * w2 - u2 * w1, n1 = u2 * w0 - u0 * w2, n2 = u0 * w1 - u1 * w0;
      const len = hypot3(n0, n1, n2);
      faceArea += len / 2;
      if (len > 0) {
        const k = 1 / len, i = facets.count++;
        facets.normals[3 * i] = n0 * k; facets.normals[3 * i + 1] = n1 * k; facets.normals[3 * i + 2] = n2 * k;
        facets.areas[i] = len / 2;
        facets.centroids[3 * i] = (a0 + b0 + c0) / 3; facets.centroids[3 * i + 1] = (a1 + b1 + c1) / 3; facets.centroids[3 * i + 2] = (a2 + b2 + c2) / 3;
      }
      for (let k = 0; k < 3; k++) {
        const u = triangles[t * 3 + k], v = triangles[t * 3 + ((k + 1) % 3)];
        if (u === v) continue;
        const twin = halfEdge.get(v, u);
        const across = twin < 0 ? -1 : faceOfTri[twin];
        if (across === f) continue;
        let list = next.get(u);
        if (!list) next.set(u, (list = []));
        list.push({ to: v, across });
      }
    }
    const loops: number[][] = [];
    const loopAcross: number[][] = [];
    for (const start of [...next.keys()].sort((x, y) => x - y)) {
      while ((next.get(start)?.length ?? 0) > 0) {
        const loop: number[] = [];
        const across: number[] = [];
        let v = start;
        for (let guard = 0; guard <= faceVertices.length + 1; guard++) {
          const out = next.get(v);
          if (!out || out.length === 0) break;
          const step = out.shift()!;
          loop.push(v);
          across.push(step.across);
          v = step.to;
          if (v === start) break;
        }
        loops.push(loop);
        loopAcross.push(across);
      }
    }
    // Shared edges: maximal runs of a loop whose half-edges border the same other face.
    const neighbours = new Set<number>();
    loops.forEach((loop, li) => {
      const across = loopAcross[li];
      const n = loop.length;
      let startAt = 0;
      // start the walk where the neighbour changes, so no run wraps around the loop's start
      for (let i = 0; i < n; i++) if (across[i] !== across[(i + n - 1) % n]) { startAt = i; break; }
      let i = 0;
      while (i < n) {
        const g = across[(startAt + i) % n];
        const verts = [loop[(startAt + i) % n]];
        while (i < n && across[(startAt + i) % n] === g) { i++; verts.push(loop[(startAt + i) % n]); }
        if (g >= 0) {
          neighbours.add(g);
          if (f < g) edges.push({ faces: [f, g], vertices: verts });
        }
      }
    });
    // a typed array sorts numerically
    const vertices = Uint32Array.from(faceVertices).sort();
    const facePoints = new Float64Array(vertices.length * 3);
    vertices.forEach((v, i) => { facePoints[i * 3] = points[v * 3]; facePoints[i * 3 + 1] = points[v * 3 + 1]; facePoints[i * 3 + 2] = points[v * 3 + 2]; });
    const sample: FaceSample = { points: facePoints, facets, loops: loops.map((l) => l.map((v) => point(points, v))), modelSize, ...(accuracyMm !== null ? { accuracyMm } : {}) };
    const { surface, residual } = fitSurface(sample);
    residuals.push(residual);
    if (surface.kind === 'cylinder' && residual > strict) looseCylinders.push({ f, sample });
    faces.push({ id: f, surface, area: faceArea, triangles: new Uint32Array(tris), vertices, loops, neighbours: [...neighbours].sort((x, y) => x - y) });
  }
  for (const { f, sample } of looseCylinders) {
    const planes = faces[f].neighbours.filter((g) => faces[g].surface.kind === 'plane' && residuals[g] <= strict).map((g) => faces[g].surface as PlaneSurface);
    const refit = refitTangentCylinder(sample, faces[f].surface as CylinderSurface, planes);
    if (refit) faces[f].surface = refit.surface;
  }
  return { index, name: imported.name, points, triangles, faces, edges, volume, area, bbox, ...(imported.openEdges ? { openEdges: imported.openEdges } : {}) };
}

/** A twin's vertices must lie this close to the moved original's, mm (plus TWIN_RELATIVE x model size):
 * occt-import-js places every instance of a product by one rigid motion, so they agree to float noise. */
const TWIN_TOLERANCE_MM = 1e-6;
const TWIN_RELATIVE = 1e-9;

type Motion = { r: number[]; t: Vec3 };

/** Orthonormal frame of three points (x along a->b, z normal to the triangle), or null when collinear. */
function frameOf(p: Float64Array, ia: number, ib: number, ic: number): number[] | null {
  const a = point(p, ia), b = point(p, ib), c = point(p, ic);
  const x = sub(b, a), y0 = sub(c, a);
  const lx = norm(x);
  if (!(lx > 0)) return null;
  const ex: Vec3 = [x[0] / lx, x[1] / lx, x[2] / lx];
  const z: Vec3 = [ex[1] * y0[2] - ex[2] * y0[1], ex[2] * y0[0] - ex[0] * y0[2], ex[0] * y0[1] - ex[1] * y0[0]];
  const lz = norm(z);
  if (!(lz > 1e-9 * lx)) return null;
  const ez: Vec3 = [z[0] / lz, z[1] / lz, z[2] / lz];
  const ey: Vec3 = [ez[1] * ex[2] - ez[2] * ex[1], ez[2] * ex[0] - ez[0] * ex[2], ez[0] * ex[1] - ez[1] * ex[0]];
  return [...ex, ...ey, ...ez]; // rows
}

const move = (m: Motion, v: Vec3): Vec3 => [m.r[0] * v[0] + m.r[1] * v[1] + m.r[2] * v[2] + m.t[0], m.r[3] * v[0] + m.r[4] * v[1] + m.r[5] * v[2] + m.t[1], m.r[6] * v[0] + m.r[7] * v[1] + m.r[8] * v[2] + m.t[2]];
const turn = (m: Motion, v: Vec3): Vec3 => [m.r[0] * v[0] + m.r[1] * v[1] + m.r[2] * v[2], m.r[3] * v[0] + m.r[4] * v[1] + m.r[5] * v[2], m.r[6] * v[0] + m.r[7] * v[1] + m.r[8] * v[2]];

/** The proper rigid motion taking `from`'s welded points onto `to`'s, when every point agrees; else null. */
function twinMotion(from: Solid, to: Float64Array): Motion | null {
  const p = from.points, n = p.length / 3;
  if (to.length !== p.length || n < 3) return null;
  // three well-spread vertices: the first, the farthest from it, the farthest from their line
  let ib = 0, best = -1;
  for (let i = 1; i < n; i++) { const d = (p[3 * i] - p[0]) ** 2 + (p[3 * i + 1] - p[1]) ** 2 + (p[3 * i + 2] - p[2]) ** 2; if (d > best) { best = d; ib = i; } }
  const ab = sub(point(p, ib), point(p, 0));
  let ic = 0; best = -1;
  for (let i = 1; i < n; i++) { const c = sub(point(p, i), point(p, 0)); const d = norm([ab[1] * c[2] - ab[2] * c[1], ab[2] * c[0] - ab[0] * c[2], ab[0] * c[1] - ab[1] * c[0]]); if (d > best) { best = d; ic = i; } }
  const f = frameOf(p, 0, ib, ic), g = frameOf(to, 0, ib, ic);
  if (!f || !g) return null;
  // R = G^T F (columns of G times rows of F)
  const r = [0, 1, 2].flatMap((i) => [0, 1, 2].map((j) => g[i] * f[j] + g[3 + i] * f[3 + j] + g[6 + i] * f[6 + j]));
  const a0 = point(p, 0), b0 = point(to, 0);
  const ra = turn({ r, t: [0, 0, 0] }, a0);
  const m: Motion = { r, t: [b0[0] - ra[0], b0[1] - ra[1], b0[2] - ra[2]] };
  const tol = TWIN_TOLERANCE_MM + TWIN_RELATIVE * norm(sub(from.bbox.max, from.bbox.min));
  for (let i = 0; i < n; i++) {
    const q = move(m, point(p, i));
    if (Math.abs(q[0] - to[3 * i]) > tol || Math.abs(q[1] - to[3 * i + 1]) > tol || Math.abs(q[2] - to[3 * i + 2]) > tol) return null;
  }
  return m;
}

function sameArray(a: ArrayLike<number>, b: ArrayLike<number>): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * Solids of an import, where an instance of a product already built is that solid moved (its
 * topology shared, its surfaces moved) instead of re-fitted face by face: occt-import-js writes every
 * instance with the same triangles and face ranges, its vertices placed by one rigid motion. A body
 * that is not such a twin (other triangles, a mirror, vertices off the motion) is built on its own.
 */
export interface BuildOptions {
  /** the distance accuracy the file declares, mm: vertices on edges may lie this far off their faces */
  accuracyMm?: number | null;
}

export function buildSolids(imported: ImportedSolid[], opts: BuildOptions = {}): Solid[] {
  const out: Solid[] = [];
  const built: Array<{ imported: ImportedSolid; solid: Solid; remap: Uint32Array }> = [];
  imported.forEach((im, index) => {
    const welded = weldExact(im.positions);
    const { points, remap } = welded;
    for (const b of built) {
      if (b.imported.indices.length !== im.indices.length || b.imported.faceRanges.length !== im.faceRanges.length || !sameArray(b.remap, remap)) continue;
      if (!sameArray(b.imported.indices, im.indices) || !im.faceRanges.every((r, i) => r.first === b.imported.faceRanges[i].first && r.last === b.imported.faceRanges[i].last)) continue;
      const m = twinMotion(b.solid, points);
      if (!m) continue;
      out.push(movedSolid(b.solid, m, points, index, im));
      return;
    }
    const solid = buildWelded(im, index, welded, opts.accuracyMm ?? null);
    built.push({ imported: im, solid, remap });
    out.push(solid);
  });
  return out;
}

function movedSolid(s: Solid, m: Motion, points: Float64Array, index: number, im: ImportedSolid): Solid {
  const faces: Face[] = s.faces.map((f) => {
    const su = f.surface;
    let surface = su;
    if (su.kind === 'plane') { const normal = turn(m, su.normal); surface = { ...su, normal, offset: su.offset + normal[0] * m.t[0] + normal[1] * m.t[1] + normal[2] * m.t[2] }; }
    else if (su.kind === 'cylinder') surface = { ...su, axis: turn(m, su.axis), origin: move(m, su.origin) };
    else if (su.kind === 'cone') surface = { ...su, axis: turn(m, su.axis), apex: move(m, su.apex) };
    return { ...f, surface };
  });
  const bbox = { min: [Infinity, Infinity, Infinity] as Vec3, max: [-Infinity, -Infinity, -Infinity] as Vec3 };
  for (let i = 0; i < points.length; i += 3) for (let k = 0; k < 3; k++) { bbox.min[k] = Math.min(bbox.min[k], points[i + k]); bbox.max[k] = Math.max(bbox.max[k], points[i + k]); }
  const { openEdges: _ignored, ...shared } = s;
  return { ...shared, index, name: im.name, points, faces, bbox, ...(im.openEdges ? { openEdges: im.openEdges } : {}) };
}
