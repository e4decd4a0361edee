// Flat contours from the skin's boundary: each boundary run (one skin face against one side face)
// maps exactly into the flat and is recovered as a line or a circular arc. Planar cut edges map to
// lines, hole and corner walls to arcs (centre and radius from the fitted wall when it has one),
// and edges on an unrolled bend strip to straight lines. Any other edge on a bend strip (a hole or
// vent crossing the bend) unrolls point by point into a tight polyline (bend-curve.ts).
import type { Contour, Segment, Solid, Surface, Vec2, Vec3 } from '../geometry/model.ts';
import { dot, point, hypot2 } from '../geometry/vec.ts';
import { HalfEdges } from '../geometry/half-edges.ts';
import { contourArea } from './segments.ts';
import { flatPoint, type FaceMap, type Unfolding } from './unfold.ts';
import { bendCurve } from './bend-curve.ts';
import { applyRigid } from './rigid3.ts';

/** A run whose points stray less than this from its chord is a line, mm. */
const LINE_TOLERANCE = 1e-4;
/** A run whose points stray less than this from a circle is that arc, mm. */
const ARC_TOLERANCE = 2e-3;
/** A curve on a bend strip is an arc when all its re-found points lie this close to one, mm. */
const BEND_ARC_TOLERANCE = 1e-4;
/** Consecutive flat points closer than this are one point, mm. */
const POINT_TOLERANCE = 1e-7;
/** A lone arc sweeping within this of a full turn is a whole circle, degrees. */
export const FULL_TURN_TOLERANCE_DEGREES = 1e-6;
const RAD = 180 / Math.PI;

export interface FlatLoop {
  contour: Contour;
  /** side faces the loop runs along (hole walls, countersinks, edges) */
  sideFaces: number[];
  area: number;
}

export interface Warnings { push(code: string, message: string): void }

interface Step { from: number; to: number; face: number; side: number }

function boundarySteps(solid: Solid, skin: Set<number>, seams: Set<string>): Step[] {
  const faceOfTri = new Int32Array(solid.triangles.length / 3).fill(-1);
  for (const f of solid.faces) for (const t of f.triangles) faceOfTri[t] = f.id;
  const owner = new HalfEdges(solid.triangles.length);
  for (let t = 0; t < faceOfTri.length; t++) {
    for (let k = 0; k < 3; k++) owner.set(solid.triangles[t * 3 + k], solid.triangles[t * 3 + ((k + 1) % 3)], faceOfTri[t]);
  }
  // whether the edge between skin faces f and side is a seam, asked once per pair (most edges are a
  // face's own inner edges: f with itself)
  const seamOf = new Map<number, boolean>();
  const isSeam = (f: number, side: number): boolean => {
    const key = f * solid.faces.length + side;
    let s = seamOf.get(key);
    if (s === undefined) seamOf.set(key, (s = seams.has(`${f}:${side}`)));
    return s;
  };
  const steps: Step[] = [];
  for (const f of skin) {
    for (const t of solid.faces[f].triangles) {
      for (let k = 0; k < 3; k++) {
        const a = solid.triangles[t * 3 + k], b = solid.triangles[t * 3 + ((k + 1) % 3)];
        if (a === b) continue;
        const side = owner.get(b, a);
        if (side >= 0 && skin.has(side) && !isSeam(f, side)) continue;
        steps.push({ from: a, to: b, face: f, side });
      }
    }
  }
  return steps;
}

function chainLoops(steps: Step[]): Step[][] {
  const byStart = new Map<number, Step[]>();
  for (const s of steps) { if (!byStart.has(s.from)) byStart.set(s.from, []); byStart.get(s.from)!.push(s); }
  const used = new Set<Step>();
  const loops: Step[][] = [];
  const ordered = steps.slice().sort((a, b) => a.from - b.from || a.to - b.to);
  for (const first of ordered) {
    if (used.has(first)) continue;
    const loop: Step[] = [];
    let cur: Step | undefined = first;
    while (cur && !used.has(cur)) {
      used.add(cur); loop.push(cur);
      const cands: Step[] = (byStart.get(cur.to) ?? []).filter((s) => !used.has(s));
      const prev: Step = cur;
      cur = cands.find((s) => s.face === prev.face) ?? cands[0];
    }
    loops.push(loop);
  }
  return loops;
}

