// Candidate tube axes: directions that many faces run along (cylinder axes, and the common
// direction of pairs of non-parallel planes), ranked by the area of the faces that run along them.
import type { Solid, Surface, Vec3 } from '../geometry/model.ts';
import { cross, normalize, dot } from '../geometry/vec.ts';
import { parallelDirections, runsAlong } from './surfaces.ts';
import { MIN_LATERAL_AREA_FRACTION } from './tolerances.ts';

/** Largest planar faces considered for plane-pair axes (keeps the pair count small). */
const PLANE_CANDIDATES = 12;
/** Axes tried, best first. */
const MAX_AXES = 4;

/** Deterministic sign: the largest component positive. */
export function canonicalDirection(d: Vec3): Vec3 {
  let k = 0;
  for (let i = 1; i < 3; i++) if (Math.abs(d[i]) > Math.abs(d[k]) + 1e-9) k = i;
  return d[k] < 0 ? [0 - d[0], 0 - d[1], 0 - d[2]] : d;
}

const coneAbout = (s: Surface, d: Vec3) => s.kind === 'cone' && parallelDirections(s.axis, d);

export interface AxisCandidate { direction: Vec3; lateralFraction: number }

export function candidateAxes(solid: Solid): AxisCandidate[] {
  const dirs: Vec3[] = [];
  const addDir = (d: Vec3) => {
    const c = canonicalDirection(normalize(d));
    if (!dirs.some((e) => parallelDirections(e, c))) dirs.push(c);
  };
  // cones too: a tapered tube must be found to be refused with its reason
  for (const f of solid.faces) if (f.surface.kind === 'cylinder' || f.surface.kind === 'cone') addDir(f.surface.axis);
  const planes = solid.faces.filter((f) => f.surface.kind === 'plane').sort((a, b) => b.area - a.area).slice(0, PLANE_CANDIDATES);
  for (let i = 0; i < planes.length; i++) {
    for (let j = i + 1; j < planes.length; j++) {
      const a = planes[i].surface, b = planes[j].surface;
      if (a.kind !== 'plane' || b.kind !== 'plane') continue;
      // any two non-parallel walls: a hexagonal or other polygonal tube has no perpendicular pair, and
      // must be found to be refused as not round or rectangular instead of read as a thick sheet
      if (!parallelDirections(a.normal, b.normal)) addDir(cross(a.normal, b.normal));
    }
  }
  const total = solid.faces.reduce((s, f) => s + f.area, 0) || 1;
  return dirs
    .map((direction) => ({ direction, lateralFraction: solid.faces.reduce((s, f) => s + (runsAlong(f.surface, direction) || coneAbout(f.surface, direction) ? f.area : 0), 0) / total }))
    .filter((c) => c.lateralFraction >= MIN_LATERAL_AREA_FRACTION)
    .sort((a, b) => b.lateralFraction - a.lateralFraction)
    .slice(0, MAX_AXES);
}

/** Extent of the solid's points along d. */
export function extentAlong(solid: Solid, d: Vec3): { min: number; max: number } {
  let min = Infinity, max = -Infinity;
  const P = solid.points;
  for (let i = 0; i < P.length; i += 3) {
    const x = dot(d, [P[i], P[i + 1], P[i + 2]]);
    if (x < min) min = x;
    if (x > max) max = x;
  }
  return { min, max };
}
