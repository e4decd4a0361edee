// A sheet flat's cut contours as the polygons it is nested with (docs/nesting.md "Part outlines"):
// the outer contour and every inner contour (round holes, slots, windows), arcs sampled and the
// loops simplified so that every polygon stays within FLAT_OUTLINE_TOLERANCE_MM of the true contour.
// The analysis keeps it on the part (`_flat_outline`), so a quote nests an L or a ring as its shape.
import type { Contour, FlatGeometry, Vec2 } from '../geometry/model.ts';
import { sampleContour } from '../sheet/segments.ts';
import type { FlatOutline } from '../contract/design.ts';

/** Greatest distance between a nesting polygon and the true cut contour it stands for, mm. */
export const FLAT_OUTLINE_TOLERANCE_MM = 0.1;
/** Arcs are sampled this close before the loop is simplified, mm (a part of the tolerance). */
const ARC_SAGITTA_MM = FLAT_OUTLINE_TOLERANCE_MM / 4;
/** Coordinates are kept to this many decimals (1 micron: far inside the tolerance). */
const DECIMALS = 3;

const round = (x: number): number => {
  const f = 10 ** DECIMALS;
  const r = Math.round(x * f) / f;
  return Object.is(r, -0) ? 0 : r;
};

function distanceToSegment(p: Vec2, a: Vec2, b: Vec2): number {
  const dx = b[0] - a[0], dy = b[1] - a[1];
  const len2 = dx * dx + dy * dy;
  const t = len2 > 0 ? Math.max(0, Math.min(1, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / len2)) : 0;
  return Math.hypot(p[0] - a[0] - t * dx, p[1] - a[1] - t * dy);
}

/** Douglas-Peucker of the open run pts[i..j]: marks the points kept. */
function simplifyRun(pts: Vec2[], i: number, j: number, tol: number, keep: boolean[]): void {
  // iterative: a loop of thousands of samples must not grow the stack
  const stack: Array<[number, number]> = [[i, j]];
  while (stack.length) {
    const [a, b] = stack.pop()!;
    let worst = -1, at = -1;
    for (let k = a + 1; k < b; k++) {
      const d = distanceToSegment(pts[k], pts[a], pts[b]);
      if (d > worst) { worst = d; at = k; }
    }
    if (at >= 0 && worst > tol) {
      keep[at] = true;
      stack.push([a, at], [at, b]);
    }
  }
}

/** A closed loop of points simplified within `tol`, mm (at least a triangle when the loop has one). */
export function simplifyLoop(points: readonly Vec2[], tol: number): Vec2[] {
  const pts: Vec2[] = [];
  for (const p of points) {
    const q = pts[pts.length - 1];
    if (!q || Math.hypot(p[0] - q[0], p[1] - q[1]) > 1e-9) pts.push(p);
  }
  while (pts.length > 1 && Math.hypot(pts[0][0] - pts[pts.length - 1][0], pts[0][1] - pts[pts.length - 1][1]) <= 1e-9) pts.pop();
  if (pts.length <= 3) return pts;
  // anchors: the first point and the point farthest from it split the loop into two runs
  let far = 1;
  for (let k = 1; k < pts.length; k++) if (Math.hypot(pts[k][0] - pts[0][0], pts[k][1] - pts[0][1]) > Math.hypot(pts[far][0] - pts[0][0], pts[far][1] - pts[0][1])) far = k;
  const ring = [...pts, pts[0]];
  const keep = ring.map((_, k) => k === 0 || k === far || k === ring.length - 1);
  simplifyRun(ring, 0, far, tol, keep);
  simplifyRun(ring, far, ring.length - 1, tol, keep);
  const out = ring.slice(0, -1).filter((_, k) => keep[k]);
  if (out.length >= 3) return out;
  // a loop thinner than the tolerance: keep its widest triangle rather than lose it
  let third = -1, best = -1;
  for (let k = 0; k < pts.length; k++) {
    const d = distanceToSegment(pts[k], pts[0], pts[far]);
    if (d > best) { best = d; third = k; }
  }
  return [pts[0], pts[Math.min(far, third)], pts[Math.max(far, third)]].filter((p, k, a) => a.indexOf(p) === k);
}

function polygon(c: Contour): Array<[number, number]> {
  return simplifyLoop(sampleContour(c, ARC_SAGITTA_MM), FLAT_OUTLINE_TOLERANCE_MM - ARC_SAGITTA_MM).map(([x, y]) => [round(x), round(y)]);
}

/** The flat's outer contour and inner contours as polygons, mm, in the flat's frame (that of `holes[].center_mm`). */
export function flatOutline(flat: Pick<FlatGeometry, 'outer' | 'inner'>): FlatOutline {
  return { outer: polygon(flat.outer), holes: flat.inner.map(polygon).filter((h) => h.length >= 3) };
}
