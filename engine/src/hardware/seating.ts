// Where bought-in hardware of an assembly sits: a nut, stud, standoff or insert whose axis runs
// through a round hole of a sheet part, in the same place, is seated in that hole. The DFM report
// makes such a seat the hole's hardware selection by default when the catalog has a press-in part of
// that size for that hole (docs/api.md "Bought-in hardware").
import type { Part, SeatedHardware } from '../contract.ts';
import type { CylinderSurface, Rigid, Solid, Vec3 } from '../geometry/model.ts';
import { cross, dot, norm, sub } from '../geometry/vec.ts';
import { hardwareFromShape, mainAxisOf } from './shape.ts';
import type { BoughtInRecognition } from './index.ts';
import type { HardwareKind } from './kinds.ts';

/** A hardware axis runs through a hole when parallel to its wall's axis within this (cos of about 1 degree)... */
const SEAT_PARALLEL_COS = Math.cos((1 * Math.PI) / 180);
/** ...and this close to it, mm (modelling slop of a placed fastener). */
const SEAT_AXIS_MM = 0.3;
/** ...and reaching into the hole's wall at least this far, mm (a nut against the sheet under a screw is not in the hole). */
const SEAT_DEPTH_MM = 0.1;

/** The catalog kind a hardware kind is seated as; kinds no shop presses in (screws, rivet nuts, washers) are not seated. */
const SEAT_KIND: Partial<Record<HardwareKind, SeatedHardware['kind']>> = {
  self_clinching_nut: 'nut', nut: 'nut', threaded_insert: 'nut',
  self_clinching_stud: 'stud',
  self_clinching_standoff: 'standoff', standoff: 'standoff',
};

export interface SeatingPart {
  part: Part;
  /** the representative solid */
  solid: Solid;
  instances: Array<{ solidIndex: number; transform: Rigid }>;
  sheet: boolean;
  boughtIn: BoughtInRecognition | null;
  /** file coordinates of the representative -> the part's normalized frame */
  frame: Rigid;
}

const apply = (m: Rigid, p: Vec3): Vec3 => [0, 1, 2].map((k) => dot(m.rotation[k], p) + m.translation[k]) as Vec3;
const turn = (m: Rigid, v: Vec3): Vec3 => [0, 1, 2].map((k) => dot(m.rotation[k], v)) as Vec3;

/** Sets `seated_hardware` on each sheet part with bought-in hardware seated in its holes (in place, sorted by hole). */
export function seatHardware(parts: SeatingPart[], solids: Solid[]): void {
  const holders = parts.filter((p) => p.sheet && p.part.holes.some((h) => h.shape === 'round'));
  if (holders.length === 0) return;
  for (const hw of parts) {
    const kind = hw.boughtIn ? SEAT_KIND[hw.boughtIn.kind] : undefined;
    if (!hw.boughtIn || !kind || !hw.boughtIn.size) continue;
    for (const inst of hw.instances) {
      // a part recognised by its name only (its shape not read as hardware): the axis of its main
      // cylinder, which a press-in part's shank, body or barrel gives
      const solid = solids[inst.solidIndex];
      const m = hardwareFromShape(solid) ?? (hw.boughtIn.by.includes('name') ? mainAxisOf(solid) : null);
      if (!m) continue;
      const mid = (m.axialMin + m.axialMax) / 2;
      const centre: Vec3 = [0, 1, 2].map((k) => m.origin[k] + m.axis[k] * mid) as Vec3;
      for (const holder of holders) {
        for (const hole of holder.part.holes) {
          const wall = holder.solid.faces[hole.face_id]?.surface;
          if (hole.shape !== 'round' || !wall || wall.kind !== 'cylinder') continue;
          for (const at of holder.instances) {
            const axis = turn(at.transform, wall.axis), origin = apply(at.transform, wall.origin);
            if (Math.abs(dot(axis, m.axis)) < SEAT_PARALLEL_COS) continue;
            if (norm(cross(sub(m.origin, origin), axis)) > SEAT_AXIS_MM) continue;
            // the hole's wall and the hardware overlap along the axis
            const w = [wall.axialMin, wall.axialMax].map((a) => dot(sub([0, 1, 2].map((k) => origin[k] + axis[k] * a) as Vec3, m.origin), m.axis));
            if (Math.min(Math.max(...w), m.axialMax) - Math.max(Math.min(...w), m.axialMin) < SEAT_DEPTH_MM) continue;
            addSeat(holder, hole.id, wall, at.transform, centre, {
              hole_id: hole.id, kind, size: hw.boughtIn.size, length_mm: Number((m.axialMax - m.axialMin).toFixed(3)), side: 'top', part_id: hw.part.id,
            });
          }
        }
      }
    }
  }
}

/** Records one seat (once per hole); its side is where the hardware stands, seen from the part's +Z. */
function addSeat(holder: SeatingPart, holeId: number, wall: CylinderSurface, at: Rigid, hardwareCentre: Vec3, seat: SeatedHardware): void {
  const list = (holder.part.seated_hardware ??= []);
  if (list.some((s) => s.hole_id === holeId)) return;
  // the part frame's Z in world coordinates: the flat's top normal where the hole is on the base
  const z = turn(at, [holder.frame.rotation[2][0], holder.frame.rotation[2][1], holder.frame.rotation[2][2]]);
  const axis = turn(at, wall.axis);
  if (Math.abs(dot(axis, z)) >= SEAT_PARALLEL_COS) {
    const holeCentre = apply(at, [0, 1, 2].map((k) => wall.origin[k] + wall.axis[k] * (wall.axialMin + wall.axialMax) / 2) as Vec3);
    seat.side = dot(sub(hardwareCentre, holeCentre), z) >= 0 ? 'top' : 'bottom';
  }
  list.push(seat);
  list.sort((a, b) => a.hole_id - b.hole_id);
}

