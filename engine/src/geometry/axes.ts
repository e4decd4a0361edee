// When two fitted cylinders share one axis: the question counterbores, blind holes and bosses ask of
// their walls, on sheets and tubes alike. The importer's vertices lie on the exact surfaces, so these
// absorb CAD modelling noise only.
import type { CylinderSurface } from './model.ts';
import { cross, dot, norm, sub } from './vec.ts';

/** Two axes are parallel when 1 - |cos| of the angle between them is at most this (about 0.08 degrees). */
export const PARALLEL_AXIS_TOLERANCE = 1e-6;
/** Parallel axes are one axis when the second's origin lies this close to the first, mm. */
const COAXIAL_MM = 1e-2;

/** True when b's axis is a's: parallel, and b's origin on a's axis, within the tolerances above. */
export function coaxialCylinders(a: CylinderSurface, b: CylinderSurface): boolean {
  if (Math.abs(Math.abs(dot(a.axis, b.axis)) - 1) > PARALLEL_AXIS_TOLERANCE) return false;
  return norm(cross(sub(b.origin, a.origin), a.axis)) < COAXIAL_MM;
}
