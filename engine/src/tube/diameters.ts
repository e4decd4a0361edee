// Diameters along a round tube's axis, to explain a varying section precisely ("outer Ø30 at
// 0-7 mm, Ø32 at 7-93 mm ...") from the coaxial cylinder faces and their extents.
import type { Solid, Vec3, CylinderSurface } from '../geometry/model.ts';
import { parallelDirections, distanceToLine, sameSurface } from './surfaces.ts';
import { COAXIAL_TOLERANCE_MM } from './tolerances.ts';

export interface DiameterRun { diameter: number; from: number; to: number }

/** Gaps below this between runs of one diameter are joined (faces split by seams), mm. */
const JOIN_GAP_MM = 1e-6;

/** Runs of outer (convex) or bore (concave) diameter along d, measured from `start`, sorted. */
export function diameterRuns(solid: Solid, d: Vec3, axisPoint: Vec3, along: Float64Array, start: number, convex: boolean): DiameterRun[] {
  const classes: Array<{ s: CylinderSurface; spans: Array<[number, number]> }> = [];
  for (const f of solid.faces) {
    const s = f.surface;
    if (s.kind !== 'cylinder' || s.convex !== convex || !parallelDirections(s.axis, d) || distanceToLine(s.origin, axisPoint, d) > COAXIAL_TOLERANCE_MM) continue;
    let lo = Infinity, hi = -Infinity;
    for (const v of f.vertices) { lo = Math.min(lo, along[v]); hi = Math.max(hi, along[v]); }
    const c = classes.find((x) => sameSurface(x.s, s));
    if (c) c.spans.push([lo, hi]); else classes.push({ s, spans: [[lo, hi]] });
  }
  const runs: DiameterRun[] = [];
  for (const c of classes) {
    c.spans.sort((a, b) => a[0] - b[0]);
    let cur: [number, number] | null = null;
    for (const sp of c.spans) {
      if (cur && sp[0] <= cur[1] + JOIN_GAP_MM) cur[1] = Math.max(cur[1], sp[1]);
      else { if (cur) runs.push({ diameter: 2 * c.s.radius, from: cur[0] - start, to: cur[1] - start }); cur = [sp[0], sp[1]]; }
    }
    if (cur) runs.push({ diameter: 2 * c.s.radius, from: cur[0] - start, to: cur[1] - start });
  }
  return runs.sort((a, b) => a.from - b.from);
}

export function describeRuns(runs: DiameterRun[]): string {
  const f = (v: number) => Number(v.toFixed(2)).toString();
  return runs.map((r) => `Ø${f(r.diameter)} at ${f(r.from)}-${f(r.to)} mm`).join(', ');
}
