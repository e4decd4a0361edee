// Price of one part number at one quantity: a breakdown of unit amounts in integer cents.
// Every component is a non-increasing function of the quantity (set-ups are amortised with ceil,
// run costs take the volume multiplier), and each is rounded on its own, so the unit price never
// rises with quantity and the breakdown adds up exactly.
import type { Part } from '../contract.ts';
import type { Catalog, Finish, Material, PowderCoatColor, RateCard, TubeProfile } from '../catalog/types.ts';
import type { CatalogIndex } from '../catalog/index.ts';
import type { PartConfiguration } from '../dfm/configuration.ts';

export type BreakdownType =
  | 'material' | 'cutting' | 'cut_setup' | 'bending' | 'bend_setup' | 'hardware' | 'tapping' | 'countersinking'
  | 'finish' | 'finish_setup' | 'minimum_charge' | 'welding' | 'weld_setup';

export interface BreakdownEntry { type: BreakdownType; unit_amount_cents: number; amount_cents: number }

export type StockForPrice = { kind: 'sheet'; material: Material } | { kind: 'tube'; profile: TubeProfile };

export interface PartPriceInput {
  part: Part;
  stock: StockForPrice;
  config: PartConfiguration | null;
  finish: Finish | null;
  color: PowderCoatColor | null;
  /** pieces of this part number in the order (item quantity x instance count) */
  quantity: number;
  /**
   * Sheet material per piece from the quote's nest (nest-material.ts), cents unrounded; without it
   * the material is priced from the flat's bounding box.
   */
  nestedMaterialCents?: number;
}

/** Run-cost multiplier for a quantity: the last break at or below it. */
export function volumeMultiplier(rates: RateCard, quantity: number): number {
  let m = 1;
  for (const [q, f] of rates.volume_breaks) if (quantity >= q) m = f;
  return m;
}

/** Mass of the finished part, kg. */
export function partMassKg(part: Part, stock: StockForPrice): number {
  const density = stock.kind === 'sheet' ? stock.material.density_g_per_cm3 : stock.profile.density_g_per_cm3;
  if (stock.kind === 'tube' && part.tube) return (part.tube.length_mm / 1000) * stock.profile.weight_g_per_m / 1000;
  return (part.volume_mm3 / 1000) * density / 1000;
}

