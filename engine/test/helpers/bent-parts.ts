// Synthetic bent sheet parts with known press-brake answers: profiles (every bend line across the
// whole width, like an L, U, Z or hat) and a four-sided box, as the design would describe them
// (bend lines and flange lengths on the flat, contract.ts shapes).
import type { BendInfo, Part } from '../../src/contract.ts';
import { sheetPart } from './examples.ts';

const K = 0.4;
const zone = (angle: number, r: number, t: number): number => (angle * Math.PI / 180) * (r + K * t);

export interface ProfileBend { angle: number; direction: 'up' | 'down'; radius?: number }

/**
 * A profile: flat strips (widths between bend zones, mm, first to last) and the bends between them,
 * bend lines along y across the whole `length`.
 */
export function profilePart(o: { t: number; r: number; length: number; strips: number[]; bends: ProfileBend[]; name?: string }): Part {
  const { t, length } = o;
  const bends: BendInfo[] = [];
  let x = o.strips[0];
  o.bends.forEach((b, i) => {
    const r = b.radius ?? o.r;
    const z = zone(b.angle, r, t);
    const centre = x + z / 2;
    bends.push({ id: i + 1, angle_degrees: b.angle, radius_mm: r, length_mm: length, direction: b.direction,
      // left of a -> b (upward along y) is -x: the strip before the bend
      flange_lengths_mm: [o.strips[i], o.strips[i + 1]], line_mm: [[centre, 0], [centre, length]] });
    x += z + o.strips[i + 1];
  });
  return sheetPart({ id: 'prt_profile', name: o.name ?? 'profile', bends, bend_count: bends.length, holes: [], hole_count: 0, detected_thickness_mm: t,
    flat_pattern: { k_factor: K, length_mm: x, width_mm: length, area_mm2: x * length, cut_length_mm: 2 * (x + length), pierce_count: 1 },
    flat_pattern_dimensions: { length_mm: x, width_mm: length, height_mm: t } });
}

/**
 * A four-sided box: a base `a` x `b` with a flange of height `h` on each side, all bent up 90 deg;
 * corner reliefs leave each bend line exactly the base side.
 */
export function boxPart(o: { t: number; r: number; a: number; b: number; h: number }): Part {
  const { t, r, a, b, h } = o;
  const z = zone(90, r, t);
  const x0 = h + z / 2, x1 = h + z + a + z / 2, y0 = h + z / 2, y1 = h + z + b + z / 2;
  const xs = h + z, ys = h + z;
  const bends: BendInfo[] = [
    { id: 1, angle_degrees: 90, radius_mm: r, length_mm: b, direction: 'up', flange_lengths_mm: [h, a], line_mm: [[x0, ys], [x0, ys + b]] },
    { id: 2, angle_degrees: 90, radius_mm: r, length_mm: b, direction: 'up', flange_lengths_mm: [a, h], line_mm: [[x1, ys], [x1, ys + b]] },
    { id: 3, angle_degrees: 90, radius_mm: r, length_mm: a, direction: 'up', flange_lengths_mm: [b, h], line_mm: [[xs, y0], [xs + a, y0]] },
    { id: 4, angle_degrees: 90, radius_mm: r, length_mm: a, direction: 'up', flange_lengths_mm: [h, b], line_mm: [[xs, y1], [xs + a, y1]] },
  ];
  const L = a + 2 * (h + z), W = b + 2 * (h + z);
  return sheetPart({ id: 'prt_box', name: 'box', bends, bend_count: 4, holes: [], hole_count: 0, detected_thickness_mm: t,
    flat_pattern: { k_factor: K, length_mm: L, width_mm: W, area_mm2: L * W, cut_length_mm: 2 * (L + W), pierce_count: 1 },
    flat_pattern_dimensions: { length_mm: L, width_mm: W, height_mm: t } });
}
