// Tube profiles for the tube laser. Sizes are the common US stock of the published catalogs
// (4130 round, A500 square/rectangular, DOM, 304, 6061-T6, 6063 Sch 40 pipe).
import type { MaterialType, TubeProfile, TubeShape } from './types.ts';

const MM_PER_IN = 25.4;
/** Stock length of the tube laser's loader, mm (published: up to 235"). */
const TUBE_STOCK_LENGTH_MM = 235 * MM_PER_IN;
/** A500 corner radius ~ 2 x wall (published); aluminium extrusions are sharp-cornered. */
const A500_CORNER_RADIUS_WALLS = 2;
/** EN 10219-2 external corner radius of cold-formed hollow sections with T <= 6 mm: 1.6 T to 2.4 T;
 * the stock is listed at the middle of that range. */
const EN10219_CORNER_RADIUS_WALLS = 2;

interface TubeFamily { key: string; material: string; type: MaterialType; density: number; cutAtOneMm: number; pricePerKgCents: number; cornerWalls: number }
const F: Record<string, TubeFamily> = {
  '4130': { key: '4130', material: '4130 Chromoly Steel', type: 'chromoly_4130', density: 7.85, cutAtOneMm: 22000, pricePerKgCents: 900, cornerWalls: 0 },
  a500: { key: 'a500', material: 'A500 Carbon Steel', type: 'steel_a500', density: 7.85, cutAtOneMm: 25000, pricePerKgCents: 280, cornerWalls: A500_CORNER_RADIUS_WALLS },
  dom: { key: 'dom', material: '1020 DOM Steel', type: 'steel_dom', density: 7.85, cutAtOneMm: 25000, pricePerKgCents: 450, cornerWalls: 0 },
  ss304: { key: '304', material: '304 Stainless Steel', type: 'stainless_304', density: 8.0, cutAtOneMm: 22000, pricePerKgCents: 800, cornerWalls: A500_CORNER_RADIUS_WALLS },
  al6061: { key: '6061_t6', material: '6061-T6 Aluminum', type: 'aluminum_6061', density: 2.70, cutAtOneMm: 20000, pricePerKgCents: 1000, cornerWalls: 0 },
  s235: { key: 's235', material: 'S235 Steel (EN 10219 / 10305)', type: 'steel_s235', density: 7.85, cutAtOneMm: 25000, pricePerKgCents: 300, cornerWalls: EN10219_CORNER_RADIUS_WALLS },
  al6063: { key: '6063_t52', material: '6063-T52 Aluminum Pipe', type: 'aluminum_6063', density: 2.70, cutAtOneMm: 20000, pricePerKgCents: 950, cornerWalls: 0 },
};

/** [family, shape, outer a (in), outer b (in) or null, wall (in), display override] */
type Row = [string, TubeShape, number, number | null, number, string?];
const ROWS: Row[] = [
  ['4130', 'round', 1.0, null, 0.049], ['4130', 'round', 1.0, null, 0.065], ['4130', 'round', 1.0, null, 0.083],
  ['4130', 'round', 1.25, null, 0.065], ['4130', 'round', 1.25, null, 0.083], ['4130', 'round', 1.5, null, 0.065],
  ['4130', 'round', 1.5, null, 0.120], ['4130', 'round', 1.75, null, 0.120],
  ['a500', 'square', 1.0, 1.0, 0.065], ['a500', 'square', 1.0, 1.0, 0.120], ['a500', 'square', 1.5, 1.5, 0.120],
  ['a500', 'square', 2.0, 2.0, 0.120], ['a500', 'square', 2.0, 2.0, 0.188], ['a500', 'square', 2.5, 2.5, 0.188],
  ['a500', 'square', 3.0, 3.0, 0.188], ['a500', 'square', 3.0, 3.0, 0.250],
  ['a500', 'rectangular', 3.0, 1.5, 0.120], ['a500', 'rectangular', 4.0, 2.0, 0.120], ['a500', 'rectangular', 4.0, 2.0, 0.188],
  ['a500', 'rectangular', 4.0, 3.0, 0.188],
  ['dom', 'round', 1.0, null, 0.120], ['dom', 'round', 1.25, null, 0.120], ['dom', 'round', 1.5, null, 0.120], ['dom', 'round', 2.0, null, 0.120],
  ['ss304', 'round', 1.0, null, 0.065], ['ss304', 'round', 1.5, null, 0.065], ['ss304', 'square', 1.0, 1.0, 0.065], ['ss304', 'square', 1.5, 1.5, 0.065],
  ['al6061', 'round', 1.0, null, 0.125], ['al6061', 'round', 2.0, null, 0.125], ['al6061', 'square', 1.0, 1.0, 0.125],
  ['al6061', 'square', 2.0, 2.0, 0.125], ['al6061', 'rectangular', 3.0, 1.5, 0.125],
  ['al6063', 'round', 1.315, null, 0.133, '1" NPS Sch 40'], ['al6063', 'round', 1.900, null, 0.145, '1-1/2" NPS Sch 40'],
  ['al6063', 'round', 2.375, null, 0.154, '2" NPS Sch 40'],
];

