// Levenberg-Marquardt on a small parameter vector with a central-difference Jacobian. The fits
// only need a handful of parameters (<= 6), so dense normal equations are exact enough.

/** Dense Gauss-Jordan with partial pivoting for the small (<= 6) systems of the fits; null when singular. */
export function solveLinear(a: number[][], b: number[]): number[] | null {
  const n = b.length;
  return solveInto(a, b, Array.from({ length: n }, () => new Array<number>(n + 1)), new Array<number>(n));
}

/** solveLinear with the augmented matrix and the answer in the caller's arrays (n rows of n + 1,
 * and n), which the fits' iterations reuse; returns `out`, or null when singular. */
function solveInto(a: number[][], b: number[], m: number[][], out: number[]): number[] | null {
  const n = b.length;
  for (let i = 0; i < n; i++) { const row = m[i], src = a[i]; for (let k = 0; k < n; k++) row[k] = src[k]; row[n] = b[i]; }
  for (let c = 0; c < n; c++) {
    let p = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(m[r][c]) > Math.abs(m[p][c])) p = r;
    if (Math.abs(m[p][c]) < 1e-300) return null;
    const swap = m[c]; m[c] = m[p]; m[p] = swap;
    for (let r = 0; r < n; r++) {
      if (r === c) continue;
      const f = m[r][c] / m[c][c];
      if (f !== 0) for (let k = c; k <= n; k++) m[r][k] -= f * m[c][k];
    }
  }
  for (let i = 0; i < n; i++) out[i] = m[i][n] / m[i][i];
  return out;
}

export interface LmOptions { steps: number[]; iterations?: number }

/**
 * Minimises sum of residuals(theta)^2 starting at theta0; returns the best theta found. `residuals`
 * may write into the buffer it is handed (the length of its first answer) and return it, or return
 * an array of its own; it must not keep either.
 */
export function levenbergMarquardt(residuals: (theta: number[], into?: Float64Array) => Float64Array, theta0: number[], opts: LmOptions): number[] {
  const k = theta0.length;
  let theta = theta0.slice();
  let r = residuals(theta);
  let cost = sumSq(r);
  let lambda = 1e-3;
  const iterations = opts.iterations ?? 30;
  // The Jacobian's columns, the normal equations and the probe vector are allocated once per call
  // (the cone fits run this some hundred times per part, 30 iterations each); `residuals` must not
  // keep the theta it is handed, which is overwritten by the next probe.
  const jac: Float64Array[] = Array.from({ length: k }, () => new Float64Array(r.length));
  const jtj: number[][] = Array.from({ length: k }, () => new Array<number>(k).fill(0));
  const jtr = new Array<number>(k).fill(0);
  const probe = theta.slice();
  const damped: number[][] = Array.from({ length: k }, () => new Array<number>(k));
  const augmented: number[][] = Array.from({ length: k }, () => new Array<number>(k + 1));
  const delta = new Array<number>(k);
  const plus = new Float64Array(r.length), minus = new Float64Array(r.length);
  let spare: Float64Array = new Float64Array(r.length);
  for (let it = 0; it < iterations; it++) {
    for (let j = 0; j < k; j++) probe[j] = theta[j];
    for (let j = 0; j < k; j++) {
      const h = opts.steps[j];
      probe[j] = theta[j] + h;
      const rp = residuals(probe, plus);
      probe[j] = theta[j] - h;
      const rm = residuals(probe, minus);
      probe[j] = theta[j];
      const col = jac[j];
      for (let i = 0; i < r.length; i++) col[i] = (rp[i] - rm[i]) / (2 * h);
    }
    for (let a = 0; a < k; a++) {
      for (let b = a; b < k; b++) {
        let s = 0;
        for (let i = 0; i < r.length; i++) s += jac[a][i] * jac[b][i];
        jtj[a][b] = s; jtj[b][a] = s;
      }
      let s = 0;
      for (let i = 0; i < r.length; i++) s += jac[a][i] * r[i];
      jtr[a] = -s;
    }
    let improved = false;
    for (let tries = 0; tries < 10; tries++) {
      for (let a = 0; a < k; a++) for (let b = 0; b < k; b++) { const v = jtj[a][b]; damped[a][b] = a === b ? v + lambda * (v || 1) : v; }
      if (!solveInto(damped, jtr, augmented, delta)) { lambda *= 10; continue; }
      const next = theta.map((v, j) => v + delta[j]);
      const rn = residuals(next, spare);
      const cn = sumSq(rn);
      if (Number.isFinite(cn) && cn <= cost) {
        const gain = cost - cn;
        // the accepted residuals' buffer becomes the current one; the old current one the spare
        if (rn === spare) spare = r;
        theta = next; r = rn; cost = cn; lambda = Math.max(lambda / 10, 1e-12); improved = true;
        if (gain <= 1e-30 + cost * 1e-14) return theta;
        break;
      }
      lambda *= 10;
    }
    if (!improved) break;
  }
  return theta;
}

function sumSq(r: Float64Array): number { let s = 0; for (let i = 0; i < r.length; i++) s += r[i] * r[i]; return s; }
