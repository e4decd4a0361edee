// The press-brake tooling catalog: the brake, its punches and V-dies, and the material figures the
// air-bending rules need (tensile strength, natural inside radius as a fraction of the V opening).
// A self-hoster replaces it with their shop's tools (Catalog.press_brake); docs/press-brake.md states
// what each figure means and where the built-in ones come from.
//
// Profiles are cross-sections in mm, x across the brake (+x toward the front), z up. A punch's
// profile has its tip at (0, 0) and rises to its height; a die's profile has the middle of its V at
// x = 0 and its shoulders at z = 0, its body below.

export type Vec2 = readonly [number, number];

export interface PressBrake {
  id: string;
  name: string;
  /** longest bend the bed and beam take, mm */
  bed_length_mm: number;
  /** press force, kN */
  max_force_kn: number;
  /** daylight between beam and bed with no tools, mm */
  open_height_mm: number;
  stroke_mm: number;
  /** half the width of the upper beam (with its clamps) and of the lower beam, mm: the part must clear them */
  upper_beam_half_width_mm: number;
  lower_beam_half_width_mm: number;
}

export interface Punch {
  id: string;
  name: string;
  style: 'straight' | 'gooseneck' | 'acute';
  /** included angle of the tip, degrees */
  angle_degrees: number;
  tip_radius_mm: number;
  /** tip to the beam's clamp, mm */
  height_mm: number;
  /** rated load, kN per metre of punch */
  max_load_kn_per_m: number;
  /** section lengths the shop holds (any number of each): the punch length is a sum of them, mm */
  segment_lengths_mm: number[];
  /** closed cross-section polygon, tip at the origin */
  profile_mm: Vec2[];
}

export interface Die {
  id: string;
  name: string;
  v_opening_mm: number;
  /** included angle of the V, degrees */
  angle_degrees: number;
  shoulder_radius_mm: number;
  height_mm: number;
  width_mm: number;
  max_load_kn_per_m: number;
  segment_lengths_mm: number[];
  /** closed cross-section polygon, shoulders at z = 0 */
  profile_mm: Vec2[];
}

/** What the air-bending rules need of a material family. */
export interface BrakeMaterial {
  /** ultimate tensile strength, MPa */
  tensile_strength_mpa: number;
  /** inside radius formed in air bending as a fraction of the V opening */
  natural_radius_per_v: number;
}

export interface PressBrakeTooling {
  brake: PressBrake;
  punches: Punch[];
  dies: Die[];
  /** by material family (Material.type) */
  materials: Record<string, BrakeMaterial>;
  /** usual V opening as a multiple of thickness: [thickness up to, mm; ratio] rows, first match */
  v_ratio_by_thickness: Array<readonly [number, number]>;
  /** V openings outside [min, max] x thickness are not used */
  v_ratio_min: number;
  v_ratio_max: number;
  /** air-bending force coefficient: F (kN/m) = coefficient x Rm (MPa) x t^2 (mm^2) / V (mm) */
  force_coefficient: number;
}

/** Half-width of the straight body of punches, mm (a common 26 mm blade). */
const PUNCH_BODY_HALF_WIDTH_MM = 13;
/** A standard split set: 835 mm and 415 mm lengths with 200, 100 and 50 mm sections. */
const STANDARD_SEGMENTS_MM = [835, 415, 200, 100, 50];
/** A sectionalised ("box") set: any length in 5 mm steps from 10 mm. */
const BOX_SEGMENTS_MM = [10, 15, 20, 40, 50, 100, 200];
const DIE_SEGMENTS_MM = [835, 415, 200, 100, 50, 40, 20, 15, 10];
const DIE_HEIGHT_MM = 60;

const deg = (a: number): number => (a * Math.PI) / 180;
const r3 = (x: number): number => Number(x.toFixed(3));
const pt = (x: number, z: number): Vec2 => [r3(x), r3(z)];

/** A straight blade: flanks at half the tip angle up to the body, then straight sides. */
function straightProfile(angle: number, height: number, halfWidth = PUNCH_BODY_HALF_WIDTH_MM): Vec2[] {
  const z = halfWidth / Math.tan(deg(angle / 2));
  return [pt(0, 0), pt(halfWidth, z), pt(halfWidth, height), pt(-halfWidth, height), pt(-halfWidth, z)];
}

/**
 * A gooseneck: the blade swings back above a short beak so a return flange (on the front, +x)
 * passes into the throat, up to 30 mm behind the tip line and 100 mm above the tip. The back keeps
 * the flank's angle so the flange being bent clears it.
 */