function circleFit(pts: Vec2[]): { center: Vec2; radius: number } | null {
  // Kasa algebraic fit, centred for conditioning
  const n = pts.length;
  let mx = 0, my = 0;
  for (const p of pts) { mx += p[0]; my += p[1]; }
  mx /= n; my /= n;
  let suu = 0, svv = 0, suv = 0, suuu = 0, svvv = 0, suvv = 0, svuu = 0;
  for (const p of pts) {
    const u = p[0] - mx, v = p[1] - my;
    suu += u * u; svv += v * v; suv += u * v; suuu += u * u * u; svvv += v * v * v; suvv += u * v * v; svuu += v * u * u;
  }
  const det = suu * svv - suv * suv;
  if (Math.abs(det) < 1e-24) return null;
  const b1 = (suuu + suvv) / 2, b2 = (svvv + svuu) / 2;
  const uc = (b1 * svv - b2 * suv) / det, vc = (suu * b2 - suv * b1) / det;
  return { center: [uc + mx, vc + my], radius: Math.sqrt(uc * uc + vc * vc + (suu + svv) / n) };
}

function chordDeviation(pts: Vec2[]): number {
  const a = pts[0], b = pts[pts.length - 1];
  const dx = b[0] - a[0], dy = b[1] - a[1], l = hypot2(dx, dy);
  if (l < POINT_TOLERANCE) return Infinity;
  let dev = 0;
  for (const p of pts) dev = Math.max(dev, Math.abs((p[0] - a[0]) * dy - (p[1] - a[1]) * dx) / l);
  return dev;
}

function arcThrough(pts: Vec2[], center: Vec2, radius: number): Segment {
  const ang = pts.map((p) => Math.atan2(p[1] - center[1], p[0] - center[0]));
  let sweep = 0;
  for (let i = 1; i < ang.length; i++) {
    let d = ang[i] - ang[i - 1];
    if (d > Math.PI) d -= 2 * Math.PI; if (d < -Math.PI) d += 2 * Math.PI;
    sweep += d;
  }
  const start = ang[0] * RAD;
  return { kind: 'arc', center, radius, startDegrees: start, endDegrees: start + sweep * RAD, ccw: sweep > 0 };
}

/** Lines and arcs for one run of flat points along one side face. */
function fitRun(solid: Solid, u: Unfolding, face: number, side: number, pts: Vec2[], pts3: Vec3[], warnings: Warnings): Segment[] {
  if (pts.length < 2) return [];
  const closed = hypot2(pts[0][0] - pts[pts.length - 1][0], pts[0][1] - pts[pts.length - 1][1]) < POINT_TOLERANCE;
  const onBend = u.maps.get(face)!.cylinder !== null;
  const wall = side >= 0 ? solid.faces[side].surface : null;
  const map = u.maps.get(face)!;
  if (onBend) return fitBendRun(map, wall, face, side, pts3, closed, warnings);
  if (!closed && chordDeviation(pts) < LINE_TOLERANCE) return [{ kind: 'line', a: pts[0], b: pts[pts.length - 1] }];
  let circle: { center: Vec2; radius: number } | null = null;
  if (wall && wall.kind === 'cylinder' && Math.abs(Math.abs(dot(wall.axis, rotateBack(u, face))) - 1) < 1e-6) {
    const c = applyRigid(map.motion, wall.origin);
    circle = { center: [c[0], c[1]], radius: wall.radius };
  } else if (pts.length >= 3) {
    circle = circleFit(closed ? pts.slice(0, -1) : pts);
  }
  if (circle) {
    let dev = 0;
    for (const p of pts) dev = Math.max(dev, Math.abs(hypot2(p[0] - circle.center[0], p[1] - circle.center[1]) - circle.radius));
    if (dev < ARC_TOLERANCE) return [arcThrough(pts, circle.center, circle.radius)];
  }
  warnings.push('approximated_contour', `the flat edge along face ${side} is neither a line nor an arc; it is written as ${pts.length - 1} straight segments`);
  return polyline(pts);
}

