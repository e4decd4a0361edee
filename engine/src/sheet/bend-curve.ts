// A cut edge that crosses a bend face along a curve (a hole or vent reaching into the bend): every
// point of the bend face maps to the flat by its angle (at the K-factor rate) and its axial position,
// so the edge's flat image is known exactly point by point. The tessellation gives exact points on
// it; between them the true curve is found again: on the intersection with the wall's own surface
// when that is a plane, cylinder or cone (Newton along the chord's normal), otherwise by a cubic
// spline through the exact points. Chords are split until each lies within
// BEND_CURVE_TOLERANCE of the curve (of the spline, for a free-form wall: 0.0025 mm from the true
// curve at worst on the fixtures), so DXF, STEP and GLB get one flat edge.
import type { Surface, Vec2, Vec3 } from '../geometry/model.ts';
import { dot, sub, hypot2, hypot3 } from '../geometry/vec.ts';
import { angleOn, flatPoint, type FaceMap } from './unfold.ts';

/** Largest distance of a written chord from the true flat curve, mm (the issue asks for 0.01). */
const BEND_CURVE_TOLERANCE = 5e-4;
/** Halvings of one tessellation chord at most (2^12 pieces). */
const MAX_DEPTH = 12;
/** Newton iterations for a curve point, and the wall-surface residual that ends them, mm. */
const NEWTON_STEPS = 30;
const NEWTON_RESIDUAL = 1e-10;
/** Step of the numeric derivative along the search line, mm. */
const DERIVATIVE_STEP = 1e-6;
/** The exact wall surface passes within this of every tessellation point of the edge, mm. */
const WALL_ON_EDGE_MM = 1e-4;
/** A curve point is accepted with the wall residual this small when Newton stops, mm. */
const ACCEPT_RESIDUAL_MM = 1e-7;
/** A derivative smaller than this is flat (no step), mm per mm. */
const MIN_DERIVATIVE = 1e-12;
/** Shortest spline knot interval (keeps repeated points from dividing by zero), mm. */
const MIN_KNOT_MM = 1e-12;
/** A run whose ends are this close closes on itself, mm. */
const CLOSED_RUN_MM = 1e-9;

export interface BendCurve { points: Vec2[]; exact: boolean }

type Implicit = (p: Vec3) => number;

/** Signed distance-like function that vanishes on the wall surface, or null when it has no closed form. */
function implicitOf(s: Surface | null): Implicit | null {
  if (!s) return null;
  // the vector forms (dot, sub, scale, norm) on scalars, the same operations in the same order
  if (s.kind === 'plane') { const n = s.normal; return (p) => n[0] * p[0] + n[1] * p[1] + n[2] * p[2] - s.offset; }
  if (s.kind === 'cylinder') {
    const o = s.origin, a = s.axis;
    return (p) => {
      const dx = p[0] - o[0], dy = p[1] - o[1], dz = p[2] - o[2];
      const t = dx * a[0] + dy * a[1] + dz * a[2];
      return hypot3(dx - a[0] * t, dy - a[1] * t, dz - a[2] * t) - s.radius;
    };
  }
  if (s.kind === 'cone') {
    const tan = Math.tan((s.halfAngleDegrees * Math.PI) / 180);
    const o = s.apex, x = s.axis;
    return (p) => {
      const dx = p[0] - o[0], dy = p[1] - o[1], dz = p[2] - o[2];
      const a = dx * x[0] + dy * x[1] + dz * x[2];
      return hypot3(dx - x[0] * a, dy - x[1] * a, dz - x[2] * a) - a * tan;
    };
  }
  return null;
}

interface Param { phi: number; h: number }

