// Catalog shapes. Catalogs are versioned data: the version id goes into every DFM report and
// quote so that the same inputs and the same catalog version always give the same answer. The
// entries the API lists are schemas with their types (./entries.ts); the rest the engine keeps.
export {
  Material, TubeProfile, Finish, Viewer, PowderCoatColor, HardwareSize, Tap, HardwareGeometry, Stud, Nut, Standoff,
  type Process, type MaterialType, type TubeShape, type FinishType, type FinishCategory, type ThreadStandard, type HardwareKind, type Hardware,
} from './entries.ts';
import type { Finish, Material, Nut, PowderCoatColor, Standoff, Stud, Tap, TubeProfile } from './entries.ts';
import type { PressBrakeTooling } from './press-brake.ts';
export type { PressBrakeTooling, PressBrake, Punch, Die, BrakeMaterial } from './press-brake.ts';

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
  /** fraction of the blank lost as skeleton and remnant (the bounding-box material price) */
  sheet_scrap_fraction: number;
  /** least gap between a nested part and the sheet's edge, mm (the nest's spacing is 2 x nest_spacing_mm) */
  nest_edge_margin_mm: number;
  /**
   * How the sheets of a nest are charged: `used_rectangles` (each sheet by the rectangle from its
   * corner that holds its parts; the rest is remnant stock the shop keeps), `last_fraction` (whole
   * sheets, the last one by that rectangle) or `whole_sheets`.
   */
  nest_charge: 'used_rectangles' | 'last_fraction' | 'whole_sheets';
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
  /** the shop's press brake and its tools; a catalog without one gets no press-brake simulation */
  press_brake?: PressBrakeTooling;
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
