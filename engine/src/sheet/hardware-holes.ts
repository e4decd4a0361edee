// Press-in hardware modelled fused to a sheet (a PEM nut, stud or standoff drawn standing on the
// sheet): the shop cuts the manufacturer's mounting hole and presses the part in. Where the model has
// no hole beneath it, the flat gets one, sized from the hardware catalog for the thread and type the
// boss's bore (nut, standoff) or shank (stud) and height say; the hardware becomes that hole's
// selection by default (docs/api.md "Bought-in hardware").
import type { SeatedHardware } from '../contract.ts';
import type { Contour, Rigid, Solid, Vec2 } from '../geometry/model.ts';
import { mountingHoleOf } from '../hardware/press-in-rows.ts';
import { threadOfDiameter } from '../hardware/shape.ts';
import type { ModelledHardware, SheetFeature } from './features.ts';
import { flatPoint, type Unfolding } from './unfold.ts';
import { applyRigid } from './rigid3.ts';

/** Two plane faces are parallel when |cos| of their normals is within this of 1. */
const PARALLEL_COS = 1e-6;
const parallel = (a: Solid['faces'][number]['surface'], b: Solid['faces'][number]['surface']): boolean =>
  a.kind === 'plane' && b.kind === 'plane' && Math.abs(Math.abs(a.normal[0] * b.normal[0] + a.normal[1] * b.normal[1] + a.normal[2] * b.normal[2]) - 1) < PARALLEL_COS;

/** A boss at least as tall as it is wide is a standoff; shorter, a nut's collar (mm over mm). */
const STANDOFF_HEIGHT_PER_DIAMETER = 1;



/** What a fused hardware boss is, by the catalog: its kind, thread and mounting hole; null when no catalog part matches. */
export function modelledHardware(f: SheetFeature): ModelledHardware | null {
  if (f.kind !== 'hardware' || f.outerDiameter === null) return null;
  const kind: ModelledHardware['kind'] = f.boreDiameter === null ? 'stud' : f.height >= STANDOFF_HEIGHT_PER_DIAMETER * f.outerDiameter ? 'standoff' : 'nut';
  const size = kind === 'stud' ? threadOfDiameter(f.outerDiameter, false) : threadOfDiameter(f.boreDiameter!);
  if (!size) return null;
  const hole = mountingHoleOf(kind, size);
  if (hole === null) return null;
  return { kind, size, length: f.height, mountingHole: hole };
}

/**
 * Mounting holes the flat must carry for hardware fused where the model has no hole: one loop per
 * such feature (its side faces are the feature's, so the feature finds its hole), in the unfolded frame.
 */
export function mountingHoleLoops(solid: Solid, u: Unfolding, formed: SheetFeature[], hasHole: (f: SheetFeature) => boolean): Array<{ contour: Contour; sideFaces: number[]; area: number }> {
  const out: Array<{ contour: Contour; sideFaces: number[]; area: number }> = [];
  for (const f of formed) {
    if (f.kind !== 'hardware' || !f.mount || hasHole(f)) continue;
    // the skin face the boss stands on: its map takes the boss's axis to one point of the flat
    const own = new Set(f.faces);
    const planes = f.faces.flatMap((g) => solid.faces[g].neighbours).filter((n) => !own.has(n) && solid.faces[n].surface.kind === 'plane');
    // on the unfolded skin itself, else on the opposite skin of the root face (parallel to it: the same flat point)
    const onSkin = planes.find((n) => u.maps.has(n));
    const opposite = onSkin === undefined && planes.some((n) => parallel(solid.faces[n].surface, solid.faces[u.root].surface)) ? u.root : undefined;
    const map = u.maps.get(onSkin ?? opposite ?? -1);
    if (!map) continue;
    const centre: Vec2 = flatPoint(map, f.center);
    const r = f.mount.mountingHole / 2;
    out.push({ contour: [{ kind: 'arc', center: centre, radius: r, startDegrees: 0, endDegrees: -360, ccw: false }], sideFaces: [...f.faces], area: -Math.PI * r * r });
  }
  return out;
}

/**
 * Seats of hardware modelled fused to a sheet part (its features with a catalog match and a hole): the
 * side is where the boss stands in the part's frame (+Z of the flat: top).
 */
export function modelledSeats(features: readonly SheetFeature[], frame: Rigid, thickness: number): SeatedHardware[] {
  return features.filter((f) => f.mount?.holeId !== undefined).map((f): SeatedHardware => ({
    hole_id: f.mount!.holeId!, kind: f.mount!.kind, size: f.mount!.size, length_mm: Number(f.mount!.length.toFixed(3)),
    side: applyRigid(frame, f.center)[2] >= -thickness / 2 ? 'top' : 'bottom', part_id: null,
  })).sort((a, b) => a.hole_id - b.hole_id);
}
