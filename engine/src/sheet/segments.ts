// Exact 2D segment arithmetic for flat patterns: endpoints, lengths, areas, sampling, rigid motion.
// Arcs stay arcs; sampling is only for hulls, distances and overlap tests, never for reported lengths.
import type { Contour, Segment, Vec2 } from '../geometry/model.ts';
import { hypot2 } from '../geometry/vec.ts';

const DEG = Math.PI / 180;
/** Sagitta bound when an arc is sampled for hulls and distances, mm. */
const ARC_SAMPLE_SAGITTA = 1e-6;
const MAX_ARC_SAMPLES = 4096;
/** An arc sweeping within this of 360 degrees is a full circle, degrees. */
const FULL_TURN_SLACK_DEGREES = 1e-6;

/** Signed sweep of an arc in radians: positive when counter-clockwise. */
export function arcSweep(s: Extract<Segment, { kind: 'arc' }>): number {
  const raw = s.endDegrees - s.startDegrees;
  // a full turn written as +/-360 (or a hair off it) stays a full turn, not an empty arc
  if (Math.abs(Math.abs(raw) - 360) < FULL_TURN_SLACK_DEGREES) return (s.ccw ? 2 : -2) * Math.PI;
  let d = raw % 360;
  if (s.ccw) { if (d <= 0) d += 360; } else { if (d >= 0) d -= 360; }
  return d * DEG;
}

export function arcPoint(center: Vec2, radius: number, degrees: number): Vec2 {
  return [center[0] + radius * Math.cos(degrees * DEG), center[1] + radius * Math.sin(degrees * DEG)];
}

export function segmentStart(s: Segment): Vec2 { return s.kind === 'line' ? s.a : arcPoint(s.center, s.radius, s.startDegrees); }
export function segmentEnd(s: Segment): Vec2 { return s.kind === 'line' ? s.b : arcPoint(s.center, s.radius, s.endDegrees); }

function segmentLength(s: Segment): number {
  return s.kind === 'line' ? hypot2(s.b[0] - s.a[0], s.b[1] - s.a[1]) : Math.abs(arcSweep(s)) * s.radius;
}

export function contourLength(c: Contour): number { return c.reduce((sum, s) => sum + segmentLength(s), 0); }

/** Signed area (positive counter-clockwise), exact for arcs: chord polygon plus circular segments. */
export function contourArea(c: Contour): number {
  let twice = 0;
  for (const s of c) {
    const a = segmentStart(s), b = segmentEnd(s);
    twice += a[0] * b[1] - b[0] * a[1];
    if (s.kind === 'arc') {
      const sweep = arcSweep(s);
      // circular segment between chord and arc, signed with the sweep
      twice += s.radius * s.radius * (sweep - Math.sin(sweep));
    }
  }
  return twice / 2;
}

/** Points along a segment, start included, end excluded (so a contour's samples do not repeat). */
export function sampleSegment(s: Segment, sagitta = ARC_SAMPLE_SAGITTA): Vec2[] {
  return sampleInto([], s, sagitta);
}

/** sampleSegment's points appended to `out` (a contour's samples in one array, not one per segment). */
function sampleInto(out: Vec2[], s: Segment, sagitta: number): Vec2[] {
  if (s.kind === 'line') { out.push(s.a); return out; }
  const sweep = arcSweep(s);
  const step = s.radius > sagitta ? 2 * Math.acos(1 - sagitta / s.radius) : Math.PI / 8;
  const n = Math.min(MAX_ARC_SAMPLES, Math.max(2, Math.ceil(Math.abs(sweep) / step)));
  for (let i = 0; i < n; i++) out.push(arcPoint(s.center, s.radius, s.startDegrees + (sweep / DEG) * (i / n)));
  return out;
}

export function sampleContour(c: Contour, sagitta = ARC_SAMPLE_SAGITTA): Vec2[] {
  const out: Vec2[] = [];
  for (const s of c) sampleInto(out, s, sagitta);
  return out;
}

/** 2D rigid motion p' = R(angle) p + t. */
export interface Rigid2 { cos: number; sin: number; tx: number; ty: number }

export function applyRigid2(m: Rigid2, p: Vec2): Vec2 {
  return [m.cos * p[0] - m.sin * p[1] + m.tx, m.sin * p[0] + m.cos * p[1] + m.ty];
}

function transformSegment(m: Rigid2, s: Segment): Segment {
  if (s.kind === 'line') return { kind: 'line', a: applyRigid2(m, s.a), b: applyRigid2(m, s.b) };
  const rot = Math.atan2(m.sin, m.cos) / DEG;
  return { ...s, center: applyRigid2(m, s.center), startDegrees: s.startDegrees + rot, endDegrees: s.endDegrees + rot };
}

export function transformContour(m: Rigid2, c: Contour): Contour { return c.map((s) => transformSegment(m, s)); }

export function reverseContour(c: Contour): Contour {
  return c.slice().reverse().map((s): Segment => s.kind === 'line'
    ? { kind: 'line', a: s.b, b: s.a }
    : { ...s, startDegrees: s.endDegrees, endDegrees: s.startDegrees, ccw: !s.ccw });
}

