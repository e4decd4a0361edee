// Welds vertices whose coordinates are bitwise identical. OCCT writes the boundary vertices shared
// by neighbouring B-rep faces with identical doubles, so exact equality gives exact adjacency and
// never merges two distinct points (no tolerance to tune).
import { hypot3 } from './vec.ts';

export interface Welded {
  /** xyz per distinct vertex */
  points: Float64Array;
  /** input vertex -> welded vertex */
  remap: Uint32Array;
}

function hashWords(w: Uint32Array, o: number): number {
  let h = 2166136261;
  for (let k = 0; k < 6; k++) {
    h ^= w[o + k];
    h = Math.imul(h, 16777619);
    h ^= h >>> 15;
  }
  return h >>> 0;
}

export function weldExact(positions: Float64Array): Welded {
  const n = positions.length / 3;
  // -0 and +0 are the same point but different bits: normalise before hashing.
  const coords = new Float64Array(positions.length);
  for (let i = 0; i < positions.length; i++) coords[i] = positions[i] === 0 ? 0 : positions[i];
  const words = new Uint32Array(coords.buffer);
  let size = 1;
  while (size < n * 2) size <<= 1;
  const table = new Int32Array(size).fill(-1);
  const remap = new Uint32Array(n);
  const firstOf: number[] = [];
  for (let i = 0; i < n; i++) {
    let slot = hashWords(words, i * 6) & (size - 1);
    for (;;) {
      const j = table[slot];
      if (j < 0) {
        table[slot] = i;
        remap[i] = firstOf.length;
        firstOf.push(i);
        break;
      }
      if (coords[j * 3] === coords[i * 3] && coords[j * 3 + 1] === coords[i * 3 + 1] && coords[j * 3 + 2] === coords[i * 3 + 2]) {
        remap[i] = remap[j];
        break;
      }
      slot = (slot + 1) & (size - 1);
    }
  }
  const points = new Float64Array(firstOf.length * 3);
  for (let k = 0; k < firstOf.length; k++) {
    const i = firstOf[k];
    points[k * 3] = coords[i * 3];
    points[k * 3 + 1] = coords[i * 3 + 1];
    points[k * 3 + 2] = coords[i * 3 + 2];
  }
  return { points, remap };
}

/** Key of the undirected edge a-b, a != b, for vertex counts below 2^26. */
export function edgeKey(a: number, b: number): number {
  return a < b ? a * 67108864 + b : b * 67108864 + a;
}

/** Vertices left on open edges after the exact weld are merged with another open-edge vertex this
 * close, mm: OCCT sometimes writes a seam vertex of a cone 1e-12 mm off its neighbour's copy, and
 * exports from other CAD systems carry 10-20 nm gaps. Only open-edge vertices are candidates, and
 * no two distinct tessellation vertices of a part lie within 0.1 um of each other. */
const SEAM_WELD_TOLERANCE_MM = 1e-4;

/**
 * Closes open seams: among vertices on edges used by exactly one triangle, merges those within
 * `tolerance` of each other. Returns the vertex map (identity when nothing is open), how many
 * vertices were merged and the open-edge vertices it started from (still those of the mesh when
 * nothing was merged).
 */
export function closeOpenSeams(points: Float64Array, triangles: Uint32Array, tolerance = SEAM_WELD_TOLERANCE_MM): { remap: Uint32Array; merged: number; open: Set<number> } {
  const n = points.length / 3;
  const remap = new Uint32Array(n);
  for (let i = 0; i < n; i++) remap[i] = i;
  const open = openEdgeVertices(triangles);
  if (open.size === 0) return { remap, merged: 0, open };
  const cell = (x: number): number => Math.floor(x / tolerance);
  const grid = new Map<string, number[]>();
  let merged = 0;
  for (const v of [...open].sort((x, y) => x - y)) {
    const cx = cell(points[v * 3]), cy = cell(points[v * 3 + 1]), cz = cell(points[v * 3 + 2]);
    let target = -1;
    for (let dx = -1; dx <= 1 && target < 0; dx++) for (let dy = -1; dy <= 1 && target < 0; dy++) for (let dz = -1; dz <= 1 && target < 0; dz++) {
      for (const w of grid.get(`${cx + dx},${cy + dy},${cz + dz}`) ?? []) {
        const d = hypot3(points[v * 3] - points[w * 3], points[v * 3 + 1] - points[w * 3 + 1], points[v * 3 + 2] - points[w * 3 + 2]);
        if (d <= tolerance) { target = w; break; }
      }
    }
    if (target >= 0) { remap[v] = target; merged++; continue; }
    const key = `${cx},${cy},${cz}`;
    const list = grid.get(key);
    if (list) list.push(v); else grid.set(key, [v]);
  }
  return { remap, merged, open };
}

/** Vertices on undirected edges used by exactly one triangle, added in the order of their edges'
 * keys (edgeKey, ascending). Uses per edge are counted in an open-addressed table over typed arrays;
 * only the open edges' keys are sorted (none on a closed mesh), where sorting all 3T keys cost more. */
export function openEdgeVertices(triangles: Uint32Array): Set<number> {
  const m = triangles.length;
  // at most m distinct edges: the table stays at most two-thirds full, so every probe ends
  let size = 4;
  while (size < m + (m >> 1)) size *= 2;
  const mask = size - 1;
  // uses 0: an empty slot
  const lo = new Uint32Array(size), hi = new Uint32Array(size), uses = new Int32Array(size);
  let openCount = 0;
  for (let t = 0; t < m; t += 3) {
    for (let k = 0; k < 3; k++) {
      const a = triangles[t + k], b = triangles[t + ((k + 1) % 3)];
      if (a === b) continue;
      const l = a < b ? a : b, h = a < b ? b : a;
      let s = (Math.imul(l, 0x9e3779b1) ^ Math.imul(h, 0x85ebca77)) & mask;
      while (uses[s] > 0 && (lo[s] !== l || hi[s] !== h)) s = (s + 1) & mask;
      if (uses[s] === 0) { lo[s] = l; hi[s] = h; uses[s] = 1; openCount++; } else { if (uses[s] === 1) openCount--; uses[s]++; }
    }
  }
  const open = new Set<number>();
  if (openCount === 0) return open;
  const keys = new Float64Array(openCount);
  let n = 0;
  for (let s = 0; s < size; s++) if (uses[s] === 1) keys[n++] = edgeKey(lo[s], hi[s]);
  keys.sort();
  for (let i = 0; i < n; i++) { const a = Math.floor(keys[i] / 67108864); open.add(a); open.add(keys[i] - a * 67108864); }
  return open;
}
