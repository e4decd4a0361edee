// Flange lengths from the flat pattern, for the minimum-flange rule (BendInfo.flange_lengths_mm).
// For each bend and each side, rays leave the edge of the bend zone (bend line +- allowance / 2)
// perpendicular to the bend and stop at the outer contour or at the next bend zone; the flange
// length of that side is the shortest ray over the middle of the bend (its ends are skipped so
// relief notches and corner radii do not count as a short flange). Holes do not shorten a flange.
import type { Contour, Vec2 } from '../geometry/model.ts';
import { sampleContour } from './segments.ts';
import type { BendZone } from './holes.ts';
import { hypot2 } from '../geometry/vec.ts';

/** Rays are cast over this middle fraction of the bend line. */
const SAMPLE_SPAN = 0.7;
const SAMPLES = 9;
/** Arc sampling for the contour, mm. */
const SAGITTA_MM = 0.01;
/** Hits closer than this to the ray start are the zone edge itself, mm. */
const START_EPS_MM = 1e-6;

function raySegment(o: Vec2, d: Vec2, a: Vec2, b: Vec2): number | null {
  const ex = b[0] - a[0], ey = b[1] - a[1];
  const den = d[0] * ey - d[1] * ex;
  if (Math.abs(den) < 1e-12) return null;
  const ax = a[0] - o[0], ay = a[1] - o[1];
  const t = (ax * ey - ay * ex) / den;
  const u = (ax * d[1] - ay * d[0]) / den;
  return t > START_EPS_MM && u >= -1e-9 && u <= 1 + 1e-9 ? t : null;
}

/** bend id (zone index) -> [length on the left of a->b, length on the right], mm. */
export function flangeLengths(outer: Contour, zones: BendZone[]): Map<number, [number, number]> {
  const poly = sampleContour(outer, SAGITTA_MM);
  const out = new Map<number, [number, number]>();
  for (const z of zones) {
    const [a, b] = z.line;
    const len = hypot2(b[0] - a[0], b[1] - a[1]);
    if (len === 0) continue;
    const u: Vec2 = [(b[0] - a[0]) / len, (b[1] - a[1]) / len];
    const n: Vec2 = [-u[1], u[0]];
    const sides: [number, number] = [Infinity, Infinity];
    for (const [k, s] of [[0, 1], [1, -1]] as const) {
      const d: Vec2 = [n[0] * s, n[1] * s];
      for (let i = 0; i < SAMPLES; i++) {
        const lambda = (1 - SAMPLE_SPAN) / 2 + (SAMPLE_SPAN * i) / (SAMPLES - 1);
        const o: Vec2 = [a[0] + u[0] * len * lambda + d[0] * z.allowance / 2, a[1] + u[1] * len * lambda + d[1] * z.allowance / 2];
        let hit = Infinity;
        for (let j = 0; j < poly.length; j++) {
          const t = raySegment(o, d, poly[j], poly[(j + 1) % poly.length]);
          if (t !== null && t < hit) hit = t;
        }
        for (const other of zones) {
          if (other === z) continue;
          const t = raySegment(o, d, other.line[0], other.line[1]);
          if (t !== null) hit = Math.min(hit, Math.max(0, t - other.allowance / 2));
        }
        if (hit < sides[k]) sides[k] = hit;
      }
    }
    if (Number.isFinite(sides[0]) && Number.isFinite(sides[1])) out.set(z.index, sides);
  }
  return out;
}