function polyline(pts: Vec2[]): Segment[] {
  const out: Segment[] = [];
  for (let i = 1; i < pts.length; i++) out.push({ kind: 'line', a: pts[i - 1], b: pts[i] });
  return out;
}

/**
 * An edge on an unrolled bend strip: re-found between the tessellation points (a run with two points
 * may still be curved), then a line or arc when the dense points say so, else a tight polyline.
 */
function fitBendRun(map: FaceMap, wall: Surface | null, face: number, side: number, pts3: Vec3[], closed: boolean, warnings: Warnings): Segment[] {
  const curve = bendCurve(map, wall, pts3);
  const dense = curve.points;
  if (!closed && chordDeviation(dense) < LINE_TOLERANCE) return [{ kind: 'line', a: dense[0], b: dense[dense.length - 1] }];
  const fit = curve.exact && dense.length >= 3 ? circleFit(closed ? dense.slice(0, -1) : dense) : null;
  if (fit && dense.every((p) => Math.abs(hypot2(p[0] - fit.center[0], p[1] - fit.center[1]) - fit.radius) < BEND_ARC_TOLERANCE)) {
    return [arcThrough(dense, fit.center, fit.radius)];
  }
  if (!curve.exact) {
    warnings.push('approximated_contour', `the flat edge where face ${side} crosses bend face ${face} has no closed form (free-form wall): it is a cubic spline through the exact boundary points, written as ${dense.length - 1} straight segments (a few microns from the true curve where the tessellation is fine enough)`);
  }
  return polyline(dense);
}

/** The skin face's outward normal in source coordinates (for the wall-axis test). */
function rotateBack(u: Unfolding, face: number): Vec3 {
  const m = u.maps.get(face)!.motion.rotation;
  // third row of the rotation is the source direction that maps to +Z
  return m[2];
}

function sameLine(a: Segment, b: Segment): boolean {
  if (a.kind !== 'line' || b.kind !== 'line') return false;
  const dx = a.b[0] - a.a[0], dy = a.b[1] - a.a[1], l = hypot2(dx, dy);
  if (l < POINT_TOLERANCE) return true;
  const off = Math.abs((b.b[0] - a.a[0]) * dy - (b.b[1] - a.a[1]) * dx) / l;
  return off < LINE_TOLERANCE;
}

function sameCircle(a: Segment, b: Segment): boolean {
  return a.kind === 'arc' && b.kind === 'arc' && a.ccw === b.ccw && Math.abs(a.radius - b.radius) < ARC_TOLERANCE
    && hypot2(a.center[0] - b.center[0], a.center[1] - b.center[1]) < ARC_TOLERANCE;
}

function merge(a: Segment, b: Segment): Segment {
  if (a.kind === 'line' && b.kind === 'line') return { kind: 'line', a: a.a, b: b.b };
  const x = a as Extract<Segment, { kind: 'arc' }>, y = b as Extract<Segment, { kind: 'arc' }>;
  const sweepY = y.endDegrees - y.startDegrees;
  return { ...x, endDegrees: x.endDegrees + sweepY };
}

