// Holes of the flat: shape (round / slot / other), size, centre, countersink, and distances to the
// nearest outer edge and nearest bend. Distances are edge to edge in the flat: hole edge to outer
// contour, and hole edge to the nearer tangent line of the bend zone (bend line -/+ half the bend
// allowance), 0 when the hole reaches into the bend zone.
import type { ConeSurface, Contour, CylinderSurface, Solid, Vec2 } from '../geometry/model.ts';
import { dot, norm, point, scale, sub, hypot2 } from '../geometry/vec.ts';
import { enclosingRectangle } from './align.ts';
import { arcSweep, contourArea, contourCentroid, pointSegmentDistance, polylineDistance, sampleContour } from './segments.ts';

/** Sampling sagitta for hole distances, mm. */
const DISTANCE_SAGITTA = 1e-3;
/** Arcs this close in radius and centre are one circle, mm. */
const SAME_CIRCLE = 2e-3;

/** An outline this close to a circle everywhere is a round hole, whatever pieces the CAD wrote it in, mm. */
export const ROUND_HOLE_TOLERANCE_MM = 0.01;
/** Points per line when an outline is measured against a circle (chords bulge at their middles). */
const LINE_SAMPLES = 8;
/** Sagitta when an outline's arcs are measured against a circle, mm. */
const FIT_SAGITTA = 1e-4;

export interface HoleShape { shape: 'round' | 'slot' | 'other'; diameter: number; center: Vec2; slotLength?: number }

/** A line whose sagitta on the fitted circle is at most this is a chord of it (a curve the exporter
 * wrote as straight pieces: its vertices are on the curve), mm; a longer line is measured as it is. */
const CHORD_SAGITTA_MM = 0.02;

/** The circle through a closed outline (algebraic least squares on its vertices and arc samples), with
 * its largest radial deviation (a line's middle included: a chord's where a chord's is); null when degenerate. */
export function fitCircle(c: Contour): { center: Vec2; radius: number; deviation: number } | null {
  const pts: Vec2[] = [];
  for (const s of c) pts.push(...(s.kind === 'arc' ? sampleContour([s], FIT_SAGITTA) : [s.a]));
  if (pts.length < 3) return null;
  // centred on the mean, x^2 + y^2 + D x + E y + F = 0 by normal equations
  let mx = 0, my = 0;
  for (const p of pts) { mx += p[0]; my += p[1]; }
  mx /= pts.length; my /= pts.length;
  let sxx = 0, sxy = 0, syy = 0, sxz = 0, syz = 0, sz = 0;
  for (const p of pts) {
    const x = p[0] - mx, y = p[1] - my, z = x * x + y * y;
    sxx += x * x; sxy += x * y; syy += y * y; sxz += x * z; syz += y * z; sz += z;
  }
  const det = sxx * syy - sxy * sxy;
  if (!(Math.abs(det) > 0)) return null;
  const a = (sxz * syy - syz * sxy) / det / 2, b = (syz * sxx - sxz * sxy) / det / 2;
  const center: Vec2 = [mx + a, my + b];
  const radius = Math.sqrt(a * a + b * b + sz / pts.length);
  if (!Number.isFinite(radius)) return null;
  const off = (p: Vec2, want: number) => Math.abs(hypot2(p[0] - center[0], p[1] - center[1]) - want);
  let deviation = 0;
  for (const p of pts) deviation = Math.max(deviation, off(p, radius));
  for (const s of c) {
    if (s.kind !== 'line') continue;
    const half = hypot2(s.b[0] - s.a[0], s.b[1] - s.a[1]) / 2;
    const sagitta = half < radius ? radius - Math.sqrt(radius * radius - half * half) : Infinity;
    for (let k = 1; k < LINE_SAMPLES; k++) {
      const u = k / LINE_SAMPLES, p: Vec2 = [s.a[0] + (s.b[0] - s.a[0]) * u, s.a[1] + (s.b[1] - s.a[1]) * u];
      // on a chord, the distance from the centre a point at u along it has: sqrt(R^2 - half^2 + (2u - 1)^2 half^2)
      const onChord = Math.sqrt(Math.max(0, radius * radius - half * half + ((2 * u - 1) * half) ** 2));
      deviation = Math.max(deviation, off(p, sagitta <= CHORD_SAGITTA_MM ? onChord : radius));
    }
  }
  return { center, radius, deviation };
}

