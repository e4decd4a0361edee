// Small float64 vector and 3x3 symmetric-matrix helpers for the fits.
import type { Vec3 } from './model.ts';

export const sub = (a: Vec3, b: Vec3): Vec3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
export const add = (a: Vec3, b: Vec3): Vec3 => [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
export const scale = (a: Vec3, s: number): Vec3 => [a[0] * s, a[1] * s, a[2] * s];
export const dot = (a: Vec3, b: Vec3): number => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
export const cross = (a: Vec3, b: Vec3): Vec3 => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
export const norm = (a: Vec3): number => hypot3(a[0], a[1], a[2]);

/**
 * Math.hypot(x, y, z), bit for bit: V8's algorithm (builtins/math.tq: scale by the largest
 * magnitude, Kahan-summed squares). TurboFan does not inline Math.hypot; each call is a builtin call
 * that allocates an array, and the tube cut lengths make hundreds of thousands of them per file.
 * engine/test/hypot.test.ts compares it with Math.hypot.
 */
export function hypot3(x: number, y: number, z: number): number {
  const ax = Math.abs(x), ay = Math.abs(y), az = Math.abs(z);
  if (ax === Infinity || ay === Infinity || az === Infinity) return Infinity;
  if (Number.isNaN(ax) || Number.isNaN(ay) || Number.isNaN(az)) return NaN;
  let max = ax > ay ? ax : ay;
  if (az > max) max = az;
  if (max === 0) return 0;
  // the largest magnitude divided by itself is exactly 1 (finite, non-zero): that division is skipped
  const nx = ax === max ? 1 : ax / max, ny = ay === max ? 1 : ay / max, nz = az === max ? 1 : az / max;
  let sum = 0, compensation = 0;
  let summand = nx * nx - compensation, next = sum + summand;
  compensation = (next - sum) - summand; sum = next;
  summand = ny * ny - compensation; next = sum + summand;
  compensation = (next - sum) - summand; sum = next;
  summand = nz * nz - compensation; next = sum + summand;
  sum = next;
  return Math.sqrt(sum) * max;
}

/** Math.hypot(x, y), bit for bit (see hypot3). */
export function hypot2(x: number, y: number): number {
  const ax = Math.abs(x), ay = Math.abs(y);
  if (ax === Infinity || ay === Infinity) return Infinity;
  if (Number.isNaN(ax) || Number.isNaN(ay)) return NaN;
  const max = ax > ay ? ax : ay;
  if (max === 0) return 0;
  // as in hypot3: the largest magnitude divided by itself is exactly 1
  const nx = ax === max ? 1 : ax / max, ny = ay === max ? 1 : ay / max;
  let sum = 0, compensation = 0;
  let summand = nx * nx - compensation, next = sum + summand;
  compensation = (next - sum) - summand; sum = next;
  summand = ny * ny - compensation; next = sum + summand;
  sum = next;
  return Math.sqrt(sum) * max;
}
export function normalize(a: Vec3): Vec3 { const n = norm(a); return n > 0 ? [a[0] / n, a[1] / n, a[2] / n] : [0, 0, 0]; }
export const point = (p: Float64Array, i: number): Vec3 => [p[i * 3], p[i * 3 + 1], p[i * 3 + 2]];

/** Two unit vectors completing `a` (unit) to a right-handed orthonormal basis. */
export function basisOf(a: Vec3): [Vec3, Vec3] {
  const helper: Vec3 = Math.abs(a[0]) < 0.9 ? [1, 0, 0] : [0, 1, 0];
  const u = normalize(cross(a, helper));
  return [u, cross(a, u)];
}

/** The rotation planes of one cyclic Jacobi sweep on a 3 x 3 matrix. */
const JACOBI_PAIRS = [[0, 1], [0, 2], [1, 2]] as const;

/** Symmetric 3x3 eigen-decomposition (cyclic Jacobi). Eigenvalues ascending; vectors[i] goes with values[i]. */
export function eigenSym3(m: number[][]): { values: [number, number, number]; vectors: [Vec3, Vec3, Vec3] } {
  const a = m.map((r) => r.slice());
  const v = [[1, 0, 0], [0, 1, 0], [0, 0, 1]];
  const before = new Float64Array(18);
  for (let sweep = 0; sweep < 50; sweep++) {
    const off = Math.abs(a[0][1]) + Math.abs(a[0][2]) + Math.abs(a[1][2]);
    if (off < 1e-300) break;
    for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) { before[3 * i + j] = a[i][j]; before[9 + 3 * i + j] = v[i][j]; }
    for (const [p, q] of JACOBI_PAIRS) {
      if (Math.abs(a[p][q]) < 1e-300) continue;
      const theta = (a[q][q] - a[p][p]) / (2 * a[p][q]);
      const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
      const c = 1 / Math.sqrt(t * t + 1), s = t * c;
      for (let k = 0; k < 3; k++) {
        const akp = a[k][p], akq = a[k][q];
        a[k][p] = c * akp - s * akq; a[k][q] = s * akp + c * akq;
      }
      for (let k = 0; k < 3; k++) {
        const apk = a[p][k], aqk = a[q][k];
        a[p][k] = c * apk - s * aqk; a[q][k] = s * apk + c * aqk;
      }
      for (let k = 0; k < 3; k++) {
        const vkp = v[k][p], vkq = v[k][q];
        v[k][p] = c * vkp - s * vkq; v[k][q] = s * vkp + c * vkq;
      }
    }
    // Rounding stalls the off-diagonal above 1e-300 after a few sweeps: a sweep that left every
    // entry as it was (-0 and NaN included) repeats forever, so the remaining ones change nothing.
    let same = true;
    for (let i = 0; i < 3 && same; i++) for (let j = 0; j < 3; j++) if (!Object.is(before[3 * i + j], a[i][j]) || !Object.is(before[9 + 3 * i + j], v[i][j])) { same = false; break; }
    if (same) break;
  }
  const order = [0, 1, 2].sort((i, j) => a[i][i] - a[j][j]);
  const values = order.map((i) => a[i][i]) as [number, number, number];
  const vectors = order.map((i) => normalize([v[0][i], v[1][i], v[2][i]])) as [Vec3, Vec3, Vec3];
  return { values, vectors };
}

