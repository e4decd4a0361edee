// The outline a part is nested with, from what its design says of its flat (docs/nesting.md "Part
// outlines"): the flat's cut contours the analysis kept (flat-outline.ts), or, for a design analysed
// before they were kept, the flat's rectangle less the round holes that lie inside it (the true
// outline lies within that rectangle and every true hole contains its inscribed polygon, so a nest
// of these is a valid nest of the true flats).
import type { FlatOutline, Part } from '../contract.ts';
import type { Outline, Point } from './raster.ts';

/** Sides of the polygon inscribed in a round hole. */
const HOLE_SIDES = 24;
/** A hole this close to the rectangle's edge is left filled, mm. */
const HOLE_EDGE_CLEARANCE_MM = 0.01;
/** A kept outline may reach this far past the flat's rectangle (the rectangle is rounded to 1 nm, the outline to 1 micron), mm. */
const OUTLINE_SLACK_MM = 0.01;

/** A kept flat outline the nester can use: a polygon of finite points, inside the flat's rectangle. */
function usable(o: FlatOutline | undefined, L: number, W: number): o is FlatOutline {
  if (!o || !Array.isArray(o.outer) || o.outer.length < 3 || !Array.isArray(o.holes)) return false;
  const ok = (l: unknown): boolean => Array.isArray(l) && l.every((p) => Array.isArray(p) && p.length === 2
    && Number.isFinite(p[0]) && Number.isFinite(p[1]) && p[0] >= -OUTLINE_SLACK_MM && p[1] >= -OUTLINE_SLACK_MM && p[0] <= L + OUTLINE_SLACK_MM && p[1] <= W + OUTLINE_SLACK_MM);
  return ok(o.outer) && o.holes.every((h) => ok(h) && h.length >= 3);
}

/**
 * The part's nesting outline in its flat's frame, or null when it has no flat: its flat's cut
 * contours when the analysis kept them (`_flat_outline`), else its rectangle less its round holes.
 */
export function partOutline(part: Part): Outline | null {
  const kept = part._flat_outline;
  return kept && hasTrueOutline(part) ? { outer: kept.outer, holes: kept.holes } : boxOutline(part);
}

/** Whether the part is nested as its kept cut contours (not as its rectangle less its round holes). */
export function hasTrueOutline(part: Part): boolean {
  const fp = part.flat_pattern;
  return !!fp && fp.length_mm > 0 && fp.width_mm > 0 && usable(part._flat_outline, fp.length_mm, fp.width_mm);
}

/** The flat's rectangle less its round holes: it contains the true flat, so its nests are valid ones. */
export function boxOutline(part: Part): Outline | null {
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
