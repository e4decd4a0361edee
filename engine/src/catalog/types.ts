// Catalog entry shapes. Catalogs are versioned data: the version id goes into every DFM report and
// quote so that the same inputs and the same catalog version always give the same answer.
import type { KFactorTable } from '../sheet/kfactor.ts';

export type Process = 'sheet_metal' | 'tube_laser';

/** Material family: decides K table, weldability, finish and hardware compatibility. */
export type MaterialType =
  | 'mild_steel'
  | 'galvanized_steel'
  | 'stainless_304'
  | 'stainless_316'
  | 'aluminum_5052'
  | 'aluminum_6061'
  | 'aluminum_6063'
  | 'copper'
  | 'brass'
  | 'chromoly_4130'
  | 'steel_a500'
  | 'steel_dom'
  | 'steel_s235';

export interface Material {
  id: string;
  object: 'material';
  name: string;
  /** human material name, e.g. "5052-H32 Aluminum" */
  material: string;
  type: MaterialType;
  process: 'sheet_metal';
  thickness_in: number;
  thickness_mm: number;
  display_thickness: string;
  /** short human description, e.g. "Mild Steel (A1011 CS), 2.0 mm (0.079 in)" */
  description: string;
  /** US gauge when the SKU is sold by gauge, else null */
  gauge: number | null;
  bendable: boolean;
  density_g_per_cm3: number;
  weight_g_per_cm2: number;
  /**
   * K-factor at the default inner bend radius (k_factor_table at default_bend_radius_mm / t): the
   * figure clients read; a part's flat uses the table at its own r/t (dfm partKFactor)
   */
  k_factor: number;
  /** [r/t, K] rows, interpolated with interpolateKFactor */
  k_factor_table: KFactorTable;
  /** smallest inner bend radius the tooling makes in this SKU, mm */
  min_bend_radius_mm: number;
  /** inner radius applied when the model has sharp (zero-radius) bends, mm */
  default_bend_radius_mm: number;
  /** smallest round hole / slot width, mm */
  min_hole_diameter_mm: number;
  /** shortest flange, mm (measured from the bend line to the flange end) */
  min_flange_length_mm: number;
  max_sheet_size_mm: { length_mm: number; width_mm: number };
  /** longest bend the brake makes in this thickness, mm (0 when not bendable) */
  max_bend_length_mm: number;
  cut_speed_mm_per_min: number;
  pierce_time_s: number;
  price_per_kg_cents: number;
  available: boolean;
}

export type TubeShape = 'round' | 'square' | 'rectangular';

export interface TubeProfile {
  id: string;
  object: 'tube_profile';
  display_name: string;
  material: string;
  type: MaterialType;
  shape: TubeShape;
  process: 'tube_laser';
  outer_diameter_mm: number | null;
  outer_width_mm: number | null;
  outer_height_mm: number | null;
  wall_thickness_mm: number;
  corner_radius_mm: number | null;
  default_stock_length_mm: number;
  density_g_per_cm3: number;
  weight_g_per_m: number;
  cut_speed_mm_per_min: number;
  pierce_time_s: number;
  price_per_kg_cents: number;
  available: boolean;
}

export type FinishType = 'none' | 'deburr' | 'brush' | 'powder_coat' | 'anodize' | 'zinc_plate';
/** Kind of process a finish is: none, mechanical (deburr, brush), coating (powder), anodizing, plating. */
export type FinishCategory = 'none' | 'mechanical' | 'coating' | 'anodizing' | 'plating';

export interface Finish {
  id: string;
  object: 'finish';
  name: string;
  /** the id without its prefix, hyphenated, e.g. "powder-coat" */
  slug: string;
  category: FinishCategory;
  type: FinishType;
  processes: Process[];
  /** material families this finish can be applied to */
  compatible_material_types: MaterialType[];
  requires_color: boolean;
  /** per finished part, cents */
  base_price_cents: number;
  /** per cm2 of finished surface, cents (fractional; amounts are rounded once per part) */
  price_per_cm2_cents: number;
  /** production days added */
  lead_time_days: number;
  /** largest part dimension the line takes, mm */
  max_part_length_mm: number;
  description: string;
  available: boolean;
}

export interface Viewer { base_color: string; metalness: number; roughness: number; gloss: number }

export interface PowderCoatColor {
  id: string;
  object: 'powder_coat_color';
  name: string;
  slug: string;
  ral: string;
  hex_color: string;
  texture: 'gloss' | 'satin' | 'matte' | 'texture';
  price_multiplier: number;
  available: boolean;
  viewer: Viewer;
}

export type ThreadStandard = 'metric' | 'unified';

/** Fields every hardware catalog (taps, studs, nuts, standoffs) has for clients (docs/api.md "Catalog entries"). */
export interface HardwareSize {
  /** nominal size, e.g. "M4", "#8-32", "1/4-20" */
  size: string;
  /** the same as `standard` */
  thread_standard: ThreadStandard;
  /** the hole the part must have for the item: a tap's tap drill, an insert's mounting hole, mm */
  hole_diameter_mm: number;
}

