// Cut contours on the unrolled outer wall, as a tube-laser programmer reads them: x along the axis
// (normalized frame, mm), s around the outer perimeter (mm, the parametrisation of unroll.ts).
// Points follow the exact cut curves between mesh vertices, and a contour crossing the seam
// s = 0 / perimeter is split there so no piece runs across the whole drawing.
import type { Solid, Surface, TubeAnalysis, Vec2, Vec3 } from '../geometry/model.ts';
import { add, dot, norm, point, scale, sub } from '../geometry/vec.ts';
import type { Profile } from './profile.ts';
import type { CutEdge } from './cuts.ts';
import { outerPerimeter, perimeterPosition } from './unroll.ts';
import { projectOntoIntersection, sameSurface } from './surfaces.ts';
import { DEGENERATE_CHORD_MM, MIDPOINT_MOVE_SHARE } from './tolerances.ts';

/** A drawn chord may sit this far from the exact cut curve before it is split, mm (far below a pixel). */
const OUTLINE_SAGITTA_MM = 0.01;
/** At most 2^n chords per mesh edge. */
const OUTLINE_REFINEMENT_LEVELS = 6;
/** Corner positions closer than this are one line (a sharp corner has no arc between its tangents), mm. */
const SAME_CORNER_MM = 1e-6;

/** Where the unrolled wall starts: the tube axis d and the axial position of x = 0 (source frame). */
export interface Unroll { d: Vec3; x0: number; p: Profile }

/**
 * Points strictly between p and q on the curve where surfaces a and b meet, in order. The
 * subdivision is the one loopLength measures with (midpoint projection, same move limit), only
 * stopped sooner, so every point lies inside the extent the tube length is taken from.
 */
function curvePoints(a: Surface, b: Surface, p: Vec3, q: Vec3, level: number, out: Vec3[]): void {
  const chord = norm(sub(q, p));
  if (chord < DEGENERATE_CHORD_MM || level === 0) return;
  const mid = scale(add(p, q), 0.5);
  const m = projectOntoIntersection(a, b, mid, MIDPOINT_MOVE_SHARE * chord);
  if (!m || norm(sub(m, mid)) < OUTLINE_SAGITTA_MM) return;
  curvePoints(a, b, p, m, level - 1, out);
  out.push(m);
  curvePoints(a, b, m, q, level - 1, out);
}

/** The chain's points in order, the exact curve filled in; the last edge's end point included. */
function chainPoints(solid: Solid, edges: CutEdge[]): Vec3[] {
  const out: Vec3[] = [];
  for (const e of edges) {
    const p = point(solid.points, e.a), q = point(solid.points, e.b);
    out.push(p);
    const sa = solid.faces[e.skinFace].surface, sb = e.cutFace >= 0 ? solid.faces[e.cutFace].surface : null;
    if (sb && sb.kind !== 'other' && sa.kind !== 'other') curvePoints(sa, sb, p, q, OUTLINE_REFINEMENT_LEVELS, out);
  }
  if (edges.length) out.push(point(solid.points, edges[edges.length - 1].b));
  return out;
}

function unrolled(u: Unroll, q: Vec3): Vec2 {
  const { p } = u;
  const y = dot(q, p.e2) - dot(p.center, p.e2), z = dot(q, p.e3) - dot(p.center, p.e3);
  return [dot(u.d, q) - u.x0, perimeterPosition(p, y, z)];
}

/**
 * Splits a polyline on the cylinder s mod P into pieces inside [0, P]. `pts` of a closed contour
 * end where they start. A piece of a closed contour cut by the seam continues in the first piece,
 * so the two are joined (a hole straddling the seam gives one piece at each side; an end contour,
 * going once round, one piece from one side to the other).
 */
function splitAtSeam(pts: Vec2[], perimeter: number, closed: boolean): Vec2[][] {
  if (pts.length < 2) return [];
  const P = perimeter;
  // continuous s: no step of a contour goes half way round
  const us: number[] = [pts[0][1]];
  for (let i = 1; i < pts.length; i++) {
    let ds = pts[i][1] - pts[i - 1][1];
    if (ds > P / 2) ds -= P; else if (ds < -P / 2) ds += P;
    us.push(us[i - 1] + ds);
  }
  const at = (x: number, u: number, k: number): Vec2 => [x, Math.min(P, Math.max(0, u - k * P))];
  const pieces: Vec2[][] = [];
  let cur: Vec2[] | null = null, curK = NaN;
  for (let i = 0; i + 1 < pts.length; i++) {
    const [xa, ua] = [pts[i][0], us[i]], [xb, ub] = [pts[i + 1][0], us[i + 1]];
    // the seam crossings strictly inside this step, in walking order
    const stops: Array<[number, number]> = [[xa, ua]];
    const lo = Math.min(ua, ub), hi = Math.max(ua, ub);
    const seams: number[] = [];
    for (let j = Math.floor(lo / P) + 1; j * P < hi; j++) if (j * P > lo) seams.push(j * P);
    if (ub < ua) seams.reverse();
    for (const b of seams) stops.push([xa + ((b - ua) / (ub - ua)) * (xb - xa), b]);
    stops.push([xb, ub]);
    for (let k = 0; k + 1 < stops.length; k++) {
      const [x0, u0] = stops[k], [x1, u1] = stops[k + 1];
      const band = Math.floor((u0 + u1) / 2 / P);
      if (!cur || band !== curK) { cur = [at(x0, u0, band)]; curK = band; pieces.push(cur); }
      cur.push(at(x1, u1, band));
    }
  }
  if (closed && pieces.length > 1) {
    const last = pieces[pieces.length - 1], first = pieces[0];
    const e = last[last.length - 1], s = first[0];
    if (Math.abs(e[0] - s[0]) < 1e-9 && Math.abs(e[1] - s[1]) < 1e-9) {
      pieces[0] = [...last, ...first.slice(1)];
      pieces.pop();
    }
  }
  return pieces;
}

