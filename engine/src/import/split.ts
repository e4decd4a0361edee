// Splits one OCCT mesh into its solids: B-rep faces joined by a shared welded edge belong to the
// same shell. Several bodies exported as one mesh (multi-body parts) become separate solids.
import type { ImportedSolid } from '../geometry/model.ts';
import { weldExact, edgeKey, closeOpenSeams, openEdgeVertices } from '../geometry/weld.ts';

function find(parent: Int32Array, i: number): number {
  while (parent[i] !== i) { parent[i] = parent[parent[i]]; i = parent[i]; }
  return i;
}

export interface MeshInput {
  name: string;
  positions: Float64Array;
  indices: Uint32Array;
  faceRanges: Array<{ first: number; last: number }>;
}

export interface Shell extends ImportedSolid {
  /** undirected edges used by exactly one triangle: 0 for a closed shell */
  boundaryEdges: number;
}

export function splitShells(mesh: MeshInput): Shell[] {
  const { points, remap } = weldExact(mesh.positions);
  const triCount = mesh.indices.length / 3;
  const welded = new Uint32Array(mesh.indices.length);
  for (let i = 0; i < welded.length; i++) welded[i] = remap[mesh.indices[i]];
  const seams = closeOpenSeams(points, welded);
  if (seams.merged > 0) for (let i = 0; i < welded.length; i++) welded[i] = seams.remap[welded[i]];
  // face of each triangle (triangles outside every range get their own pseudo face)
  const faceCount = mesh.faceRanges.length;
  const faceOfTri = new Int32Array(triCount).fill(-1);
  mesh.faceRanges.forEach((r, f) => { for (let t = r.first; t <= r.last && t < triCount; t++) faceOfTri[t] = f; });
  const parent = new Int32Array(faceCount);
  for (let f = 0; f < faceCount; f++) parent[f] = f;
  // Faces sharing a welded vertex are one shell (typed arrays, no hash maps: this runs per solid).
  const owner = new Int32Array(points.length / 3).fill(-1);
  for (let t = 0; t < triCount; t++) {
    const f = faceOfTri[t];
    if (f < 0) continue;
    for (let k = 0; k < 3; k++) {
      const v = welded[t * 3 + k];
      const g = owner[v];
      if (g < 0) owner[v] = f;
      else if (g !== f) { const ra = find(parent, f), rb = find(parent, g); if (ra !== rb) parent[ra] = rb; }
    }
  }
  // the seams' open vertices are the mesh's while no seam was closed
  const openVertices = seams.merged > 0 ? openEdgeVertices(welded) : seams.open;
  const openSides = new Map<number, number>(); // shell root -> open triangle sides
  if (openVertices.size > 0) {
    const uses = new Map<number, number>();
    for (let t = 0; t < triCount; t++) {
      for (let k = 0; k < 3; k++) {
        const a = welded[t * 3 + k], b = welded[t * 3 + ((k + 1) % 3)];
        if (a !== b && openVertices.has(a) && openVertices.has(b)) { const key = edgeKey(a, b); uses.set(key, (uses.get(key) ?? 0) + 1); }
      }
    }
    for (let t = 0; t < triCount; t++) {
      if (faceOfTri[t] < 0) continue;
      for (let k = 0; k < 3; k++) {
        const a = welded[t * 3 + k], b = welded[t * 3 + ((k + 1) % 3)];
        if (a !== b && uses.get(edgeKey(a, b)) === 1) { const root = find(parent, faceOfTri[t]); openSides.set(root, (openSides.get(root) ?? 0) + 1); }
      }
    }
  }
  const groups = new Map<number, number[]>();
  for (let f = 0; f < faceCount; f++) {
    const r = mesh.faceRanges[f];
    if (r.last < r.first) continue;
    const root = find(parent, f);
    let g = groups.get(root);
    if (!g) groups.set(root, (g = []));
    g.push(f);
  }
  const shells: Shell[] = [];
  // welded vertex -> index inside its shell (each vertex belongs to exactly one shell)
  const local = new Int32Array(points.length / 3).fill(-1);
  for (const [root, faces] of groups) {
    let vertexCount = 0;
    let sideCount = 0;
    for (const f of faces) { const r = mesh.faceRanges[f]; sideCount += Math.max(0, Math.min(r.last, triCount - 1) - r.first + 1) * 3; }
    const idx = new Uint32Array(sideCount);
    const order: number[] = [];
    const ranges: Array<{ first: number; last: number }> = [];
    let n = 0;
    for (const f of faces) {
      const r = mesh.faceRanges[f];
      const first = n / 3;
      for (let t = r.first; t <= r.last && t < triCount; t++) {
        for (let k = 0; k < 3; k++) {
          const v = welded[t * 3 + k];
          if (local[v] < 0) { local[v] = vertexCount++; order.push(v); }
          idx[n++] = local[v];
        }
      }
      ranges.push({ first, last: n / 3 - 1 });
    }
    const pos = new Float64Array(vertexCount * 3);
    order.forEach((v, i) => { pos[i * 3] = points[v * 3]; pos[i * 3 + 1] = points[v * 3 + 1]; pos[i * 3 + 2] = points[v * 3 + 2]; });
    shells.push({ name: mesh.name, positions: pos, indices: idx, faceRanges: ranges, boundaryEdges: openSides.get(root) ?? 0 });
  }
  return shells;
}

