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

/** Two diameters closer than this are the same step, mm. */
const SAME_DIAMETER_MM = 0.01;

/**
 * Why a round tube of stepped section cannot be cut on the tube laser, in a customer's words: the
 * stock it would come from (the largest outside, the smallest bore), where the outside is turned
 * down and the bore opened out (lathe work: the laser only cuts through the wall of a constant
 * section), what to do, then the measured runs.
 */
export function steppedTubeMessage(outer: DiameterRun[], bore: DiameterRun[], length: number): string {
  const f = (v: number) => Number(v.toFixed(2)).toString();
  const stockOuter = Math.max(...outer.map((r) => r.diameter));
  const stockBore = bore.length > 0 ? Math.min(...bore.map((r) => r.diameter)) : 0;
  const stock = `Ø${f(stockOuter)} x ${f((stockOuter - stockBore) / 2)} mm tube`;
  // steps by diameter: "Ø30 at 0-7 and 93-100 mm"
  const steps = (runs: DiameterRun[], keep: (d: number) => boolean): string[] => {
    const byDiameter = new Map<number, DiameterRun[]>();
    for (const r of runs.filter((x) => keep(x.diameter))) {
      const key = [...byDiameter.keys()].find((d) => Math.abs(d - r.diameter) < SAME_DIAMETER_MM) ?? r.diameter;
      byDiameter.set(key, [...(byDiameter.get(key) ?? []), r]);
    }
    return [...byDiameter].map(([d, rs]) => `Ø${f(d)} at ${rs.map((r) => `${f(r.from)}-${f(r.to)}`).join(' and ')} mm`);
  };
  const turned = steps(outer, (d) => d < stockOuter - SAME_DIAMETER_MM);
  const bored = steps(bore, (d) => d > stockBore + SAME_DIAMETER_MM);
  const work = [
    ...(turned.length > 0 ? [`the outside turned down to ${turned.join(', ')}`] : []),
    ...(bored.length > 0 ? [`the bore opened out to ${bored.join(', ')}`] : []),
  ].join(' and ');
  return `the tube has a varying section along its length, which a tube laser cannot make: it is ${stock}, ${f(length)} mm long, with ${work}. `
    + 'A tube laser only cuts through the wall of a tube of one constant section; turning a diameter down or boring it out is lathe work. '
    + `Have it turned from ${stock}, or remove the steps from the model to have it cut here `
    + `(measured: outer ${describeRuns(outer)}; bore ${describeRuns(bore)})`;
}