/** Axis-aligned bounds of a contour, exact for arcs (includes the quadrant points the arc passes). */
export function contourBounds(c: Contour): { min: Vec2; max: Vec2 } {
  const min: Vec2 = [Infinity, Infinity], max: Vec2 = [-Infinity, -Infinity];
  const grow = (p: Vec2) => {
    if (p[0] < min[0]) min[0] = p[0]; if (p[1] < min[1]) min[1] = p[1];
    if (p[0] > max[0]) max[0] = p[0]; if (p[1] > max[1]) max[1] = p[1];
  };
  for (const s of c) {
    grow(segmentStart(s)); grow(segmentEnd(s));
    if (s.kind === 'arc') {
      const sweep = arcSweep(s) / DEG;
      for (let q = -720; q <= 720; q += 90) {
        const rel = s.ccw ? q - s.startDegrees : s.startDegrees - q;
        const r = ((rel % 360) + 360) % 360;
        if (r > 0 && r < Math.abs(sweep)) grow(arcPoint(s.center, s.radius, q));
      }
    }
  }
  return { min, max };
}

/** Distance from point p to segment ab. */
export function pointSegmentDistance(p: Vec2, a: Vec2, b: Vec2): number {
  const dx = b[0] - a[0], dy = b[1] - a[1];
  const l2 = dx * dx + dy * dy;
  let t = l2 > 0 ? ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / l2 : 0;
  t = Math.max(0, Math.min(1, t));
  return hypot2(p[0] - a[0] - t * dx, p[1] - a[1] - t * dy);
}

type Box2 = { x0: number; y0: number; x1: number; y1: number };
const boxOf = (pts: Vec2[]): Box2 => {
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
  for (const [x, y] of pts) { if (x < x0) x0 = x; if (x > x1) x1 = x; if (y < y0) y0 = y; if (y > y1) y1 = y; }
  return { x0, y0, x1, y1 };
};
/** A pruning bound must not drop a pair whose distance rounds to the best so far: slack, relative (and in mm near 0). */
const PRUNE_SLACK = 1e-9;
const pruneBound = (best: number): number => best + PRUNE_SLACK * (best + 1);

/** Smallest distance from any point of `pts` to any side of the closed polyline `ring`: exactly the
 * brute-force minimum. The side whose box is nearest the points' box is measured first; after it, a
 * side whose box is farther than the best found is skipped (a hole's contour against a part's outline
 * reads a few sides, not all). The minimum does not depend on the order the sides are read in. */
function pointsToRing(pts: Vec2[], ring: Vec2[], best: number): number {
  const pb = boxOf(pts);
  const n = ring.length;
  const gaps = new Float64Array(n);
  let first = 0;
  for (let j = 0; j < n; j++) {
    const a = ring[j], b = ring[(j + 1) % n];
    // the gap between the two boxes (0 when they meet): no point of one is nearer any point of the other
    const x0 = Math.min(a[0], b[0]), y0 = Math.min(a[1], b[1]), x1 = Math.max(a[0], b[0]), y1 = Math.max(a[1], b[1]);
    gaps[j] = hypot2(Math.max(0, pb.x0 - x1, x0 - pb.x1), Math.max(0, pb.y0 - y1, y0 - pb.y1));
    if (gaps[j] < gaps[first]) first = j;
  }
  const measure = (j: number): void => {
    const a = ring[j], b = ring[(j + 1) % n];
    for (const x of pts) {
      const d = pointSegmentDistance(x, a, b);
      if (d < best) best = d;
    }
  };
  if (n > 0 && !(gaps[first] > pruneBound(best))) measure(first);
  for (let j = 0; j < n; j++) if (j !== first && !(gaps[j] > pruneBound(best))) measure(j);
  return best;
}

/** Smallest distance between two closed polylines (each given as its sample points). */
export function polylineDistance(p: Vec2[], q: Vec2[]): number {
  if (p.length === 0 || q.length === 0) return Infinity;
  const best = pointsToRing(p, q, Infinity);
  // the points of q that can be nearer p than that: within `best` of p's box
  const pb = boxOf(p), bound = pruneBound(best);
  const near = q.filter((x) => hypot2(Math.max(0, pb.x0 - x[0], x[0] - pb.x1), Math.max(0, pb.y0 - x[1], x[1] - pb.y1)) <= bound);
  return near.length === 0 ? best : pointsToRing(near, p, best);
}

/** Area centroid of the region a contour bounds (sampled arcs, sagitta 1e-3 mm). */
export function contourCentroid(c: Contour): Vec2 {
  const pts = sampleContour(c, 1e-3);
  let a = 0, cx = 0, cy = 0;
  for (let i = 0; i < pts.length; i++) {
    const p = pts[i], q = pts[(i + 1) % pts.length];
    const w = p[0] * q[1] - q[0] * p[1];
    a += w; cx += (p[0] + q[0]) * w; cy += (p[1] + q[1]) * w;
  }
  return a !== 0 ? [cx / (3 * a), cy / (3 * a)] : pts[0];
}