/** Largest-eigenvalue eigenvector of a symmetric n x n matrix (cyclic Jacobi). */
export function dominantEigenvector(m: number[][]): number[] {
  const { values, vectors } = symmetricEigen(m);
  return vectors[values.length - 1];
}

/** Eigen-decomposition of a symmetric n x n matrix (cyclic Jacobi), eigenvalues ascending. */
export function symmetricEigen(m: number[][]): { values: number[]; vectors: number[][] } {
  const n = m.length;
  const a = m.map((r) => r.slice());
  const v: number[][] = Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j): number => (i === j ? 1 : 0)));
  for (let sweep = 0; sweep < 60; sweep++) {
    let off = 0;
    for (let p = 0; p < n; p++) for (let q = p + 1; q < n; q++) off += Math.abs(a[p][q]);
    if (off < 1e-300) break;
    for (let p = 0; p < n; p++) {
      for (let q = p + 1; q < n; q++) {
        if (Math.abs(a[p][q]) < 1e-300) continue;
        const theta = (a[q][q] - a[p][p]) / (2 * a[p][q]);
        const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
        const c = 1 / Math.sqrt(t * t + 1), s = t * c;
        for (let k = 0; k < n; k++) { const akp = a[k][p], akq = a[k][q]; a[k][p] = c * akp - s * akq; a[k][q] = s * akp + c * akq; }
        for (let k = 0; k < n; k++) { const apk = a[p][k], aqk = a[q][k]; a[p][k] = c * apk - s * aqk; a[q][k] = s * apk + c * aqk; }
        for (let k = 0; k < n; k++) { const vkp = v[k][p], vkq = v[k][q]; v[k][p] = c * vkp - s * vkq; v[k][q] = s * vkp + c * vkq; }
      }
    }
  }
  const order = [...Array(n).keys()].sort((i, j) => a[i][i] - a[j][j]);
  return { values: order.map((i) => a[i][i]), vectors: order.map((i) => v.map((row) => row[i])) };
}