/**
 * Metric stock, mm: [shape, a, b or null, wall]. Structural hollow sections of EN 10219-2 (cold-formed
 * welded: CHS 21.3 to 88.9, SHS 20 to 100, RHS 40 x 20 to 120 x 60), the medium-series pipe of EN 10255
 * and the thinner precision tubes of EN 10305 (round 20 to 50, square and rectangular with 1.5 to
 * 2.5 mm walls) a European customer
 * orders from a steel stockist; the sources and the corner-radius rule are in docs/geometry.md
 * ("Metric tube stock").
 */
const METRIC_ROWS: Array<[TubeShape, number, number | null, number]> = [
  // EN 10305 precision round tube
  ['round', 20, null, 1.5], ['round', 20, null, 2], ['round', 25, null, 1.5], ['round', 25, null, 2], ['round', 30, null, 2],
  ['round', 32, null, 2], ['round', 35, null, 2], ['round', 40, null, 2], ['round', 40, null, 3], ['round', 50, null, 2], ['round', 50, null, 3],
  // EN 10219-2 circular hollow sections
  ['round', 21.3, null, 2], ['round', 26.9, null, 2], ['round', 26.9, null, 2.6], ['round', 33.7, null, 2], ['round', 33.7, null, 2.6],
  ['round', 42.4, null, 2], ['round', 42.4, null, 2.6], ['round', 48.3, null, 2.6], ['round', 48.3, null, 3.2], ['round', 60.3, null, 3],
  ['round', 60.3, null, 4], ['round', 76.1, null, 3], ['round', 76.1, null, 4], ['round', 88.9, null, 3.2], ['round', 88.9, null, 4],
  // EN 10255 medium-series pipe (DN 15, 25, 32, 50; DN 20 and 40 are above), what "DN 15" in a model means
  ['round', 21.3, null, 2.6], ['round', 33.7, null, 3.2], ['round', 42.4, null, 3.2], ['round', 60.3, null, 3.6],
  // square: EN 10305-5 thin walls, then EN 10219-2
  ['square', 20, 20, 1.5], ['square', 25, 25, 1.5], ['square', 30, 30, 1.5], ['square', 40, 40, 1.5],
  ['square', 20, 20, 2], ['square', 25, 25, 2], ['square', 30, 30, 2], ['square', 30, 30, 3], ['square', 35, 35, 2], ['square', 40, 40, 2],
  ['square', 40, 40, 3], ['square', 40, 40, 4], ['square', 50, 50, 2], ['square', 50, 50, 3], ['square', 50, 50, 4], ['square', 60, 60, 2],
  ['square', 60, 60, 3], ['square', 60, 60, 4], ['square', 70, 70, 3], ['square', 70, 70, 4], ['square', 80, 80, 3], ['square', 80, 80, 4],
  ['square', 80, 80, 5], ['square', 90, 90, 4], ['square', 100, 100, 3], ['square', 100, 100, 4], ['square', 100, 100, 5], ['square', 100, 100, 6],
  // rectangular: EN 10305-5 thin walls, then EN 10219-2
  ['rectangular', 30, 20, 1.5], ['rectangular', 40, 20, 1.5], ['rectangular', 50, 25, 2], ['rectangular', 60, 30, 2.5],
  ['rectangular', 40, 20, 2], ['rectangular', 50, 30, 2], ['rectangular', 50, 30, 3], ['rectangular', 60, 40, 2], ['rectangular', 60, 40, 3],
  ['rectangular', 60, 40, 4], ['rectangular', 70, 50, 3], ['rectangular', 80, 40, 2], ['rectangular', 80, 40, 3], ['rectangular', 80, 40, 4],
  ['rectangular', 80, 60, 3], ['rectangular', 80, 60, 4], ['rectangular', 100, 40, 3], ['rectangular', 100, 50, 3], ['rectangular', 100, 50, 4],
  ['rectangular', 100, 60, 4], ['rectangular', 120, 60, 4], ['rectangular', 120, 60, 5], ['rectangular', 120, 80, 4],
];