function gooseneckProfile(angle: number, height: number): Vec2[] {
  const s = Math.tan(deg(angle / 2));
  const back = 50, beak = 8;
  return [
    pt(0, 0), pt(-back, back / s), pt(-back, height), pt(PUNCH_BODY_HALF_WIDTH_MM, height), pt(PUNCH_BODY_HALF_WIDTH_MM, 100),
    pt(-30, 92), pt(-30, 40), pt(beak, 14), pt(beak, beak / s),
  ];
}

function dieProfile(v: number, angle: number, width: number, height: number): Vec2[] {
  const depth = v / 2 / Math.tan(deg(angle / 2));
  return [pt(-width / 2, 0), pt(-v / 2, 0), pt(0, -depth), pt(v / 2, 0), pt(width / 2, 0), pt(width / 2, -height), pt(-width / 2, -height)];
}

function punch(id: string, name: string, style: Punch['style'], angle: number, height: number, load: number, segments: number[]): Punch {
  const profile = style === 'gooseneck' ? gooseneckProfile(angle, height) : straightProfile(angle, height);
  return { id, name, style, angle_degrees: angle, tip_radius_mm: 1, height_mm: height, max_load_kn_per_m: load, segment_lengths_mm: segments, profile_mm: profile };
}

function die(v: number, angle: number): Die {
  // shoulders of half the opening, at least 5 mm
  const width = v + 2 * Math.max(5, v / 2);
  // rated load grows with the opening (wider shoulders), capped by the body
  const load = Math.min(1500, 100 + 60 * v);
  return {
    id: `die_v${v}_${angle}`, name: `V${v} ${angle} deg die`, v_opening_mm: v, angle_degrees: angle,
    shoulder_radius_mm: r3(Math.max(0.5, 0.08 * v)), height_mm: DIE_HEIGHT_MM, width_mm: width, max_load_kn_per_m: load,
    segment_lengths_mm: DIE_SEGMENTS_MM, profile_mm: dieProfile(v, angle, width, DIE_HEIGHT_MM),
  };
}

export function buildPressBrakeTooling(): PressBrakeTooling {
  return {
    brake: {
      id: 'brk_100t_3100', name: '100 t x 3100 mm hydraulic press brake', bed_length_mm: 3100, max_force_kn: 1000,
      open_height_mm: 470, stroke_mm: 200, upper_beam_half_width_mm: 60, lower_beam_half_width_mm: 45,
    },
    punches: [
      punch('pun_straight_88', 'Straight punch 88 deg R1', 'straight', 88, 100, 1000, STANDARD_SEGMENTS_MM),
      punch('pun_gooseneck_88', 'Gooseneck punch 88 deg R1', 'gooseneck', 88, 120, 600, STANDARD_SEGMENTS_MM),
      punch('pun_acute_30', 'Acute punch 30 deg R1', 'acute', 30, 100, 500, STANDARD_SEGMENTS_MM),
      punch('pun_box_88', 'Sectionalised box punch 88 deg R1', 'straight', 88, 120, 800, BOX_SEGMENTS_MM),
      // for deep boxes and trays: the standing sides pass under the beam (docs/press-brake.md "What is checked")
      punch('pun_box_tall_88', 'Tall sectionalised box punch 88 deg R1', 'straight', 88, 220, 600, BOX_SEGMENTS_MM),
    ],
    dies: [
      ...[4, 6, 8, 10, 12, 16, 20, 24, 30, 40, 50, 60, 80].map((v) => die(v, 88)),
      ...[6, 8, 10, 12, 16, 20, 24].map((v) => die(v, 30)),
    ],
    materials: {
      mild_steel: { tensile_strength_mpa: 410, natural_radius_per_v: 0.16 },
      galvanized_steel: { tensile_strength_mpa: 380, natural_radius_per_v: 0.16 },
      stainless_304: { tensile_strength_mpa: 620, natural_radius_per_v: 0.21 },
      stainless_316: { tensile_strength_mpa: 580, natural_radius_per_v: 0.21 },
      aluminum_5052: { tensile_strength_mpa: 230, natural_radius_per_v: 0.13 },
      aluminum_6061: { tensile_strength_mpa: 310, natural_radius_per_v: 0.15 },
      copper: { tensile_strength_mpa: 250, natural_radius_per_v: 0.13 },
      brass: { tensile_strength_mpa: 350, natural_radius_per_v: 0.14 },
    },
    v_ratio_by_thickness: [[3, 8], [10, 10], [1000, 12]],
    v_ratio_min: 6,
    v_ratio_max: 12,
    force_coefficient: 1.42,
  };
}