export interface Tap extends HardwareSize {
  id: string;
  object: 'tap';
  name: string;
  standard: ThreadStandard;
  thread: string;
  major_diameter_mm: number;
  pitch_mm: number;
  tap_drill_mm: number;
  /** the modelled hole is accepted when its diameter lies in [min, max] (tap drill .. major) */
  hole_diameter_min_mm: number;
  hole_diameter_max_mm: number;
  min_thickness_mm: number;
  min_center_to_edge_mm: number;
  compatible_material_types: MaterialType[];
  unit_price_cents: number;
  available: boolean;
}

export type HardwareKind = 'studs' | 'nuts' | 'standoffs';

export interface HardwareBase extends HardwareSize {
  id: string;
  name: string;
  thread: string;
  standard: ThreadStandard;
  /** manufacturer-style series designation, e.g. FH, FHS, CLS, CLSS, SO */
  series: string;
  body_material: 'steel' | 'stainless' | 'aluminum';
  /** drilled / cut hole the fastener presses into, mm */
  mounting_hole_mm: number;
  /** accepted deviation of the modelled hole from mounting_hole_mm, mm (+ only; press fit) */
  mounting_hole_tolerance_mm: number;
  min_sheet_thickness_mm: number;
  min_center_to_edge_mm: number;
  compatible_material_types: MaterialType[];
  unit_price_cents: number;
  install_price_cents: number;
  /** dimensions the 3D model is built from, mm */
  geometry: HardwareGeometry;
  available: boolean;
}

export interface HardwareGeometry {
  /** head / collar diameter and height (sits on the installation side) */
  head_diameter_mm: number;
  head_height_mm: number;
  /** body / shank diameter and length below the head */
  body_diameter_mm: number;
  body_length_mm: number;
  /** threaded bore diameter for nuts and standoffs, 0 for studs */
  bore_diameter_mm: number;
}

export interface Stud extends HardwareBase { object: 'stud'; length_mm: number }
export interface Nut extends HardwareBase { object: 'nut' }
export interface Standoff extends HardwareBase { object: 'standoff'; length_mm: number; thru: boolean }
export type Hardware = Stud | Nut | Standoff;

/** Standard countersinks offered (the configuration gives outer diameter and angle directly). */
export interface CountersinkSize {
  id: string;
  name: string;
  /** screw the countersink is made for */
  screw: string;
  hole_diameter_mm: number;
  outer_diameter_mm: number;
  angle_degrees: 82 | 90;
}

/** Every money rate of the pricing model, versioned with the catalog. Integer cents unless named. */
export interface RateCard {
  laser_cents_per_min: number;
  tube_laser_cents_per_min: number;
  /** part-to-part spacing added to each side of the blank when nesting, mm */
  nest_spacing_mm: number;
  /** fraction of the blank lost as skeleton and remnant */
  sheet_scrap_fraction: number;
  tube_scrap_fraction: number;
  /** program + machine set-up per part number per order */
  cut_setup_cents: number;
  bend_cents: number;
  /** per distinct bend per order (tooling set-up), amortised over the quantity */
  bend_setup_cents: number;
  /** per-bend multiplier rises with part mass: 1 + bend_mass_factor_per_kg x kg, capped */
  bend_mass_factor_per_kg: number;
  bend_mass_factor_max: number;
  /** per-bend multiplier rises with bend length beyond this, mm */
  bend_long_threshold_mm: number;
  bend_long_multiplier: number;
  tap_install_cents: number;
  countersink_cents: number;
  finish_setup_cents: number;
  weld_cents_per_mm: { mig: number; tig: number };
  weld_setup_cents: number;
  weld_access_multiplier: { open: number; tight: number; blind: number };
  weld_finish_cents_per_mm: { none: number; rough: number; fine: number };
  /** run-cost multiplier by part quantity: [min quantity, multiplier], non-increasing */
  volume_breaks: ReadonlyArray<readonly [number, number]>;
  /** smallest amount of one line item (a part number in an item), cents */
  min_line_amount_cents: number;
  /** expedited surcharge per production day saved, fraction of the subtotal */
  expedite_fraction_per_day: number;
  quote_validity_days: number;
}

export interface Catalog {
  version: string;
  materials: Material[];
  tube_profiles: TubeProfile[];
  finishes: Finish[];
  powder_coat_colors: PowderCoatColor[];
  taps: Tap[];
  studs: Stud[];
  nuts: Nut[];
  standoffs: Standoff[];
  countersinks: CountersinkSize[];
  rates: RateCard;
}

export type CatalogKind =
  | 'materials'
  | 'tube-profiles'
  | 'finishes'
  | 'powder-coat-colors'
  | 'taps'
  | 'studs'
  | 'nuts'
  | 'standoffs';