export function classifyHole(c: Contour): HoleShape {
  if (c.length === 1 && c[0].kind === 'arc' && Math.abs(Math.abs(arcSweep(c[0])) - 2 * Math.PI) < 1e-6) {
    return { shape: 'round', diameter: 2 * c[0].radius, center: c[0].center };
  }
  // round by measured shape, not by how many arcs and lines the exporter split it into
  const circle = fitCircle(c);
  if (circle && circle.deviation <= ROUND_HOLE_TOLERANCE_MM) return { shape: 'round', diameter: 2 * circle.radius, center: circle.center };
  const arcs = c.filter((s) => s.kind === 'arc') as Array<Extract<Contour[number], { kind: 'arc' }>>;
  const lines = c.filter((s) => s.kind === 'line');
  if (c.length === 4 && arcs.length === 2 && lines.length === 2 && Math.abs(arcs[0].radius - arcs[1].radius) < SAME_CIRCLE
    && arcs.every((a) => Math.abs(Math.abs(arcSweep(a)) - Math.PI) < 1e-3)) {
    const spacing = hypot2(arcs[1].center[0] - arcs[0].center[0], arcs[1].center[1] - arcs[0].center[1]);
    return {
      shape: 'slot', diameter: arcs[0].radius + arcs[1].radius, slotLength: spacing + arcs[0].radius + arcs[1].radius,
      center: [(arcs[0].center[0] + arcs[1].center[0]) / 2, (arcs[0].center[1] + arcs[1].center[1]) / 2],
    };
  }
  return { shape: 'other', diameter: enclosingRectangle(c).width, center: contourCentroid(c) };
}

/**
 * A hole outline that is round by measure, as one full circle (the DXF writes one CIRCLE), at its wall
 * cylinder's diameter where the wall is a cylinder of that size (a hole a few degrees off the sheet
 * normal is an ellipse on the skin, a hair longer than the drill): other outlines unchanged.
 */
export function roundHoleContour(solid: Solid, c: Contour, sideFaces: number[]): Contour {
  const shape = classifyHole(c);
  if (shape.shape !== 'round') return c;
  const fitted = shape.diameter / 2;
  const wall = sideFaces.map((f) => solid.faces[f]?.surface).find((s): s is CylinderSurface => s?.kind === 'cylinder' && Math.abs(s.radius - fitted) <= ROUND_HOLE_TOLERANCE_MM);
  if (!wall && c.length === 1) return c;
  return [{ kind: 'arc', center: shape.center, radius: wall ? wall.radius : fitted, startDegrees: 0, endDegrees: -360, ccw: false }];
}

/** How far a hole's ends on the two skins may be apart, mm: within the laser's cutting tolerance
 * (+-0.1 mm, the usual published figure) a hole drilled off the normal is cut as a straight one. */
export const HOLE_TILT_SHIFT_TOLERANCE_MM = 0.1;
/** A wall more than this off the normal of every plane it meets is no hole drilled through the skin, degrees. */
const MAX_HOLE_TILT_DEGREES = 30;

/** A round hole's wall axis against the sheet normal (of a plane the wall meets): the tilt, degrees,
 * and how far that moves the hole between the skins of a sheet `thickness` thick, mm; null without
 * a cylindrical wall meeting a plane. */
export function holeTilt(solid: Solid, sideFaces: number[], thickness: number): { degrees: number; shift: number } | null {
  for (const f of sideFaces) {
    const wall = solid.faces[f]?.surface;
    if (wall?.kind !== 'cylinder') continue;
    // the skin is the neighbouring plane most nearly across the wall (a side plane runs along it)
    let cos = -1;
    for (const g of solid.faces[f].neighbours) { const s = solid.faces[g].surface; if (s.kind === 'plane') cos = Math.max(cos, Math.abs(dot(wall.axis, s.normal))); }
    if (cos < Math.cos(MAX_HOLE_TILT_DEGREES * Math.PI / 180)) continue;
    const angle = Math.acos(Math.min(1, cos));
    return { degrees: (angle * 180) / Math.PI, shift: thickness * Math.tan(angle) };
  }
  return null;
}

export interface Countersink { outerDiameter: number; angleDegrees: number; throughRadius: number | null; onSkin: boolean; wallFace: number | null }

