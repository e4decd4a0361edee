// Does the flat overlap itself? Flanges that touch or cross once unfolded make a self-intersecting
// outline (or a hole crossing the outline); such a part has no valid flat pattern.
import type { Contour, Vec2 } from '../geometry/model.ts';
import { sampleContour } from './segments.ts';

/** Sampling sagitta for the overlap test, mm. */
const OVERLAP_SAGITTA = 1e-3;
/** Crossings closer than this to a segment end are the shared vertex of neighbours, mm. */
const CROSSING_SLACK = 1e-6;

interface Seg { a: Vec2; b: Vec2; loop: number; index: number; count: number; minX: number; maxX: number }

function crosses(p: Seg, q: Seg): boolean {
  const d = (a: Vec2, b: Vec2, c: Vec2) => (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]);
  const lp = Math.hypot(p.b[0] - p.a[0], p.b[1] - p.a[1]), lq = Math.hypot(q.b[0] - q.a[0], q.b[1] - q.a[1]);
  if (lp === 0 || lq === 0) return false;
  const d1 = d(q.a, q.b, p.a) / lq, d2 = d(q.a, q.b, p.b) / lq, d3 = d(p.a, p.b, q.a) / lp, d4 = d(p.a, p.b, q.b) / lp;
  // proper crossing, with a slack so touching at shared ends does not count
  if (((d1 > CROSSING_SLACK && d2 < -CROSSING_SLACK) || (d1 < -CROSSING_SLACK && d2 > CROSSING_SLACK))
    && ((d3 > CROSSING_SLACK && d4 < -CROSSING_SLACK) || (d3 < -CROSSING_SLACK && d4 > CROSSING_SLACK))) return true;
  // collinear overlap (a flange edge lying on another edge)
  if (Math.abs(d1) < CROSSING_SLACK && Math.abs(d2) < CROSSING_SLACK) {
    const ux = (p.b[0] - p.a[0]) / lp, uy = (p.b[1] - p.a[1]) / lp;
    const t1 = (q.a[0] - p.a[0]) * ux + (q.a[1] - p.a[1]) * uy, t2 = (q.b[0] - p.a[0]) * ux + (q.b[1] - p.a[1]) * uy;
    const lo = Math.max(0, Math.min(t1, t2)), hi = Math.min(lp, Math.max(t1, t2));
    return hi - lo > CROSSING_SLACK * 10;
  }
  return false;
}

/** True when any two non-neighbouring edges of the flat's contours cross or overlap. */
export function flatOverlaps(contours: Contour[]): boolean {
  const segs: Seg[] = [];
  contours.forEach((c, loop) => {
    const pts = sampleContour(c, OVERLAP_SAGITTA);
    pts.forEach((a, index) => {
      const b = pts[(index + 1) % pts.length];
      segs.push({ a, b, loop, index, count: pts.length, minX: Math.min(a[0], b[0]), maxX: Math.max(a[0], b[0]) });
    });
  });
  segs.sort((p, q) => p.minX - q.minX);
  for (let i = 0; i < segs.length; i++) {
    const p = segs[i];
    for (let j = i + 1; j < segs.length && segs[j].minX <= p.maxX + CROSSING_SLACK; j++) {
      const q = segs[j];
      if (p.loop === q.loop) {
        const gap = Math.abs(p.index - q.index);
        if (gap <= 1 || gap === p.count - 1) continue;
      }
      if (Math.max(p.a[1], p.b[1]) < Math.min(q.a[1], q.b[1]) - CROSSING_SLACK) continue;
      if (Math.max(q.a[1], q.b[1]) < Math.min(p.a[1], p.b[1]) - CROSSING_SLACK) continue;
      if (crosses(p, q)) return true;
    }
  }
  return false;
}
