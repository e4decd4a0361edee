// Precise refusals: what a tube-like solid is when it is not a straight tube of constant section
// (solid bar, bent tube, tapered or stepped section), in words a customer can act on.
import type { Solid, Refusal, Surface, Vec3 } from '../geometry/model.ts';
import { dot } from '../geometry/vec.ts';
import type { SectionLoop } from './section.ts';
import type { Profile } from './profile.ts';
import { runsAlong, sameSurface, parallelDirections, distanceToLine } from './surfaces.ts';
import { surfaceClasses } from './classes.ts';
import { MAX_WALL_FRACTION, BAR_MIN_ASPECT, SAME_SURFACE_TOLERANCE_MM, COAXIAL_TOLERANCE_MM, FULL_RING_DEGREES, END_REACH_MM, SHAFT_MIN_TURNED_AREA_FRACTION, SHAFT_MIN_FILL, SHAFT_BORE_LENGTH_FRACTION } from './tolerances.ts';

export const fmt = (v: number) => Number(v.toFixed(2)).toString();

export function refuse(message: string): Refusal {
  return { kind: 'refused', reason: 'not_a_tube', message, process: 'tube_laser' };
}

function describeSurface(s: Surface): string {
  if (s.kind === 'cylinder') return `${s.convex ? 'outer' : 'inner'} cylinder Ø${fmt(2 * s.radius)}`;
  if (s.kind === 'cone') return `cone of half-angle ${fmt(s.halfAngleDegrees)}°`;
  if (s.kind === 'plane') return 'plane';
  return `${s.hint && s.hint !== 'unknown' ? s.hint : 'curved'} face`;
}

/** Why a wall face seen in a ring section does not run along the axis. */
export function crookedWallMessage(s: Surface): string {
  if (s.kind === 'cone') return 'the tube has a varying section: its wall is conical (tapered), not parallel to the axis';
  if (s.kind === 'cylinder') return `the tube is bent: part of its wall (${describeSurface(s)}) runs along another axis`;
  if (s.kind === 'plane') return 'the tube has a varying section: a wall face is inclined to the axis';
  return `the tube is bent or its section varies: its wall includes a ${describeSurface(s)} that is not straight along the axis`;
}

export function sectionSizeSummary(solid: Solid, outer: SectionLoop, inner: SectionLoop): string {
  return surfaceClasses(solid, [...outer.faces, ...inner.faces]).map(describeSurface).join(', ');
}

/** A solid prism along d: a bar (refused) or a plate-like part (null, for the sheet recogniser). */
export function judgeSolidPrism(solid: Solid, loops: SectionLoop[], d: Vec3, length: number): Refusal | null {
  const faces = new Set<number>();
  for (const l of loops) for (const f of l.faces) faces.add(f);
  const classes = surfaceClasses(solid, faces);
  if (!classes.every((s) => runsAlong(s, d))) return null;
  const cyl = classes.filter((s) => s.kind === 'cylinder');
  if (classes.length === 1 && cyl.length === 1 && cyl[0].kind === 'cylinder' && cyl[0].convex) {
    const dia = 2 * cyl[0].radius;
    if (length >= dia) return refuse(`solid round bar Ø${fmt(dia)} x ${fmt(length)} mm: a solid bar, not a tube (it has no bore)`);
    return null;
  }
  const planes = classes.filter((s) => s.kind === 'plane');
  if (planes.length === 4 && cyl.every((c) => c.kind === 'cylinder' && c.convex) && (cyl.length === 0 || cyl.length === 4)) {
    const sizes: number[] = [];
    for (const p of planes) {
      if (p.kind !== 'plane') continue;
      const q = planes.find((o) => o !== p && o.kind === 'plane' && parallelDirections(o.normal, p.normal) && dot(o.normal, p.normal) < 0);
      if (q && q.kind === 'plane') sizes.push(Math.abs(p.offset + q.offset));
    }
    if (sizes.length !== 4) return null;
    const big = Math.max(...sizes), small = Math.min(...sizes);
    if (small / big >= BAR_MIN_ASPECT && length >= big) return refuse(`solid bar ${fmt(big)} x ${fmt(small)} x ${fmt(length)} mm: a solid bar, not a tube (it has no bore)`);
  }
  return null;
}

