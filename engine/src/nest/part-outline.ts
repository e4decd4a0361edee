// The outline a part is nested with, from what its design says of its flat (docs/nesting.md "Part
// outlines"): the flat's rectangle, less the round holes that lie inside it. The true outline lies
// within that rectangle and every true hole contains its inscribed polygon, so a nest of these
// outlines is a valid nest of the true flats.
import type { Part } from '../contract.ts';
import type { Outline, Point } from './raster.ts';

/** Sides of the polygon inscribed in a round hole. */
const HOLE_SIDES = 24;
/** A hole this close to the rectangle's edge is left filled, mm. */
const HOLE_EDGE_CLEARANCE_MM = 0.01;

/** The part's nesting outline in its flat's frame, or null when it has no flat. */
export function partOutline(part: Part): Outline | null {
  const fp = part.flat_pattern;
  if (!fp || !(fp.length_mm > 0) || !(fp.width_mm > 0)) return null;
  const L = fp.length_mm, W = fp.width_mm;
  const holes: Point[][] = [];
  const kept: Array<[number, number, number]> = [];
  for (const h of part.holes) {
    if (h.shape !== 'round' || !(h.diameter_mm > 0)) continue;
    const r = h.diameter_mm / 2;
    const [cx, cy] = h.center_mm;
    if (cx - r < HOLE_EDGE_CLEARANCE_MM || cy - r < HOLE_EDGE_CLEARANCE_MM || cx + r > L - HOLE_EDGE_CLEARANCE_MM || cy + r > W - HOLE_EDGE_CLEARANCE_MM) continue;
    // overlapping holes would cancel out under even-odd fill: the first stays, the other stays filled
    if (kept.some(([x, y, q]) => Math.hypot(x - cx, y - cy) < q + r)) continue;
    kept.push([cx, cy, r]);
    holes.push(Array.from({ length: HOLE_SIDES }, (_, i) => [cx + r * Math.cos((2 * Math.PI * i) / HOLE_SIDES), cy + r * Math.sin((2 * Math.PI * i) / HOLE_SIDES)] as Point));
  }
  return { outer: [[0, 0], [L, 0], [L, W], [0, W]], holes };
}