/** Merges collinear lines and co-circular arcs, drops zero-length pieces; the loop stays closed. */
export function simplifyContour(c: Contour): Contour {
  let segs = c.filter((s) => s.kind === 'arc' ? Math.abs(s.endDegrees - s.startDegrees) * s.radius / RAD > POINT_TOLERANCE
    : hypot2(s.b[0] - s.a[0], s.b[1] - s.a[1]) > POINT_TOLERANCE);
  let changed = true;
  while (changed && segs.length > 1) {
    changed = false;
    for (let i = 0; i < segs.length && segs.length > 1; i++) {
      const j = (i + 1) % segs.length;
      if (sameLine(segs[i], segs[j]) || sameCircle(segs[i], segs[j])) {
        const m = merge(segs[i], segs[j]);
        if (j === 0) { segs = [m, ...segs.slice(1, i)]; } else { segs.splice(i, 2, m); }
        changed = true;
      }
    }
    segs = segs.filter((s) => s.kind === 'arc' || hypot2(s.b[0] - s.a[0], s.b[1] - s.a[1]) > POINT_TOLERANCE);
  }
  // a whole circle is exactly one turn: consumers must not read -360.0000001 degrees as an empty arc
  if (segs.length === 1 && segs[0].kind === 'arc') {
    const s = segs[0], sweep = s.endDegrees - s.startDegrees;
    if (Math.abs(Math.abs(sweep) - 360) < FULL_TURN_TOLERANCE_DEGREES) segs = [{ ...s, endDegrees: s.startDegrees + Math.sign(sweep) * 360 }];
  }
  return segs;
}

export function flatLoops(solid: Solid, u: Unfolding, seams: Set<string>, warnings: Warnings): FlatLoop[] {
  const loops = chainLoops(boundarySteps(solid, u.skin, seams));
  const out: FlatLoop[] = [];
  for (const loop of loops) {
    // start at a change of (face, side) so no run wraps around the start
    let start = 0;
    for (let i = 0; i < loop.length; i++) {
      const p = loop[(i + loop.length - 1) % loop.length];
      if (p.face !== loop[i].face || p.side !== loop[i].side) { start = i; break; }
    }
    const steps = loop.slice(start).concat(loop.slice(0, start));
    const segs: Segment[] = [];
    const sideFaces = new Set<number>();
    let i = 0;
    while (i < steps.length) {
      const { face, side } = steps[i];
      const map = u.maps.get(face)!;
      const pts3: Vec3[] = [point(solid.points, steps[i].from)];
      while (i < steps.length && steps[i].face === face && steps[i].side === side) {
        pts3.push(point(solid.points, steps[i].to));
        i++;
      }
      const pts = pts3.map((p) => flatPoint(map, p));
      if (side >= 0) sideFaces.add(side);
      const run = fitRun(solid, u, face, side, pts, pts3, warnings);
      // a sharp bend opens a gap between the two faces' images of the same vertex: bridge it
      const last = segs.length ? endOf(segs[segs.length - 1]) : null;
      if (last && run.length) {
        const first = startOf(run[0]);
        const gap = hypot2(first[0] - last[0], first[1] - last[1]);
        if (gap > LINE_TOLERANCE) segs.push({ kind: 'line', a: last, b: first });
        else if (run[0].kind === 'line') run[0] = { ...run[0], a: last };
      }
      segs.push(...run);
    }
    if (segs.length) {
      const first = startOf(segs[0]), last = endOf(segs[segs.length - 1]);
      const gap = hypot2(first[0] - last[0], first[1] - last[1]);
      if (gap > LINE_TOLERANCE) segs.push({ kind: 'line', a: last, b: first });
      else if (segs[0].kind === 'line') segs[0] = { ...segs[0], a: last };
      else if (segs[segs.length - 1].kind === 'line') { const l = segs[segs.length - 1] as Extract<Segment, { kind: 'line' }>; segs[segs.length - 1] = { ...l, b: first }; }
    }
    const contour = simplifyContour(segs);
    if (contour.length === 0) continue;
    out.push({ contour, sideFaces: [...sideFaces].sort((a, b) => a - b), area: contourArea(contour) });
  }
  return out;
}

function startOf(s: Segment): Vec2 {
  return s.kind === 'line' ? s.a : [s.center[0] + s.radius * Math.cos(s.startDegrees / RAD), s.center[1] + s.radius * Math.sin(s.startDegrees / RAD)];
}
function endOf(s: Segment): Vec2 {
  return s.kind === 'line' ? s.b : [s.center[0] + s.radius * Math.cos(s.endDegrees / RAD), s.center[1] + s.radius * Math.sin(s.endDegrees / RAD)];
}