/** Unit amounts (cents, before rounding) that do not depend on quantity, and set-ups that do. */
function costs(inp: PartPriceInput, rates: RateCard, ix: CatalogIndex): { run: Partial<Record<BreakdownType, number>>; fixed: Partial<Record<BreakdownType, number>>; setups: Partial<Record<BreakdownType, number>> } {
  const { part, stock, config } = inp;
  const run: Partial<Record<BreakdownType, number>> = {};
  const fixed: Partial<Record<BreakdownType, number>> = {};
  const setups: Partial<Record<BreakdownType, number>> = {};
  const s = rates.nest_spacing_mm;
  if (stock.kind === 'sheet') {
    const m = stock.material;
    const fp = part.flat_pattern;
    const L = fp?.length_mm ?? part.formed_dimensions.length_mm;
    const W = fp?.width_mm ?? part.formed_dimensions.width_mm;
    const blankMm2 = (L + 2 * s) * (W + 2 * s);
    const kg = (blankMm2 * m.thickness_mm / 1000) * m.density_g_per_cm3 / 1000;
    fixed.material = inp.nestedMaterialCents ?? kg * (1 + rates.sheet_scrap_fraction) * m.price_per_kg_cents;
    const cut = fp?.cut_length_mm ?? part.cut_length_mm ?? 2 * (L + W);
    const pierces = (fp?.pierce_count ?? part.hole_count) + 1; // +1: the outer contour is pierced too
    const minutes = cut / m.cut_speed_mm_per_min + (pierces * m.pierce_time_s) / 60;
    run.cutting = minutes * rates.laser_cents_per_min;
    if (part.bends.length) {
      const massFactor = Math.min(rates.bend_mass_factor_max, 1 + rates.bend_mass_factor_per_kg * partMassKg(part, stock));
      run.bending = part.bends.reduce((a, b) => a + rates.bend_cents * massFactor * (b.length_mm > rates.bend_long_threshold_mm ? rates.bend_long_multiplier : 1), 0);
      setups.bend_setup = part.bends.length * rates.bend_setup_cents;
    }
  } else {
    const p = stock.profile;
    const length = (part.tube?.length_mm ?? part.formed_dimensions.length_mm) + 2 * s;
    const kg = (length / 1000) * p.weight_g_per_m / 1000;
    fixed.material = kg * (1 + rates.tube_scrap_fraction) * p.price_per_kg_cents;
    const cut = part.tube?.cut_length_mm ?? part.cut_length_mm ?? 0;
    const pierces = part.hole_count + 2; // two end cuts
    run.cutting = (cut / p.cut_speed_mm_per_min + (pierces * p.pierce_time_s) / 60) * rates.tube_laser_cents_per_min;
  }
  setups.cut_setup = rates.cut_setup_cents;
  if (config) {
    let hw = 0;
    for (const x of config.studs) { const h = ix.studs.get(x.stud_id); if (h) hw += h.unit_price_cents + h.install_price_cents; }
    for (const x of config.nuts) { const h = ix.nuts.get(x.nut_id); if (h) hw += h.unit_price_cents + h.install_price_cents; }
    for (const x of config.standoffs) { const h = ix.standoffs.get(x.standoff_id); if (h) hw += h.unit_price_cents + h.install_price_cents; }
    if (hw) fixed.hardware = hw;
    let taps = 0;
    for (const x of config.taps) { const t = ix.taps.get(x.tap_id); if (t) taps += t.unit_price_cents + rates.tap_install_cents; }
    if (taps) run.tapping = taps;
    if (config.countersinks.length) run.countersinking = config.countersinks.length * rates.countersink_cents;
  }
  if (inp.finish && inp.finish.type !== 'none') {
    const mult = inp.color?.price_multiplier ?? 1;
    fixed.finish = (inp.finish.base_price_cents + part.surface_area_cm2 * inp.finish.price_per_cm2_cents) * mult;
    setups.finish_setup = rates.finish_setup_cents;
  }
  return { run, fixed, setups };
}

const ORDER: BreakdownType[] = ['material', 'cutting', 'cut_setup', 'bending', 'bend_setup', 'hardware', 'tapping', 'countersinking', 'finish', 'finish_setup'];

/** Breakdown of one part at `quantity` pieces, plus a minimum charge so the line reaches the minimum. */
export function pricePart(inp: PartPriceInput, catalog: Catalog, ix: CatalogIndex): { unit_amount_cents: number; amount_cents: number; breakdown: BreakdownEntry[] } {
  const rates = catalog.rates;
  const q = inp.quantity;
  const { run, fixed, setups } = costs(inp, rates, ix);
  const vm = volumeMultiplier(rates, q);
  const unit: Partial<Record<BreakdownType, number>> = {};
  for (const [k, v] of Object.entries(fixed)) unit[k as BreakdownType] = Math.round(v!);
  for (const [k, v] of Object.entries(run)) unit[k as BreakdownType] = Math.round(v! * vm);
  for (const [k, v] of Object.entries(setups)) unit[k as BreakdownType] = Math.ceil(v! / q);
  const breakdown: BreakdownEntry[] = ORDER.filter((t) => unit[t] !== undefined).map((t) => ({ type: t, unit_amount_cents: unit[t]!, amount_cents: unit[t]! * q }));
  const sum = breakdown.reduce((a, b) => a + b.unit_amount_cents, 0);
  const minimumUnit = Math.ceil(rates.min_line_amount_cents / q);
  if (sum < minimumUnit) breakdown.push({ type: 'minimum_charge', unit_amount_cents: minimumUnit - sum, amount_cents: (minimumUnit - sum) * q });
  const unitAmount = Math.max(sum, minimumUnit);
  return { unit_amount_cents: unitAmount, amount_cents: unitAmount * q, breakdown };
}
