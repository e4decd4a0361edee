// Sheet materials: one SKU per material x thickness, inch gauges and metric thicknesses.
// Figures published by real services where they exist (docs/dfm-rules.md "DFM rules" sets them side by
// side with ours); our own process figures (cut speed, price) are stated as named constants below.
import { DEFAULT_K_TABLE, interpolateKFactor, type KFactorTable } from '../sheet/kfactor.ts';
import type { Material, MaterialType } from './types.ts';

const MM_PER_IN = 25.4;

/** Bendable thickness window, inch (published: 0.030"-0.250"). */
const BENDABLE_MIN_THICKNESS_IN = 0.030;
const BENDABLE_MAX_THICKNESS_IN = 0.250;
/** Largest flat blank, mm (published: 44" x 30"). */
const MAX_SHEET_LENGTH_MM = 44 * MM_PER_IN;
const MAX_SHEET_WIDTH_MM = 30 * MM_PER_IN;
/** Smallest hole: 50 % of thickness (SendCutSend, RapidFab) and never below 0.5 mm (beam size). */
const HOLE_MIN_T_RATIO = 0.5;
const HOLE_MIN_ABS_MM = 0.5;
/** Shortest flange beyond the bend radius: 4 t (published "about 4 t") plus the minimum inner radius. */
const FLANGE_MIN_T_RATIO = 4;

/** Steel K table: a 0.048" steel SKU bends at R 0.045" (r/t 0.94) with K 0.38 (published). */
const STEEL_K_TABLE: KFactorTable = [
  [0, 0.30], [0.5, 0.34], [1, 0.38], [1.5, 0.40], [2, 0.42], [3, 0.44], [4, 0.46], [6, 0.48], [8, 0.5],
];
/** Stainless springs back more and its neutral axis sits a little further out. */
const STAINLESS_K_TABLE: KFactorTable = [
  [0, 0.32], [0.5, 0.36], [1, 0.40], [2, 0.43], [3, 0.45], [5, 0.48], [8, 0.5],
];

interface Family {
  prefix: string;
  material: string;
  type: MaterialType;
  density: number;
  kTable: KFactorTable;
  bendable: boolean;
  /** minimum inner bend radius as a multiple of thickness (Xometry: >= t; mild steel SKU 0.94 t) */
  minRadiusRatio: number;
  /** laser cut speed model: speed = atOneMm / t^exponent, mm/min, capped at CUT_SPEED_MAX */
  cutAtOneMm: number;
  cutExponent: number;
  pierceFactor: number;
  pricePerKgCents: number;
}

/** Fibre-laser table (3 kW class) fitted to speed = a / t^b; cap = gantry limit. */
const CUT_SPEED_MAX_MM_PER_MIN = 30000;
/** Pierce time = PIERCE_BASE_S + PIERCE_PER_MM_S x t, scaled by the family's reflectivity factor. */
const PIERCE_BASE_S = 0.1;
const PIERCE_PER_MM_S = 0.12;

