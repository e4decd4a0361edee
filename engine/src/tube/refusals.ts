// Precise refusals: what a tube-like solid is when it is not a straight tube of constant section
// (solid bar, bent tube, tapered or stepped section), in words a customer can act on.
import type { Solid, Refusal, Surface, Vec3 } from '../geometry/model.ts';
import { dot } from '../geometry/vec.ts';
import type { SectionLoop } from './section.ts';
import { runsAlong, sameSurface, parallelDirections, distanceToLine } from './surfaces.ts';
import { surfaceClasses } from './classes.ts';
import { MAX_WALL_FRACTION, BAR_MIN_ASPECT, SAME_SURFACE_TOLERANCE_MM, COAXIAL_TOLERANCE_MM, FULL_RING_DEGREES } from './tolerances.ts';

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
    if (length >= dia) return refuse(`solid round bar Ø${fmt(dia)} x ${fmt(length)} mm: it has no bore, so it is not a tube`);
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
    if (small / big >= BAR_MIN_ASPECT && length >= big) return refuse(`solid bar ${fmt(big)} x ${fmt(small)} x ${fmt(length)} mm: it has no bore, so it is not a tube`);
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

