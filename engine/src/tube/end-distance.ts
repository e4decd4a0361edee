// How far a wall cut (hole, slot, window) is from the real end of the tube: edge to edge on the unrolled
// outer wall, to the nearest end contour. A mitred or coped end is slanted or curved there, so the
// axial distance to the tube's extreme tip would overstate it.
import type { TubeFeature, Vec2 } from '../geometry/model.ts';
import { pointSegmentDistance as pointToSegment } from '../sheet/segments.ts';

/** Smallest distance between two polylines (neither crossing the other), b moved by `ds` round the wall. */
function gap(a: Vec2[], b: Vec2[], ds: number): number {
  const q = b.map((p): Vec2 => [p[0], p[1] + ds]);
  let best = Infinity;
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
      if (Math.hypot(dx, dy) < best) best = Math.min(best, gap(a, b, ds));
    }
  }));
  return best;
}
