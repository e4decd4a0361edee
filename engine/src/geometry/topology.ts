// ImportedSolid -> Solid: welded vertices, outward winding, faces with fitted surfaces, boundary
// loops, shared edges and neighbours. Everything is exact (bitwise-equal shared vertices), so no
// adjacency tolerance exists.
import type { ImportedSolid, Solid, Face, Edge, Vec3 } from './model.ts';
import { weldExact } from './weld.ts';
import { fitSurface, type FaceSample } from './fit.ts';
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

/** Directed edge a -> b to the triangle that has it (the last one, as a Map's set would keep):
 * open addressing over typed arrays, where a Map keyed by a * 2^26 + b hashes heap numbers. */
class HalfEdges {
  private readonly from: Int32Array;
  private readonly to: Int32Array;
  private readonly tri: Int32Array;
  private readonly mask: number;
  constructor(capacity: number) {
    let size = 4;
    while (size < 2 * capacity) size *= 2;
    this.from = new Int32Array(size).fill(-1);
    this.to = new Int32Array(size);
    this.tri = new Int32Array(size);
    this.mask = size - 1;
  }
  private slot(a: number, b: number): number {
    let h = (Math.imul(a, 0x9e3779b1) ^ Math.imul(b, 0x85ebca77)) & this.mask;
    while (this.from[h] >= 0 && (this.from[h] !== a || this.to[h] !== b)) h = (h + 1) & this.mask;
    return h;
  }
  set(a: number, b: number, t: number): void {
    const h = this.slot(a, b);
    this.from[h] = a; this.to[h] = b; this.tri[h] = t;
  }
  /** the triangle with half-edge a -> b, or -1 */
  get(a: number, b: number): number {
    const h = this.slot(a, b);
    return this.from[h] < 0 ? -1 : this.tri[h];
  }
}

export function buildSolid(imported: ImportedSolid, index: number): Solid {
  const { points, remap } = weldExact(imported.positions);
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
  for (let f = 0; f < imported.faceRanges.length; f++) {
    const r = imported.faceRanges[f];
    const tris: number[] = [];
    for (let t = r.first; t <= r.last && t < triCount; t++) tris.push(t);
    const faceVertices: number[] = [];
    const facets: FaceSample['facets'] = [];
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
      if (len > 0) { const k = 1 / len; facets.push({ normal: [n0 * k, n1 * k, n2 * k], area: len / 2, centroid: [(a0 + b0 + c0) / 3, (a1 + b1 + c1) / 3, (a2 + b2 + c2) / 3] }); }
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
    const { surface } = fitSurface({ points: facePoints, facets, loops: loops.map((l) => l.map((v) => point(points, v))), modelSize });
    faces.push({ id: f, surface, area: faceArea, triangles: new Uint32Array(tris), vertices, loops, neighbours: [...neighbours].sort((x, y) => x - y) });
  }
  return { index, name: imported.name, points, triangles, faces, edges, volume, area, bbox, ...(imported.openEdges ? { openEdges: imported.openEdges } : {}) };
}