/** Two or more straight runs of the same tube (coaxial outer/inner cylinder pairs) along different
 * axes: a bent tube whose runs are too short for any one to dominate. */
export function bentTubeRefusal(solid: Solid): Refusal | null {
  const runs: Array<{ axis: Vec3; R: number; r: number }> = [];
  const cyl = solid.faces.map((f) => f.surface).filter((s): s is Extract<Surface, { kind: 'cylinder' }> => s.kind === 'cylinder');
  // a tube run is a closed ring: its skin faces together go all the way round (a sheet bend's
  // cylinders are partial arcs, never a ring)
  const fullTurn = (c: Extract<Surface, { kind: 'cylinder' }>) => cyl.filter((x) => sameSurface(x, c)).reduce((a, x) => a + x.spanDegrees, 0) >= FULL_RING_DEGREES;
  for (const o of cyl) {
    if (!o.convex || !fullTurn(o)) continue;
    const i = cyl.find((c) => !c.convex && c.radius < o.radius && parallelDirections(c.axis, o.axis) && distanceToLine(c.origin, o.origin, o.axis) < COAXIAL_TOLERANCE_MM && fullTurn(c));
    if (i && o.radius - i.radius <= MAX_WALL_FRACTION * 2 * o.radius) runs.push({ axis: o.axis, R: o.radius, r: i.radius });
  }
  for (let a = 0; a < runs.length; a++) {
    for (let b = a + 1; b < runs.length; b++) {
      const A = runs[a], B = runs[b];
      if (!parallelDirections(A.axis, B.axis) && Math.abs(A.R - B.R) < SAME_SURFACE_TOLERANCE_MM && Math.abs(A.r - B.r) < SAME_SURFACE_TOLERANCE_MM) {
        const angle = (Math.acos(Math.min(1, Math.abs(dot(A.axis, B.axis)))) * 180) / Math.PI;
        return refuse(`the tube is bent: straight runs of Ø${fmt(2 * A.R)} x ${fmt(A.R - A.r)} tube meet at ${fmt(angle)}°`);
      }
    }
  }
  return null;
}


/** The section in a stockist's words: "40 x 40 x 1 mm square" or "Ø48.3 x 3.2 mm round". */
function profileText(p: Profile): string {
  if (p.profile === 'round') return `Ø${fmt(p.outerDiameter ?? 0)} x ${fmt(p.wall)} mm round`;
  return `${fmt(p.outerWidth ?? 0)} x ${fmt(p.outerHeight ?? 0)} x ${fmt(p.wall)} mm ${p.cornerRadius === 0 ? 'sharp-cornered ' : ''}${p.profile}`;
}

/**
 * A ring of straight walls that something other than cuts keeps from being read as a tube (face
 * `faceId`: a part fused on, a partition inside): when the ring is open at both ends (faces cutting
 * through the wall reach both ends of the part) it is a tube all the same, refused with that face, so
 * the sheet recogniser never takes it for sheet folded round with a seam. Null for a ring closed at
 * an end (a sealed box, a cup), which is not a tube.
 */