function signedVolume(s: Shell): number {
  const p = s.positions, t = s.indices;
  let v = 0;
  for (let i = 0; i < t.length; i += 3) {
    const a = t[i] * 3, b = t[i + 1] * 3, c = t[i + 2] * 3;
    v += (p[a] * (p[b + 1] * p[c + 2] - p[b + 2] * p[c + 1]) - p[a + 1] * (p[b] * p[c + 2] - p[b + 2] * p[c]) + p[a + 2] * (p[b] * p[c + 1] - p[b + 1] * p[c])) / 6;
  }
  return v;
}

function boxOf(s: Shell): { min: number[]; max: number[] } {
  const min = [Infinity, Infinity, Infinity], max = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < s.positions.length; i += 3) for (let k = 0; k < 3; k++) { min[k] = Math.min(min[k], s.positions[i + k]); max[k] = Math.max(max[k], s.positions[i + k]); }
  return { min, max };
}

/** The two shells as one (the second's faces after the first's). */
export function mergeShells(outer: Shell, inner: Shell): Shell {
  const n = outer.positions.length / 3, tris = outer.indices.length / 3;
  const indices = new Uint32Array(outer.indices.length + inner.indices.length);
  indices.set(outer.indices, 0);
  for (let i = 0; i < inner.indices.length; i++) indices[outer.indices.length + i] = inner.indices[i] + n;
  const positions = new Float64Array(outer.positions.length + inner.positions.length);
  positions.set(outer.positions, 0);
  positions.set(inner.positions, outer.positions.length);
  return {
    name: outer.name,
    positions,
    indices,
    faceRanges: [...outer.faceRanges, ...inner.faceRanges.map((r) => ({ first: r.first + tris, last: r.last + tris }))],
    boundaryEdges: outer.boundaryEdges + inner.boundaryEdges,
  };
}

/**
 * A solid with an internal void (STEP BREP_WITH_VOIDS) arrives as an outer shell plus an inward
 * wound one (negative volume): the void joins the smallest outer shell whose box contains it.
 */
export function attachVoids(shells: Shell[]): Shell[] {
  const info = shells.map((s) => ({ s, v: signedVolume(s), box: boxOf(s) }));
  const outers = info.filter((x) => x.v > 0);
  const result = new Map(outers.map((o) => [o, o.s]));
  const loose: Shell[] = [];
  for (const inner of info.filter((x) => x.v <= 0)) {
    const host = outers
      .filter((o) => [0, 1, 2].every((k) => o.box.min[k] <= inner.box.min[k] && o.box.max[k] >= inner.box.max[k]) && o.v > -inner.v)
      .sort((a, b) => a.v - b.v)[0];
    if (host) result.set(host, mergeShells(result.get(host)!, inner.s));
    else loose.push(inner.s);
  }
  // keep file order: outers in their order, unattached inverted shells after them
  return [...outers.map((o) => result.get(o)!), ...loose];
}