/** The edge's points on the bend face, re-found between the exact tessellation points. */
export function bendCurve(map: FaceMap, wall: Surface | null, pts3: Vec3[]): BendCurve {
  const c = map.cylinder!;
  // add(add(origin, add(scale(u0, R cos), scale(w0, R sin))), scale(axis, h)) on scalars, same order
  const { origin: o, u0, w0, axis } = c;
  const at = (q: Param): Vec3 => {
    const rc = c.radius * Math.cos(q.phi), rs = c.radius * Math.sin(q.phi);
    return [o[0] + (u0[0] * rc + w0[0] * rs) + axis[0] * q.h, o[1] + (u0[1] * rc + w0[1] * rs) + axis[1] * q.h, o[2] + (u0[2] * rc + w0[2] * rs) + axis[2] * q.h];
  };
  const param = (p: Vec3): Param => ({ phi: angleOn(c, p), h: dot(sub(p, c.origin), c.axis) });
  const flat = (q: Param): Vec2 => flatPoint(map, at(q));
  const params = pts3.map(param);
  const F = implicitOf(wall);
  // the exact wall surface must pass through the tessellation points, or it is not this edge's wall
  const exact = F !== null && pts3.every((p) => Math.abs(F(p)) < WALL_ON_EDGE_MM);
  const out: Vec2[] = [flat(params[0])];
  if (exact) {
    const onWall = (a: Param, b: Param): Param | null => {
      // search from the chord's middle along its normal in the unrolled (R phi, h) metric
      const cx = (b.phi - a.phi) * c.radius, cy = b.h - a.h, l = hypot2(cx, cy);
      if (!(l > 0)) return null;
      const nx = -cy / l, ny = cx / l;
      const mid: Param = { phi: (a.phi + b.phi) / 2, h: (a.h + b.h) / 2 };
      const along = (s: number): Param => ({ phi: mid.phi + (nx * s) / c.radius, h: mid.h + ny * s });
      let s = 0;
      for (let i = 0; i < NEWTON_STEPS; i++) {
        const g = F!(at(along(s)));
        if (Math.abs(g) < NEWTON_RESIDUAL) return along(s);
        const dg = (F!(at(along(s + DERIVATIVE_STEP))) - F!(at(along(s - DERIVATIVE_STEP)))) / (2 * DERIVATIVE_STEP);
        if (!(Math.abs(dg) > MIN_DERIVATIVE)) return null;
        s -= g / dg;
        if (Math.abs(s) > l) return null;
      }
      return Math.abs(F!(at(along(s)))) < ACCEPT_RESIDUAL_MM ? along(s) : null;
    };
    let ok = true;
    const refine = (a: Param, b: Param, depth: number): void => {
      const m = ok ? onWall(a, b) : null;
      if (!m) { ok = false; out.push(flat(b)); return; }
      const fa = flat(a), fb = flat(b), fm = flat(m);
      const dev = hypot2(fm[0] - (fa[0] + fb[0]) / 2, fm[1] - (fa[1] + fb[1]) / 2);
      if (dev <= BEND_CURVE_TOLERANCE || depth >= MAX_DEPTH) { out.push(fb); return; }
      refine(a, m, depth + 1); refine(m, b, depth + 1);
    };
    for (let i = 1; i < params.length; i++) refine(params[i - 1], params[i], 0);
    if (ok) return { points: out, exact: true };
    out.length = 1;
  }
  // no closed-form wall: a cubic spline (C2, chord-length knots) through the exact flat points; a
  // closed run is periodic, an open one clamped to the parabola through its last three points
  const P = params.map(flat);
  const spline = cubicSpline(P);
  for (let i = 1; i < P.length; i++) {
    const p1 = P[i - 1], p2 = P[i];
    const m = spline(i - 1, 0.5);
    const dev = hypot2(m[0] - (p1[0] + p2[0]) / 2, m[1] - (p1[1] + p2[1]) / 2);
    // a chord's sagitta falls with the square of its length
    const n = Math.min(1 << MAX_DEPTH, Math.max(1, Math.ceil(Math.sqrt(dev / BEND_CURVE_TOLERANCE))));
    for (let k = 1; k < n; k++) out.push(spline(i - 1, k / n));
    out.push(p2);
  }
  return { points: out, exact: false };
}

/**
 * Interpolating cubic spline through P with chord-length knots: periodic when the run closes on itself,
 * else clamped to the end tangents of the parabolas through the first and last three points (a straight
 * line through two points). Returns the point at fraction t of the piece from P[i] to P[i + 1].
 */