export function openTubeRefusal(solid: Solid, outerSkin: Set<number>, innerSkin: Set<number>, along: Float64Array, min: number, max: number, p: Profile, faceId: number): Refusal | null {
  let start = false, end = false;
  for (const f of solid.faces) {
    if (outerSkin.has(f.id) || innerSkin.has(f.id)) continue;
    if (!f.neighbours.some((n) => outerSkin.has(n)) || !f.neighbours.some((n) => innerSkin.has(n))) continue;
    for (const v of f.vertices) {
      if (along[v] <= min + END_REACH_MM) start = true;
      if (along[v] >= max - END_REACH_MM) end = true;
    }
  }
  if (!start || !end) return null;
  return refuse(`the part is a ${profileText(p)} tube open at both ends, but face ${faceId} (${describeSurface(solid.faces[faceId].surface)}) is neither a cut through the wall nor inside it (a part fused on, a cap or a partition): a tube-laser part is the tube and the cuts through its wall; model the other part separately`);
}

/**
 * A solid of revolution without a bore through it (a shaft, pin or rod, with steps, grooves, flats,
 * centre holes or cross holes): "a solid bar, not a tube". Its turned (convex, coaxial cylinder)
 * faces cover most of its area, it fills most of the solid of revolution they describe (a rolled
 * sheet is a thin shell of it), it is longer than thick, and no coaxial bore runs most of its length
 * (that would be a thick-walled tube, or the inside of a rolled sheet).
 */
export function solidShaftRefusal(solid: Solid): Refusal | null {
  type Cyl = Extract<Surface, { kind: 'cylinder' }>;
  const groups: Array<{ axis: Cyl; area: number; radius: number }> = [];
  for (const f of solid.faces) {
    const s = f.surface;
    if (s.kind !== 'cylinder' || !s.convex) continue;
    const g = groups.find((x) => parallelDirections(x.axis.axis, s.axis) && distanceToLine(s.origin, x.axis.origin, x.axis.axis) < COAXIAL_TOLERANCE_MM);
    if (g) { g.area += f.area; g.radius = Math.max(g.radius, s.radius); } else groups.push({ axis: s, area: f.area, radius: s.radius });
  }
  const main = groups.sort((a, b) => b.area - a.area)[0];
  if (!main || main.area < SHAFT_MIN_TURNED_AREA_FRACTION * solid.area) return null;
  const d = main.axis.axis, o = main.axis.origin;
  const P = solid.points;
  const at = (i: number) => (P[i * 3] - o[0]) * d[0] + (P[i * 3 + 1] - o[1]) * d[1] + (P[i * 3 + 2] - o[2]) * d[2];
  let lo = Infinity, hi = -Infinity;
  for (let i = 0; i < P.length / 3; i++) { const x = at(i); if (x < lo) lo = x; if (x > hi) hi = x; }
  const length = hi - lo, dia = 2 * main.radius;
  if (!(length >= dia)) return null;
  // each turned diameter over the axial extent of its faces: the solid of revolution the faces describe
  const turned: Array<{ radius: number; from: number; to: number }> = [];
  for (const f of solid.faces) {
    const s = f.surface;
    if (s.kind !== 'cylinder' || !parallelDirections(s.axis, d) || distanceToLine(s.origin, o, d) > COAXIAL_TOLERANCE_MM) continue;
    let a = Infinity, b = -Infinity;
    for (const v of f.vertices) { const x = at(v); if (x < a) a = x; if (x > b) b = x; }
    // a bore running most of the length: a thick-walled tube, not a bar
    if (!s.convex) { if (b - a >= SHAFT_BORE_LENGTH_FRACTION * length) return null; continue; }
    const t = turned.find((x) => Math.abs(x.radius - s.radius) < SAME_SURFACE_TOLERANCE_MM);
    if (t) { t.from = Math.min(t.from, a); t.to = Math.max(t.to, b); } else turned.push({ radius: s.radius, from: a, to: b });
  }
  const envelope = turned.reduce((sum, t) => sum + Math.PI * t.radius * t.radius * (t.to - t.from), 0);
  if (solid.volume < SHAFT_MIN_FILL * envelope) return null;
  return refuse(`solid bar or shaft Ø${fmt(dia)} x ${fmt(length)} mm: a solid bar, not a tube (no bore runs through it; it is turned or cut from bar stock)`);
}