/** A closed cut contour (chained skin boundary edges) on the unrolled wall. */
export function contourOutline(solid: Solid, edges: CutEdge[], u: Unroll): Vec2[][] {
  const pts = chainPoints(solid, edges).map((q) => unrolled(u, q));
  return splitAtSeam(pts, outerPerimeter(u.p), true);
}

/**
 * The notch part of an end contour: its runs along cut faces other than the end's main plane
 * (the one with the longest share of the contour, as classifyEndLoop takes it).
 */
export function notchOutline(solid: Solid, edges: CutEdge[], u: Unroll): Vec2[][] {
  const groups: Array<{ surface: Surface; length: number }> = [];
  const groupOf = (e: CutEdge) => {
    if (e.cutFace < 0) return null;
    const s = solid.faces[e.cutFace].surface;
    return groups.find((g) => g.surface === s || sameSurface(g.surface, s)) ?? null;
  };
  for (const e of edges) {
    if (e.cutFace < 0) continue;
    const len = norm(sub(point(solid.points, e.b), point(solid.points, e.a)));
    const g = groupOf(e);
    if (g) g.length += len; else groups.push({ surface: solid.faces[e.cutFace].surface, length: len });
  }
  if (groups.length < 2) return [];
  const main = groups.reduce((a, b) => (b.length > a.length ? b : a));
  const onMain = edges.map((e) => groupOf(e) === main);
  const start = onMain.indexOf(true);
  if (start < 0) return [];
  // start the walk on the main plane so no notch run is cut in two by the loop's start
  const ordered = [...edges.slice(start), ...edges.slice(0, start)], flags = [...onMain.slice(start), ...onMain.slice(0, start)];
  const runs: CutEdge[][] = [];
  let run: CutEdge[] = [];
  ordered.forEach((e, i) => {
    if (!flags[i]) { run.push(e); return; }
    if (run.length) runs.push(run);
    run = [];
  });
  if (run.length) runs.push(run);
  const P = outerPerimeter(u.p);
  return runs.flatMap((r) => splitAtSeam(chainPoints(solid, r).map((q) => unrolled(u, q)), P, false));
}

type Section = Pick<TubeAnalysis, 'outerDiameter' | 'outerWidth' | 'outerHeight' | 'cornerRadius'>;

function sectionProfile(t: Section): Profile {
  const round = t.outerDiameter !== null;
  return {
    profile: round ? 'round' : 'rectangular', outerDiameter: t.outerDiameter, outerWidth: t.outerWidth, outerHeight: t.outerHeight,
    wall: 0, cornerRadius: t.cornerRadius, center: [0, 0, 0], e2: [0, 1, 0], e3: [0, 0, 1],
  };
}

/** Outer perimeter of a recognised tube's section, mm: the s range of its unrolled wall. */
export function unrolledPerimeter(t: Section): number {
  return outerPerimeter(sectionProfile(t));
}

/**
 * Extent of a cut's outline on the unrolled wall, mm: along the axis (x) and around it (s). s is
 * measured on the circle, so a window the seam splits in two is its own size, not the perimeter: the
 * arc that holds every point is the perimeter less the widest empty gap between them.
 */
export function outlineExtent(outline: Vec2[][] | undefined, perimeter: number): { x: number; s: number } | null {
  const pts = (outline ?? []).flat();
  if (pts.length < 3) return null;
  const xs = pts.map((q) => q[0]);
  const ss = pts.map((q) => q[1]).sort((a, b) => a - b);
  let gap = ss[0] + perimeter - ss[ss.length - 1];
  for (let i = 0; i + 1 < ss.length; i++) gap = Math.max(gap, ss[i + 1] - ss[i]);
  return { x: Math.max(...xs) - Math.min(...xs), s: perimeter - gap };
}

/**
 * s of the lines where a rectangular tube's flat walls meet its corner arcs (both tangent lines of
 * each rounded corner, one line per sharp corner), ascending; none for a round tube.
 */
export function cornerPositions(t: Section): number[] {
  if (t.outerDiameter !== null || t.outerWidth === null || t.outerHeight === null) return [];
  const p = sectionProfile(t);
  const a = t.outerWidth / 2, b = t.outerHeight / 2, r = t.cornerRadius ?? 0;
  const tangents: Vec2[] = [[a, b - r], [a - r, b], [-a + r, b], [-a, b - r], [-a, -b + r], [-a + r, -b], [a - r, -b], [a, -b + r]];
  const out: number[] = [];
  for (const [y, z] of tangents) {
    const s = perimeterPosition(p, y, z);
    if (!out.some((o) => Math.abs(o - s) < SAME_CORNER_MM)) out.push(s);
  }
  return out.sort((x, y) => x - y);
}
