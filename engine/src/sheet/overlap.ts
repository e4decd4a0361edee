// Does the flat overlap itself? Flanges that cross once unfolded make a self-intersecting outline (or a
// hole crossing the outline): material would be needed twice, so there is no flat pattern. Flanges that
// only touch (a closed corner: the seam lies on itself in the flat, or crosses by less than float and
// modelling noise such as a 0.002 mm sliver bend) are separated by the cut itself: a laser cuts the
// seam, and the kerf leaves the corner gap.
import type { Contour, Vec2 } from '../geometry/model.ts';
import { sampleContour } from './segments.ts';
import { hypot2 } from '../geometry/vec.ts';

/** Sampling sagitta for the overlap test, mm. */
const OVERLAP_SAGITTA = 1e-3;
/** Crossings closer than this to a segment end are the shared vertex of neighbours, mm. */
const CROSSING_SLACK = 1e-6;
/** Edges crossing by less than this are touching, not overlapping (far below any kerf), mm. */
const OVERLAP_TOLERANCE = 1e-2;
/** Crossings examined at most; beyond that the flat is taken to overlap (never guess it is fine). */
const MAX_CROSSINGS = 256;

export interface FlatOverlap {
  kind: 'overlap' | 'touch';
  /** where the edges cross or meet, flat coordinates, mm */
  at: Vec2;
}

interface Seg { a: Vec2; b: Vec2; loop: number; index: number; count: number; minX: number; maxX: number }

/** Where two edges cross or run along each other (probe directions for the material count), or null. */
function meeting(p: Seg, q: Seg): { at: Vec2; probes: Vec2[] } | null {
  const d = (a: Vec2, b: Vec2, c: Vec2) => (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]);
  const lp = hypot2(p.b[0] - p.a[0], p.b[1] - p.a[1]), lq = hypot2(q.b[0] - q.a[0], q.b[1] - q.a[1]);
  if (lp === 0 || lq === 0) return null;
  const d1 = d(q.a, q.b, p.a) / lq, d2 = d(q.a, q.b, p.b) / lq, d3 = d(p.a, p.b, q.a) / lp, d4 = d(p.a, p.b, q.b) / lp;
  const u: Vec2 = [(p.b[0] - p.a[0]) / lp, (p.b[1] - p.a[1]) / lp], v: Vec2 = [(q.b[0] - q.a[0]) / lq, (q.b[1] - q.a[1]) / lq];
  // proper crossing, with a slack so touching at shared ends does not count
  if (((d1 > CROSSING_SLACK && d2 < -CROSSING_SLACK) || (d1 < -CROSSING_SLACK && d2 > CROSSING_SLACK))
    && ((d3 > CROSSING_SLACK && d4 < -CROSSING_SLACK) || (d3 < -CROSSING_SLACK && d4 > CROSSING_SLACK))) {
    const s = d1 / (d1 - d2);
    const at: Vec2 = [p.a[0] + s * (p.b[0] - p.a[0]), p.a[1] + s * (p.b[1] - p.a[1])];
    // one probe inside each of the four angles the two edges make
    const probes: Vec2[] = [];
    for (const [a, b] of [[1, 1], [1, -1], [-1, 1], [-1, -1]]) {
      const w: Vec2 = [a * u[0] + b * v[0], a * u[1] + b * v[1]];
      const n = hypot2(w[0], w[1]);
      if (n > 1e-9) probes.push([w[0] / n, w[1] / n]);
    }
    return { at, probes };
  }
  // collinear overlap (a flange edge lying on another edge): probe both sides of the shared piece
  if (Math.abs(d1) < CROSSING_SLACK && Math.abs(d2) < CROSSING_SLACK) {
    const t1 = (q.a[0] - p.a[0]) * u[0] + (q.a[1] - p.a[1]) * u[1], t2 = (q.b[0] - p.a[0]) * u[0] + (q.b[1] - p.a[1]) * u[1];
    const lo = Math.max(0, Math.min(t1, t2)), hi = Math.min(lp, Math.max(t1, t2));
    if (hi - lo <= CROSSING_SLACK * 10) return null;
    const m = (lo + hi) / 2;
    return { at: [p.a[0] + u[0] * m, p.a[1] + u[1] * m], probes: [[-u[1], u[0]], [u[1], -u[0]]] };
  }
  return null;
}

/** How many times the flat's material covers a point: outer contours count +1, holes -1 (winding number). */
function materialCount(loops: Vec2[][], x: number, y: number): number {
  let w = 0;
  for (const pts of loops) {
    for (let i = 0; i < pts.length; i++) {
      const a = pts[i], b = pts[(i + 1) % pts.length];
      if (a[1] <= y) {
        if (b[1] > y && (b[0] - a[0]) * (y - a[1]) - (x - a[0]) * (b[1] - a[1]) > 0) w++;
      } else if (b[1] <= y && (b[0] - a[0]) * (y - a[1]) - (x - a[0]) * (b[1] - a[1]) < 0) w--;
    }
  }
  return w;
}

/**
 * Where the flat's contours cross or meet: 'overlap' when, just past the tolerance from a meeting point,
 * the material is there twice (or a hole reaches outside the outline), 'touch' when edges only meet
 * (a seam lying on itself, or a crossing shallower than the tolerance). Null when no edges meet.
 * Contours are oriented as the flat stores them: outer counter-clockwise, holes clockwise.
 */
export function flatOverlaps(contours: Contour[]): FlatOverlap | null {
  const loops = contours.map((c) => sampleContour(c, OVERLAP_SAGITTA));
  const segs: Seg[] = [];
  loops.forEach((pts, loop) => {
    pts.forEach((a, index) => {
      const b = pts[(index + 1) % pts.length];
      segs.push({ a, b, loop, index, count: pts.length, minX: Math.min(a[0], b[0]), maxX: Math.max(a[0], b[0]) });
    });
  });
  segs.sort((p, q) => p.minX - q.minX);
  // the sweep reads these for every pair it passes over: flat arrays, in the sorted order
  const n = segs.length;
  const minX = new Float64Array(n), minY = new Float64Array(n), maxY = new Float64Array(n);
  const loopOf = new Int32Array(n), indexOf = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const g = segs[i];
    minX[i] = g.minX; minY[i] = Math.min(g.a[1], g.b[1]); maxY[i] = Math.max(g.a[1], g.b[1]);
    loopOf[i] = g.loop; indexOf[i] = g.index;
  }
  let touch: FlatOverlap | null = null;
  let examined = 0;
  for (let i = 0; i < n; i++) {
    const p = segs[i];
    const reach = p.maxX + CROSSING_SLACK, pLoop = loopOf[i], pIndex = indexOf[i], pMinY = minY[i], pMaxY = maxY[i];
    for (let j = i + 1; j < n && minX[j] <= reach; j++) {
      if (pLoop === loopOf[j]) {
        const gap = Math.abs(pIndex - indexOf[j]);
        if (gap <= 1 || gap === p.count - 1) continue;
      }
      if (pMaxY < minY[j] - CROSSING_SLACK) continue;
      if (maxY[j] < pMinY - CROSSING_SLACK) continue;
      const m = meeting(p, segs[j]);
      if (!m) continue;
      if (++examined > MAX_CROSSINGS) return { kind: 'overlap', at: m.at };
      const r = OVERLAP_TOLERANCE * 2;
      for (const dir of m.probes) {
        const c = materialCount(loops, m.at[0] + dir[0] * r, m.at[1] + dir[1] * r);
        if (c >= 2 || c <= -1) return { kind: 'overlap', at: m.at };
      }
      touch ??= { kind: 'touch', at: m.at };
    }
  }
  return touch;
}