const r = (x: number, d = 3): number => Number(x.toFixed(d));
const inchText = (x: number): string => `${Number(x.toFixed(3))}"`;

function crossSectionMm2(shape: TubeShape, a: number, b: number, wall: number, corner: number): number {
  if (shape === 'round') return Math.PI / 4 * (a * a - (a - 2 * wall) ** 2);
  const outer = a * b - (4 - Math.PI) * corner * corner;
  const ri = Math.max(0, corner - wall);
  const inner = (a - 2 * wall) * (b - 2 * wall) - (4 - Math.PI) * ri * ri;
  return outer - inner;
}

export function buildTubeProfiles(): TubeProfile[] {
  return [...inchProfiles(), ...metricProfiles()];
}

/** Tube laser speed model: speed = atOneMm / wall^TUBE_CUT_EXPONENT, capped, mm/min; pierce = base + per-mm x wall, s. */
const TUBE_CUT_EXPONENT = 1.15;
const TUBE_CUT_MAX_MM_PER_MIN = 20000;
const TUBE_PIERCE_BASE_S = 0.1;
const TUBE_PIERCE_PER_MM_S = 0.12;

/** One profile entry from its section in mm; names and ids come from the caller (inch or metric). */
function profile(f: TubeFamily, shape: TubeShape, a: number, b: number, wall: number, id: string, displayName: string, stockLengthMm: number): TubeProfile {
  const corner = shape === 'round' ? 0 : f.cornerWalls * wall;
  const area = crossSectionMm2(shape, a, b, wall, corner);
  return {
    id, object: 'tube_profile', display_name: displayName, material: f.material, type: f.type, shape, process: 'tube_laser',
    outer_diameter_mm: shape === 'round' ? r(a) : null,
    outer_width_mm: shape === 'round' ? null : r(a),
    outer_height_mm: shape === 'round' ? null : r(b),
    wall_thickness_mm: r(wall),
    corner_radius_mm: shape === 'round' ? null : r(corner),
    default_stock_length_mm: r(stockLengthMm, 1),
    density_g_per_cm3: f.density,
    weight_g_per_m: r(area * f.density, 1),
    cut_speed_mm_per_min: Math.round(Math.min(TUBE_CUT_MAX_MM_PER_MIN, f.cutAtOneMm / Math.pow(wall, TUBE_CUT_EXPONENT))),
    pierce_time_s: r(TUBE_PIERCE_BASE_S + TUBE_PIERCE_PER_MM_S * wall, 3),
    price_per_kg_cents: f.pricePerKgCents,
    available: true,
  };
}

/** EN stock bars are 6 m; the loader takes them whole. */
const METRIC_STOCK_LENGTH_MM = 6000;

function metricProfiles(): TubeProfile[] {
  const f = F.s235;
  const t = (x: number): string => String(x).replace('.', '_');
  return METRIC_ROWS.map(([shape, a, bOrNull, wall]) => {
    const b = bOrNull ?? a;
    const id = shape === 'round' ? `tub_s235_round_${t(a)}od_${t(wall)}w` : `tub_s235_${shape}_${t(a)}x${t(b)}_${t(wall)}w`;
    const size = shape === 'round' ? `${a} mm OD` : `${a} x ${b} mm`;
    return profile(f, shape, a, b, wall, id, `${f.material} ${shape} ${size} x ${wall} mm wall`, METRIC_STOCK_LENGTH_MM);
  });
}

function inchProfiles(): TubeProfile[] {
  return ROWS.map(([fam, shape, aIn, bIn, wallIn, label]) => {
    const f = F[fam];
    const size = shape === 'round' ? `${inchText(aIn)} OD` : `${inchText(aIn)} x ${inchText(bIn ?? aIn)}`;
    const sizeId = shape === 'round' ? `${aIn.toFixed(3).replace('.', '_')}od` : `${aIn.toFixed(2).replace('.', '_')}x${(bIn ?? aIn).toFixed(2).replace('.', '_')}`;
    return profile(f, shape, aIn * MM_PER_IN, (bIn ?? aIn) * MM_PER_IN, wallIn * MM_PER_IN,
      `tub_${f.key}_${shape}_${sizeId}_${wallIn.toFixed(3).replace('.', '_')}w`,
      `${f.material} ${shape} ${label ?? size} x ${inchText(wallIn)} wall`, TUBE_STOCK_LENGTH_MM);
  });
}
