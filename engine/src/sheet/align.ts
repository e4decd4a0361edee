// Smallest-area enclosing rectangle of a flat pattern (rotating calipers over the convex hull of the
// outer contour) and the rigid 2D motion that puts it axis aligned at the origin, long side on X.
import type { Contour, FlatGeometry, Vec2 } from '../geometry/model.ts';
import { applyRigid2, contourBounds, sampleContour, transformContour, type Rigid2 } from './segments.ts';

/** Arc sampling for the hull that chooses the rectangle's orientation, mm. */
const HULL_SAGITTA = 1e-4;
/** Two candidate rectangles whose areas (or lengths) differ by less than this fraction are a tie. */
const AREA_TIE = 1e-9;

export interface EnclosingRectangle {
  length: number;
  width: number;
  /** motion that maps the flat so the rectangle is [0,length] x [0,width] */
  motion: Rigid2;
}

export function convexHull(points: Vec2[]): Vec2[] {
  const p = points.slice().sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  if (p.length < 3) return p;
  const cross = (o: Vec2, a: Vec2, b: Vec2) => (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
  const lower: Vec2[] = [], upper: Vec2[] = [];
  for (const x of p) { while (lower.length >= 2 && cross(lower[lower.length - 2], lower[lower.length - 1], x) <= 0) lower.pop(); lower.push(x); }
  for (let i = p.length - 1; i >= 0; i--) { const x = p[i]; while (upper.length >= 2 && cross(upper[upper.length - 2], upper[upper.length - 1], x) <= 0) upper.pop(); upper.push(x); }
  lower.pop(); upper.pop();
  return lower.concat(upper);
}

export function enclosingRectangle(outer: Contour): EnclosingRectangle {
  // the hull only picks the orientation; the reported size comes from the exact bounds below
  const hull = convexHull(sampleContour(outer, HULL_SAGITTA));
  let best: { area: number; length: number; angle: number } | null = null;
  const consider = (angle: number) => {
    const c = Math.cos(-angle), s = Math.sin(-angle);
    let x0 = Infinity, x1 = -Infinity, y0 = Infinity, y1 = -Infinity;
    for (const p of hull) {
      const x = c * p[0] - s * p[1], y = s * p[0] + c * p[1];
      if (x < x0) x0 = x; if (x > x1) x1 = x; if (y < y0) y0 = y; if (y > y1) y1 = y;
    }
    const area = (x1 - x0) * (y1 - y0), length = Math.max(x1 - x0, y1 - y0);
    // equal areas (a right isosceles triangle: along a leg or along the hypotenuse) resolve to the
    // longer rectangle; exact repeats (0 and 90 degrees of a plain rectangle) keep the first angle
    if (!best || area < best.area * (1 - AREA_TIE)
      || (area <= best.area * (1 + AREA_TIE) && length > best.length * (1 + AREA_TIE))) best = { area, length, angle };
  };
  consider(0);
  for (let i = 0; i < hull.length; i++) {
    const a = hull[i], b = hull[(i + 1) % hull.length];
    let ang = Math.atan2(b[1] - a[1], b[0] - a[0]);
    // fold into [-45, 45] degrees: each edge direction defines the same rectangle four ways
    ang = ang - (Math.PI / 2) * Math.round(ang / (Math.PI / 2));
    consider(ang);
  }
  let angle = (best as { angle: number } | null)!.angle;
  // rotate the flat by -angle, then a quarter turn if needed so the long side lies on X
  let m: Rigid2 = { cos: Math.cos(-angle), sin: Math.sin(-angle), tx: 0, ty: 0 };
  let b = boundsOf(hull, m);
  if (b.max[1] - b.min[1] > (b.max[0] - b.min[0]) * (1 + 1e-12)) {
    angle += Math.PI / 2;
    m = { cos: Math.cos(-angle), sin: Math.sin(-angle), tx: 0, ty: 0 };
  }
  // exact bounds of the rotated contour (arcs included) set the translation
  b = contourBounds(transformContour(m, outer));
  m = { ...m, tx: -b.min[0], ty: -b.min[1] };
  return { length: b.max[0] - b.min[0], width: b.max[1] - b.min[1], motion: m };
}

function boundsOf(points: Vec2[], m: Rigid2): { min: Vec2; max: Vec2 } {
  const min: Vec2 = [Infinity, Infinity], max: Vec2 = [-Infinity, -Infinity];
  for (const p of points) {
    const q = applyRigid2(m, p);
    min[0] = Math.min(min[0], q[0]); min[1] = Math.min(min[1], q[1]);
    max[0] = Math.max(max[0], q[0]); max[1] = Math.max(max[1], q[1]);
  }
  return { min, max };
}

/** Applies a 2D rigid motion to every contour and bend line of a flat pattern. */
function moveFlat(flat: FlatGeometry, m: Rigid2): FlatGeometry {
  return {
    ...flat,
    outer: transformContour(m, flat.outer),
    inner: flat.inner.map((c) => transformContour(m, c)),
    bendLines: flat.bendLines.map((b) => ({ ...b, a: applyRigid2(m, b.a), b: applyRigid2(m, b.b) })),
  };
}

/** The flat placed with its enclosing rectangle axis aligned at the origin (identity when it already is). */
export function alignFlat(flat: FlatGeometry): FlatGeometry {
  if (flat.outer.length === 0) return flat;
  return moveFlat(flat, enclosingRectangle(flat.outer).motion);
}