const FAMILIES: Record<string, Family> = {
  mild: { prefix: 'mild_steel', material: 'Mild Steel (A1011 CS)', type: 'mild_steel', density: 7.85, kTable: STEEL_K_TABLE, bendable: true, minRadiusRatio: 0.8, cutAtOneMm: 25000, cutExponent: 1.15, pierceFactor: 1, pricePerKgCents: 250 },
  g90: { prefix: 'g90', material: 'G90 Galvanized Steel', type: 'galvanized_steel', density: 7.85, kTable: STEEL_K_TABLE, bendable: true, minRadiusRatio: 0.8, cutAtOneMm: 24000, cutExponent: 1.15, pierceFactor: 1, pricePerKgCents: 310 },
  ss304: { prefix: '304', material: '304 Stainless Steel', type: 'stainless_304', density: 8.0, kTable: STAINLESS_K_TABLE, bendable: true, minRadiusRatio: 1.0, cutAtOneMm: 22000, cutExponent: 1.2, pierceFactor: 1.2, pricePerKgCents: 650 },
  ss316: { prefix: '316', material: '316 Stainless Steel', type: 'stainless_316', density: 8.0, kTable: STAINLESS_K_TABLE, bendable: true, minRadiusRatio: 1.0, cutAtOneMm: 21000, cutExponent: 1.2, pierceFactor: 1.2, pricePerKgCents: 900 },
  al5052: { prefix: '5052_h32', material: '5052-H32 Aluminum', type: 'aluminum_5052', density: 2.68, kTable: DEFAULT_K_TABLE, bendable: true, minRadiusRatio: 1.0, cutAtOneMm: 20000, cutExponent: 1.2, pierceFactor: 1.3, pricePerKgCents: 900 },
  al6061: { prefix: '6061_t6', material: '6061-T6 Aluminum', type: 'aluminum_6061', density: 2.70, kTable: DEFAULT_K_TABLE, bendable: false, minRadiusRatio: 2.0, cutAtOneMm: 20000, cutExponent: 1.2, pierceFactor: 1.3, pricePerKgCents: 950 },
  copper: { prefix: 'copper_110', material: 'C110 Copper', type: 'copper', density: 8.96, kTable: DEFAULT_K_TABLE, bendable: true, minRadiusRatio: 0.5, cutAtOneMm: 9000, cutExponent: 1.3, pierceFactor: 2, pricePerKgCents: 1600 },
  brass: { prefix: 'brass_260', material: '260 Brass', type: 'brass', density: 8.5, kTable: DEFAULT_K_TABLE, bendable: true, minRadiusRatio: 1.0, cutAtOneMm: 11000, cutExponent: 1.3, pierceFactor: 1.8, pricePerKgCents: 1300 },
};

/** Manufacturers' standard sheet gauge -> inch (steel and galvanized). */
const STEEL_GAUGE: Record<string, number> = { '0.030': 22, '0.036': 20, '0.048': 18, '0.060': 16, '0.075': 14, '0.090': 13, '0.105': 12, '0.120': 11, '0.135': 10 };

const INCH_SKUS: Record<string, number[]> = {
  mild: [0.030, 0.036, 0.048, 0.060, 0.075, 0.090, 0.105, 0.120, 0.135, 0.187, 0.250],
  g90: [0.030, 0.036, 0.048, 0.060, 0.075, 0.090, 0.120],
  ss304: [0.024, 0.030, 0.036, 0.048, 0.060, 0.075, 0.090, 0.120, 0.187, 0.250],
  ss316: [0.048, 0.060, 0.075, 0.120, 0.187],
  al5052: [0.025, 0.032, 0.040, 0.050, 0.063, 0.080, 0.100, 0.125, 0.160, 0.190, 0.250],
  al6061: [0.063, 0.090, 0.125, 0.190, 0.250],
  copper: [0.032, 0.040, 0.063, 0.125],
  brass: [0.032, 0.040, 0.063, 0.125],
};
const METRIC_THICKNESSES_MM = [0.8, 1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6];
const METRIC_SKUS: Record<string, number[]> = {
  mild: METRIC_THICKNESSES_MM,
  ss304: METRIC_THICKNESSES_MM,
  al5052: METRIC_THICKNESSES_MM,
};

const round = (x: number, digits: number): number => Number(x.toFixed(digits));

/** Brake capacity by thickness, inch -> mm (published: 16"-44" by thickness). */
function maxBendLengthMm(thicknessIn: number, bendable: boolean): number {
  if (!bendable) return 0;
  if (thicknessIn <= 0.075) return round(44 * MM_PER_IN, 1);
  if (thicknessIn <= 0.135) return round(36 * MM_PER_IN, 1);
  if (thicknessIn <= 0.190) return round(24 * MM_PER_IN, 1);
  return round(16 * MM_PER_IN, 1);
}