/** A cone coaxial with the hole wall (on this side or the far side) is a countersink. */
export function findCountersink(solid: Solid, sideFaces: number[]): Countersink | null {
  const cones = new Set<number>();
  const onSkin = new Set<number>();
  let wall: CylinderSurface | null = null, wallFace: number | null = null;
  for (const f of sideFaces) {
    const s = solid.faces[f].surface;
    if (s.kind === 'cone') { cones.add(f); onSkin.add(f); }
    if (s.kind === 'cylinder' && !wall) { wall = s; wallFace = f; }
  }
  for (const f of [...sideFaces, ...cones]) {
    for (const g of solid.faces[f].neighbours) {
      const s = solid.faces[g].surface;
      if (s.kind === 'cone') cones.add(g);
      if (s.kind === 'cylinder' && !wall && cones.has(f)) { wall = s; wallFace = g; }
    }
  }
  for (const id of cones) {
    const cone = solid.faces[id].surface as ConeSurface;
    if (wall && norm(sub(sub(cone.apex, wall.origin), scale(wall.axis, dot(sub(cone.apex, wall.origin), wall.axis)))) > SAME_CIRCLE) continue;
    let outer = 0;
    for (const v of solid.faces[id].vertices) {
      const d = sub(point(solid.points, v), cone.apex);
      outer = Math.max(outer, norm(sub(d, scale(cone.axis, dot(d, cone.axis)))));
    }
    return { outerDiameter: 2 * outer, angleDegrees: 2 * cone.halfAngleDegrees, throughRadius: wall ? wall.radius : null, onSkin: onSkin.has(id), wallFace };
  }
  return null;
}

/** A contour's samples for the distance measures below: taken once per contour by the caller, since
 * a hole is measured against the outline and against every bend, and every hole of a part against the
 * same outline (a small hole's arc is some hundred points, each a sine and a cosine). */
export function distanceSamples(c: Contour): Vec2[] { return sampleContour(c, DISTANCE_SAGITTA); }

/** Distance from a hole to the outline, both as distanceSamples. */
export function holeEdgeDistance(hole: Vec2[], outer: Vec2[]): number {
  return polylineDistance(hole, outer);
}

export interface BendZone { index: number; line: [Vec2, Vec2]; allowance: number }

/** Relative (and, near 0, mm) slack of the box bound that skips far bends in nearestBend: a skipped
 * bend's distance must exceed the nearest by more than rounding. */
const BEND_PRUNE_SLACK = 1e-9;

/** The bend zone nearest a hole (its distanceSamples). */
export function nearestBend(pts: Vec2[], bends: BendZone[]): { index: number; distance: number } | null {
  let best: { index: number; distance: number } | null = null;
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
  for (const [x, y] of pts) { if (x < x0) x0 = x; if (x > x1) x1 = x; if (y < y0) y0 = y; if (y > y1) y1 = y; }
  for (const b of bends) {
    if (best) {
      // no point of the hole is nearer the bend line than the gap between their boxes: a bend whose
      // gap, less its half allowance, exceeds the nearest so far (with a rounding slack) cannot win
      const [a, c] = b.line;
      const gap = hypot2(Math.max(0, x0 - Math.max(a[0], c[0]), Math.min(a[0], c[0]) - x1), Math.max(0, y0 - Math.max(a[1], c[1]), Math.min(a[1], c[1]) - y1));
      if (gap - b.allowance / 2 > best.distance + BEND_PRUNE_SLACK * (best.distance + 1)) continue;
    }
    let d = Infinity;
    for (let i = 0; i < pts.length && d > 0; i++) d = Math.min(d, segmentDistance(pts[i], pts[(i + 1) % pts.length], b.line[0], b.line[1]));
    d = Math.max(0, d - b.allowance / 2);
    if (!best || d < best.distance) best = { index: b.index, distance: d };
  }
  return best;
}

/** Distance between segments pq and ab (0 when they cross). */
function segmentDistance(p: Vec2, q: Vec2, a: Vec2, b: Vec2): number {
  // side(a, b, p), side(a, b, q), side(p, q, a), side(p, q, b) written out: a call returning a number
  // that is not inlined boxes it, and this runs for every sample of every hole against every bend
  const abx = b[0] - a[0], aby = b[1] - a[1], pqx = q[0] - p[0], pqy = q[1] - p[1];
  const d1 = abx * (p[1] - a[1]) - aby * (p[0] - a[0]), d2 = abx * (q[1] - a[1]) - aby * (q[0] - a[0]);
  const d3 = pqx * (a[1] - p[1]) - pqy * (a[0] - p[0]), d4 = pqx * (b[1] - p[1]) - pqy * (b[0] - p[0]);
  if (((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0))) return 0;
  return Math.min(pointSegmentDistance(p, a, b), pointSegmentDistance(q, a, b), pointSegmentDistance(a, p, q), pointSegmentDistance(b, p, q));
}

export { contourArea };
