// How far a wall cut (hole, slot, window) is from the real end of the tube: edge to edge on the unrolled
// outer wall, to the nearest end contour. A mitred or coped end is slanted or curved there, so the
// axial distance to the tube's extreme tip would overstate it.
import type { TubeFeature, Vec2 } from '../geometry/model.ts';
import { pointSegmentDistance as pointToSegment } from '../sheet/segments.ts';
import { hypot2 } from '../geometry/vec.ts';

/** Segments of a polyline taken together for pruning. */
const BLOCK_SEGMENTS = 8;
/** A block is skipped when its box is farther than the best distance so far by more than this, mm:
 * far above the rounding of distances between points of a tube's outline (coordinates below 1e5 mm,
 * errors near 1e-11 mm), so a skipped segment could never have given the minimum. */
const PRUNE_MARGIN_MM = 1e-6;

/** Box (min x, min y, max x, max y) of the points of each block of BLOCK_SEGMENTS segments. */
function blockBoxes(l: Vec2[]): Float64Array {
  const blocks = Math.ceil((l.length - 1) / BLOCK_SEGMENTS), out = new Float64Array(4 * blocks);
  for (let k = 0; k < blocks; k++) {
    let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
    for (let i = k * BLOCK_SEGMENTS; i <= Math.min(l.length - 1, (k + 1) * BLOCK_SEGMENTS); i++) {
      const [x, y] = l[i];
      if (x < x0) x0 = x; if (x > x1) x1 = x; if (y < y0) y0 = y; if (y > y1) y1 = y;
    }
    out[4 * k] = x0; out[4 * k + 1] = y0; out[4 * k + 2] = x1; out[4 * k + 3] = y1;
  }
  return out;
}

/** min(best, distance from p to each segment of l), skipping blocks of segments whose box is
 * certainly farther than best: the minimum is the one every segment gives. */
function towardsPolyline(p: Vec2, l: Vec2[], boxes: Float64Array, best: number): number {
  for (let k = 0; 4 * k < boxes.length; k++) {
    const dx = Math.max(0, boxes[4 * k] - p[0], p[0] - boxes[4 * k + 2]), dy = Math.max(0, boxes[4 * k + 1] - p[1], p[1] - boxes[4 * k + 3]);
    if (dx > best + PRUNE_MARGIN_MM || dy > best + PRUNE_MARGIN_MM) continue;
    const last = Math.min(l.length - 1, (k + 1) * BLOCK_SEGMENTS);
    for (let i = k * BLOCK_SEGMENTS + 1; i <= last; i++) best = Math.min(best, pointToSegment(p, l[i - 1], l[i]));
  }
  return best;
}

const finite = (l: Vec2[]): boolean => l.every((p) => Number.isFinite(p[0]) && Number.isFinite(p[1]));

/** Smallest distance between two polylines (neither crossing the other), b moved by `ds` round the wall. */
function gap(a: Vec2[], b: Vec2[], ds: number): number {
  const q = b.map((p): Vec2 => [p[0], p[1] + ds]);
  let best = Infinity;
  if (finite(a) && finite(q)) {
    const boxesA = blockBoxes(a), boxesQ = blockBoxes(q);
    for (const p of a) best = towardsPolyline(p, q, boxesQ, best);
    for (const p of q) best = towardsPolyline(p, a, boxesA, best);
    return best;
  }
  // NaN or infinite coordinates: every pair, as NaN must spread to the result
  for (const p of a) for (let i = 1; i < q.length; i++) best = Math.min(best, pointToSegment(p, q[i - 1], q[i]));
  for (const p of q) for (let i = 1; i < a.length; i++) best = Math.min(best, pointToSegment(p, a[i - 1], a[i]));
  return best;
}

/** Edge-to-edge distance from a wall cut to the nearer end contour, mm; null when an outline is missing. */
export function distanceToEnds(cut: TubeFeature, features: TubeFeature[], perimeter: number): number | null {
  const own = (cut.outline ?? []).filter((l) => l.length > 1);
  const ends = features.filter((f) => f.kind === 'end_cut' || f.kind === 'notch').flatMap((f) => f.outline ?? []).filter((l) => l.length > 1);
  if (own.length === 0 || ends.length === 0) return null;
  let best = Infinity;
  const boxes = (l: Vec2[]) => l.reduce((b, p) => [Math.min(b[0], p[0]), Math.min(b[1], p[1]), Math.max(b[2], p[0]), Math.max(b[3], p[1])], [Infinity, Infinity, -Infinity, -Infinity]);
  const ownBoxes = own.map(boxes), endBoxes = ends.map(boxes);
  // the seam: an outline near s = 0 may face an end contour piece near s = perimeter
  own.forEach((a, i) => ends.forEach((b, j) => {
    for (const ds of [-perimeter, 0, perimeter]) {
      const A = ownBoxes[i], B = endBoxes[j];
      // boxes farther apart than the best so far cannot hold a nearer pair (most pieces, most shifts)
      const dx = Math.max(0, A[0] - B[2], B[0] - A[2]), dy = Math.max(0, A[1] - (B[3] + ds), B[1] + ds - A[3]);
      if (hypot2(dx, dy) < best) best = Math.min(best, gap(a, b, ds));
    }
  }));
  return best;
}
