// Welds vertices whose coordinates are bitwise identical. OCCT writes the boundary vertices shared
// by neighbouring B-rep faces with identical doubles, so exact equality gives exact adjacency and
// never merges two distinct points (no tolerance to tune).

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