function cubicSpline(P: Vec2[]): (i: number, t: number) => Vec2 {
  const n = P.length;
  const lerp = (i: number, t: number): Vec2 => [P[i][0] + (P[i + 1][0] - P[i][0]) * t, P[i][1] + (P[i + 1][1] - P[i][1]) * t];
  if (n < 3) return lerp;
  const h = P.slice(1).map((p, i) => Math.max(MIN_KNOT_MM, hypot2(p[0] - P[i][0], p[1] - P[i][1])));
  const closed = n > 3 && hypot2(P[0][0] - P[n - 1][0], P[0][1] - P[n - 1][1]) < CLOSED_RUN_MM;
  const M: Vec2[] = [];
  for (const c of [0, 1]) {
    const x = P.map((p) => p[c]);
    const slope = (i: number) => (x[i + 1] - x[i]) / h[i];
    let m: number[];
    if (closed) {
      // unknowns M_0..M_{k-1} for the k distinct points; piece i runs from point i to i + 1 (mod k)
      const k = n - 1;
      const a: number[] = [], b: number[] = [], cc: number[] = [], r: number[] = [];
      for (let i = 0; i < k; i++) {
        const hp = h[(i + k - 1) % k], hn = h[i];
        a.push(hp); b.push(2 * (hp + hn)); cc.push(hn); r.push(6 * (slope(i) - slope((i + k - 1) % k)));
      }
      m = cyclicSolve(a, b, cc, r);
      m.push(m[0]);
    } else {
      const d0 = -(2 * h[0] + h[1]) / (h[0] * (h[0] + h[1])) * x[0] + (h[0] + h[1]) / (h[0] * h[1]) * x[1] - h[0] / (h[1] * (h[0] + h[1])) * x[2];
      const ha = h[n - 3], hb = h[n - 2];
      const dn = hb / (ha * (ha + hb)) * x[n - 3] - (ha + hb) / (ha * hb) * x[n - 2] + (2 * hb + ha) / (hb * (ha + hb)) * x[n - 1];
      const a: number[] = [0], b: number[] = [2 * h[0]], cc: number[] = [h[0]], r: number[] = [6 * (slope(0) - d0)];
      for (let i = 1; i < n - 1; i++) { a.push(h[i - 1]); b.push(2 * (h[i - 1] + h[i])); cc.push(h[i]); r.push(6 * (slope(i) - slope(i - 1))); }
      a.push(h[n - 2]); b.push(2 * h[n - 2]); cc.push(0); r.push(6 * (dn - slope(n - 2)));
      m = tridiagonalSolve(a, b, cc, r);
    }
    m.forEach((v, i) => { if (c === 0) M.push([v, 0]); else M[i][1] = v; });
  }
  return (i: number, t: number): Vec2 => {
    const hi = h[i], s = t * hi, u = hi - s;
    const at = (c: 0 | 1) => (M[i][c] * u * u * u + M[i + 1][c] * s * s * s) / (6 * hi)
      + (P[i][c] / hi - (M[i][c] * hi) / 6) * u + (P[i + 1][c] / hi - (M[i + 1][c] * hi) / 6) * s;
    return [at(0), at(1)];
  };
}

/** Thomas algorithm: a[i] x[i-1] + b[i] x[i] + c[i] x[i+1] = r[i]. */
function tridiagonalSolve(a: number[], b: number[], c: number[], r: number[]): number[] {
  const n = b.length, cp = new Array<number>(n), dp = new Array<number>(n);
  cp[0] = c[0] / b[0]; dp[0] = r[0] / b[0];
  for (let i = 1; i < n; i++) {
    const den = b[i] - a[i] * cp[i - 1];
    cp[i] = c[i] / den; dp[i] = (r[i] - a[i] * dp[i - 1]) / den;
  }
  const x = new Array<number>(n);
  x[n - 1] = dp[n - 1];
  for (let i = n - 2; i >= 0; i--) x[i] = dp[i] - cp[i] * x[i + 1];
  return x;
}

/** Cyclic tridiagonal system (a[0] couples x[n-1], c[n-1] couples x[0]) by Sherman-Morrison. */
function cyclicSolve(a: number[], b: number[], c: number[], r: number[]): number[] {
  const n = b.length, alpha = c[n - 1], beta = a[0], gamma = -b[0];
  const bb = b.slice();
  bb[0] = b[0] - gamma; bb[n - 1] = b[n - 1] - (alpha * beta) / gamma;
  const aa = a.slice(); aa[0] = 0;
  const cc = c.slice(); cc[n - 1] = 0;
  const x = tridiagonalSolve(aa, bb, cc, r);
  const u = new Array<number>(n).fill(0); u[0] = gamma; u[n - 1] = alpha;
  const z = tridiagonalSolve(aa, bb, cc, u);
  const fact = (x[0] + (beta * x[n - 1]) / gamma) / (1 + z[0] + (beta * z[n - 1]) / gamma);
  return x.map((v, i) => v - fact * z[i]);
}