function sku(key: string, f: Family, thicknessMm: number, thicknessIn: number, unit: 'in' | 'mm'): Material {
  const idThickness = unit === 'in' ? thicknessIn.toFixed(3).replace('.', '_') + 'in' : thicknessMm.toFixed(1).replace('.', '_') + 'mm';
  const gauge = unit === 'in' && (key === 'mild' || key === 'g90') ? STEEL_GAUGE[thicknessIn.toFixed(3)] ?? null : null;
  const bendable = f.bendable && thicknessIn >= BENDABLE_MIN_THICKNESS_IN - 1e-4 && thicknessIn <= BENDABLE_MAX_THICKNESS_IN + 1e-4;
  const minRadius = round(f.minRadiusRatio * thicknessMm, 3);
  const display = unit === 'in'
    ? `${thicknessIn.toFixed(3)}" (${thicknessMm.toFixed(2)} mm${gauge ? `, ${gauge} ga` : ''})`
    : `${thicknessMm.toFixed(1)} mm (${thicknessIn.toFixed(3)}")`;
  const description = unit === 'in'
    ? `${f.material}, ${thicknessIn.toFixed(3)} in (${thicknessMm.toFixed(2)} mm)${gauge ? `, ${gauge} gauge` : ''}${bendable ? '' : ', cut only (not bent)'}`
    : `${f.material}, ${thicknessMm.toFixed(1)} mm (${thicknessIn.toFixed(3)} in)${bendable ? '' : ', cut only (not bent)'}`;
  const defaultRadius = round(Math.max(minRadius, thicknessMm), 3);
  return {
    id: `mat_${f.prefix}_${idThickness}`,
    object: 'material',
    name: `${f.material} ${display}`,
    material: f.material,
    type: f.type,
    process: 'sheet_metal',
    thickness_in: round(thicknessIn, 4),
    thickness_mm: round(thicknessMm, 3),
    display_thickness: display,
    description,
    gauge,
    bendable,
    density_g_per_cm3: f.density,
    weight_g_per_cm2: round(f.density * thicknessMm / 10, 4),
    k_factor: round(interpolateKFactor(f.kTable, defaultRadius / thicknessMm), 4),
    k_factor_table: f.kTable,
    min_bend_radius_mm: minRadius,
    default_bend_radius_mm: defaultRadius,
    // rounded up so the stated minimum never undercuts the rule
    min_hole_diameter_mm: Math.ceil(Math.max(HOLE_MIN_T_RATIO * thicknessMm, HOLE_MIN_ABS_MM) * 1000) / 1000,
    min_flange_length_mm: round(FLANGE_MIN_T_RATIO * thicknessMm + minRadius, 2),
    max_sheet_size_mm: { length_mm: round(MAX_SHEET_LENGTH_MM, 1), width_mm: round(MAX_SHEET_WIDTH_MM, 1) },
    max_bend_length_mm: maxBendLengthMm(thicknessIn, bendable),
    cut_speed_mm_per_min: Math.round(Math.min(CUT_SPEED_MAX_MM_PER_MIN, f.cutAtOneMm / Math.pow(thicknessMm, f.cutExponent))),
    pierce_time_s: round((PIERCE_BASE_S + PIERCE_PER_MM_S * thicknessMm) * f.pierceFactor, 3),
    price_per_kg_cents: f.pricePerKgCents,
    available: true,
  };
}

export function buildMaterials(): Material[] {
  const out: Material[] = [];
  for (const [key, f] of Object.entries(FAMILIES)) {
    for (const tin of INCH_SKUS[key] ?? []) out.push(sku(key, f, tin * MM_PER_IN, tin, 'in'));
    for (const tmm of METRIC_SKUS[key] ?? []) out.push(sku(key, f, tmm, tmm / MM_PER_IN, 'mm'));
  }
  return out;
}
