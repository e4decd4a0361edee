// partPrices(request, designs, catalog, context): what a design's items cost under their
// configurations (docs/api.md "Quotes", the items of a quote): each item's full DFM report, line items
// with breakdowns, quantity options and assembly operations, in integer cents. Production lead times,
// shipping and tax are the service's (they depend on the calendar and the destination, not the part):
// the answer says what they are worked out from (the work the parts need, their masses and sizes).
// Pure and deterministic: the report ids and the clock come in.
import type { Design } from '../contract.ts';
import type { Catalog } from '../catalog/types.ts';
import { indexCatalog } from '../catalog/index.ts';
import { dfm, type DfmContext, type DfmReport, type DfmRequirement, type DfmStatus } from '../dfm/report.ts';
import { InvalidConfigurationError, effectiveSelections, parseConfiguration, type Configuration, type ConfigurationInput } from '../dfm/configuration.ts';
import { pricePart, partMassKg, volumeMultiplier, type BreakdownEntry, type StockForPrice } from './part-price.ts';
import { nestMaterials, type LineNest, type MaterialNest, type NestMemo, type NestPiece, type NestedMaterial } from './nest-material.ts';
import type { CatalogIndex } from '../catalog/index.ts';

export interface PriceItemRequest { design_id: string; quantity: number; configuration?: ConfigurationInput; client_reference_id?: string | null; quantity_options?: number[] }
export interface PriceRequest { items: PriceItemRequest[] }

export interface LineItem {
  part_id: string | null;
  process: 'sheet_metal' | 'tube_laser' | 'assembly';
  quantity: number;
  unit_amount_cents: number;
  amount_cents: number;
  material_id: string | null;
  tube_profile_id: string | null;
  finish_id: string | null;
  powder_coat_color_id: string | null;
  breakdown: BreakdownEntry[];
  /**
   * Sheet parts: the nest of the quote's pieces of this material the line's material is priced from
   * (sheets used, the stock sheet, utilisation); null for tubes, assembly, and a part no sheet takes.
   */
  nest: LineNest | null;
}
export interface QuantityOption { quantity: number; unit_amount_cents: number; amount_cents: number }
/** One priced item, its fields in the order a quote's item shows them (docs/api.md "Quotes"). */
export interface PricedItem {
  design_id: string;
  quantity: number;
  status: DfmStatus;
  client_reference_id: string | null;
  /**
   * Integer cents, always: 0 when the item is not priced (a part needs a selection or cannot be made;
   * its `status` says which). Existing clients of the live API read these as integers defaulting to 0
   * and refuse a null (docs/api.md "Quotes").
   */
  unit_amount_cents: number;
  amount_cents: number;
  /**
   * The part of amount_cents that pays for the item's assembly operations (welds and their set-up:
   * the `assembly` line items), integer cents; 0 without any, and 0 when the item is not priced.
   */
  assembly_operations_amount_cents: number;
  quantity_options: QuantityOption[];
  dfm: DfmReport;
  requirements: DfmRequirement[];
  line_items: LineItem[];
}
export interface ManufacturingWarning { design_id: string; part_id: string; code: string; message: string }

/** The work the priced parts need, all items together: what their production lead time follows from. */
export interface ProductionWork {
  bends: boolean;
  /** taps, hardware or countersinks */
  inserts: boolean;
  welds: boolean;
  /** the longest lead time of the finishes chosen, days */
  finish_lead_time_days: number;
  /** pieces of all part numbers together */
  pieces: number;
}

/** One priced part line as a shipment holds it: a piece's mass, the pieces, the formed size. */
export interface ShipmentPart { mass_kg: number; quantity: number; dimensions_mm: [number, number, number] }

/** The rate card's terms the prices are given under. */
export interface PriceTerms {
  /** how long the prices hold, days */
  valid_for_days: number;
  /** expedited production costs this fraction of the subtotal per production day saved */
  expedite_fraction_per_day: number;
}

/** What the items cost: in the order and shapes a quote shows them, and what its fulfillment is worked out from. */
export interface PartPrices {
  /** the worst item's */
  status: DfmStatus;
  items: PricedItem[];
  /** every item's requirements, in item order */
  requirements: DfmRequirement[];
  amount_subtotal_cents: number;
  manufacturing_warnings: ManufacturingWarning[];
  /** of the priced items only: an item that cannot be priced is neither made nor shipped */
  production: ProductionWork;
  shipment: ShipmentPart[];
  catalog_version: string;
  terms: PriceTerms;
  /** the nests of the items' sheet parts at their quantities, per material (docs/nesting.md "Files") */
  nests?: MaterialNest[];
}

export interface PriceContext {
  /** ISO 8601 timestamp: the reports' created_at */
  now: string;
  /** item i's DFM report id: data, so the context crosses to a worker thread */
  dfmIds: readonly string[];
  /**
   * Makes item i's DFM report (default: dfm() with the catalog). A caller that keeps the reports it
   * made (the service: per design, K-factors, configuration and catalog) answers from them. In
   * process only: a function does not cross to a worker thread.
   */
  dfm?: (itemIndex: number, design: Design, configuration: ConfigurationInput | undefined, context: DfmContext) => DfmReport;
  /** Keeps nests for reuse (the service's memo: the same flats and quantities give the same nest). In process only. */
  nest?: NestMemo;
}

export const MAX_QUANTITY = 100000;
export const MAX_QUANTITY_OPTIONS = 10;
const MAX_ITEMS = 100;

const fail = (param: string, message: string): never => { throw new InvalidConfigurationError(param, message); };
const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function quantityOf(v: unknown, param: string): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 1 || v > MAX_QUANTITY) fail(param, `${param} must be an integer from 1 to ${MAX_QUANTITY}`);
  return v as number;
}

/**
 * Strict request validation (a caller of the engine may hand it JSON as received); configurations
 * are validated by dfm().
 */
export function parsePriceRequest(request: PriceRequest): PriceRequest {
  const r: unknown = request;
  if (!isObj(r)) return fail('request', 'the price request must be an object');
  for (const k of Object.keys(r)) if (k !== 'items') fail(k, `unknown field '${k}'`);
  if (!Array.isArray(r.items) || r.items.length === 0 || r.items.length > MAX_ITEMS) fail('items', `items must be an array of 1 to ${MAX_ITEMS} items`);
  const items = (r.items as unknown[]).map((iv, i): PriceItemRequest => {
    const p = `items[${i}]`;
    if (!isObj(iv)) fail(p, `${p} must be an object`);
    const it = iv as Record<string, unknown>;
    for (const k of Object.keys(it)) if (!['design_id', 'quantity', 'configuration', 'client_reference_id', 'quantity_options'].includes(k)) fail(`${p}.${k}`, `unknown field '${k}' in ${p}`);
    if (typeof it.design_id !== 'string' || !it.design_id) fail(`${p}.design_id`, `${p}.design_id must be a design id`);
    if (it.client_reference_id !== undefined && it.client_reference_id !== null && (typeof it.client_reference_id !== 'string' || it.client_reference_id.length > 200)) fail(`${p}.client_reference_id`, `${p}.client_reference_id must be a string of at most 200 characters`);
    let qo: number[] | undefined;
    if (it.quantity_options !== undefined) {
      if (!Array.isArray(it.quantity_options) || it.quantity_options.length > MAX_QUANTITY_OPTIONS) fail(`${p}.quantity_options`, `${p}.quantity_options must be an array of at most ${MAX_QUANTITY_OPTIONS} quantities`);
      qo = (it.quantity_options as unknown[]).map((q, j) => quantityOf(q, `${p}.quantity_options[${j}]`));
    }
    return { design_id: it.design_id as string, quantity: quantityOf(it.quantity, `${p}.quantity`), configuration: it.configuration as ConfigurationInput | undefined, client_reference_id: (it.client_reference_id as string | null | undefined) ?? null, quantity_options: qo };
  });
  return { items };
}

interface PricedLines { lines: LineItem[]; priceable: boolean; shipment: ShipmentPart[]; work: ProductionWork }

/** The stock a part of an item is priced on, or null when it has none (or is not made). */
function stockOf(pr: DfmReport['parts'][number], ix: CatalogIndex): StockForPrice | null {
  return pr.material_id ? { kind: 'sheet', material: ix.materials.get(pr.material_id)! }
    : pr.tube_profile_id ? { kind: 'tube', profile: ix.tube_profiles.get(pr.tube_profile_id)! } : null;
}

/** Line items of one item at quantity q (design units); `nested`: the quote's nests at these quantities, item `index`. */
function priceItem(design: Design, config: Configuration, report: DfmReport, q: number, catalog: Catalog, nested?: NestedMaterial, index = 0): PricedLines {
  const ix = indexCatalog(catalog);
  const lines: LineItem[] = [];
  const shipment: ShipmentPart[] = [];
  let priceable = true;
  const work: ProductionWork = { bends: false, inserts: false, welds: config.assembly_operations.length > 0, finish_lead_time_days: 0, pieces: 0 };
  for (const part of design.parts) {
    const pr = report.parts.find((p) => p.part_id === part.id)!;
    // left out of the job: neither made nor priced, and no reason the rest cannot be
    if (pr.left_out) continue;
    const stock = stockOf(pr, ix);
    if (!part.manufacturable || !stock) { priceable = false; continue; }
    const { part: partCfg } = effectiveSelections(config, part.id);
    const finish = pr.finish_id ? ix.finishes.get(pr.finish_id) ?? null : null;
    const color = pr.powder_coat_color_id ? ix.powder_coat_colors.get(pr.powder_coat_color_id) ?? null : null;
    const quantity = q * part.instance_count;
    const key = pieceKey(index, part.id);
    const priced = pricePart({ part, stock, config: partCfg, finish, color, quantity, nestedMaterialCents: nested?.unitCents.get(key) }, catalog, ix);
    lines.push({
      part_id: part.id, process: part.suggested_process, quantity, unit_amount_cents: priced.unit_amount_cents, amount_cents: priced.amount_cents,
      material_id: pr.material_id, tube_profile_id: pr.tube_profile_id, finish_id: finish?.id ?? null, powder_coat_color_id: color?.id ?? null,
      breakdown: priced.breakdown, nest: nested?.nestOf.get(key) ?? null,
    });
    shipment.push({ mass_kg: partMassKg(part, stock), quantity, dimensions_mm: [part.formed_dimensions.length_mm, part.formed_dimensions.width_mm, part.formed_dimensions.height_mm] });
    work.bends ||= part.bends.length > 0;
    work.inserts ||= !!partCfg && (partCfg.taps.length + partCfg.studs.length + partCfg.nuts.length + partCfg.standoffs.length + partCfg.countersinks.length) > 0;
    work.finish_lead_time_days = Math.max(work.finish_lead_time_days, finish?.lead_time_days ?? 0);
    work.pieces += quantity;
  }
  if (config.assembly_operations.length && priceable) {
    const rates = catalog.rates;
    let perUnit = 0;
    for (const w of config.assembly_operations) {
      const method = w.method === 'tig' ? 'tig' : 'mig';
      perUnit += w.weld_length_mm * (rates.weld_cents_per_mm[method] * rates.weld_access_multiplier[w.joint_access] + rates.weld_finish_cents_per_mm[w.weld_finish]);
    }
    const weld = Math.round(perUnit * volumeMultiplier(rates, q));
    const setup = Math.ceil(rates.weld_setup_cents / q);
    const breakdown: BreakdownEntry[] = [
      { type: 'welding', unit_amount_cents: weld, amount_cents: weld * q },
      { type: 'weld_setup', unit_amount_cents: setup, amount_cents: setup * q },
    ];
    lines.push({ part_id: null, process: 'assembly', quantity: q, unit_amount_cents: weld + setup, amount_cents: (weld + setup) * q, material_id: null, tube_profile_id: null, finish_id: null, powder_coat_color_id: null, breakdown, nest: null });
  }
  return { lines, priceable, shipment, work };
}

const pieceKey = (itemIndex: number, partId: string): string => `${itemIndex}/${partId}`;

interface Priceable { design: Design; config: Configuration; report: DfmReport }

/** The quote's sheet pieces at the items' quantities `qs`, nested per material. */
function nestQuote(items: readonly Priceable[], qs: readonly number[], catalog: Catalog, memo?: NestMemo): NestedMaterial {
  const ix = indexCatalog(catalog);
  const pieces: NestPiece[] = [];
  items.forEach((it, i) => {
    for (const part of it.design.parts) {
      const pr = it.report.parts.find((p) => p.part_id === part.id);
      if (!pr || pr.left_out || !part.manufacturable) continue;
      const stock = stockOf(pr, ix);
      if (stock?.kind !== 'sheet') continue;
      pieces.push({ key: pieceKey(i, part.id), part, material: stock.material, count: qs[i] * part.instance_count });
    }
  });
  return nestMaterials(pieces, catalog.rates, memo);
}

/**
 * The nest at quantity q with item `itemIndex`'s material per piece no more than at any smaller
 * quantity the item lists: a larger quantity never costs more per piece (docs/nesting.md
 * "Material cost"), though a nest of more pieces may leave more gaps.
 */
function floorNest(nestAt: ReadonlyMap<number, NestedMaterial>, q: number, itemIndex: number): NestedMaterial {
  const at = nestAt.get(q)!;
  const unitCents = new Map(at.unitCents);
  const prefix = `${itemIndex}/`;
  for (const [key, cents] of at.unitCents) {
    if (!key.startsWith(prefix)) continue;
    let least = cents;
    for (const [q2, other] of nestAt) if (q2 < q) least = Math.min(least, other.unitCents.get(key) ?? least);
    unitCents.set(key, least);
  }
  return { unitCents, nestOf: at.nestOf, nests: at.nests };
}

function worstStatus(s: DfmStatus[]): DfmStatus {
  return s.includes('blocked') ? 'blocked' : s.includes('requires_input') ? 'requires_input' : 'ready';
}

/** One item to price: its design, quantity and the DFM report already made for its configuration. */
export interface PricingInput {
  design: Design;
  quantity: number;
  /** used only when the report carries no normalised configuration */
  configuration?: ConfigurationInput;
  quantity_options?: number[];
  client_reference_id?: string | null;
  dfm: DfmReport;
}

/** The prices of items whose DFM is done: line items, quantity options, the subtotal and what fulfillment needs. */
export function priceItems(inputs: PricingInput[], catalog: Catalog, memo?: NestMemo): PartPrices {
  const items: PricedItem[] = [];
  // validated before anything is nested
  inputs.forEach((it, i) => quantityOf(it.quantity, `items[${i}].quantity`));
  const priceable: Priceable[] = inputs.map((it) => ({
    design: it.design, report: it.dfm,
    config: it.dfm.configuration && Array.isArray(it.dfm.configuration.parts) ? it.dfm.configuration : parseConfiguration(it.configuration),
  }));
  const mainQs = inputs.map((it) => it.quantity);
  // one nest of every item's sheet parts at their quantities; a quantity option nests again with it
  const mainNest = nestQuote(priceable, mainQs, catalog, memo);
  const shipment: ShipmentPart[] = [];
  const production: ProductionWork = { bends: false, inserts: false, welds: false, finish_lead_time_days: 0, pieces: 0 };
  inputs.forEach((it, i) => {
    quantityOf(it.quantity, `items[${i}].quantity`);
    const opts = it.quantity_options ?? [];
    if (!Array.isArray(opts) || opts.length > MAX_QUANTITY_OPTIONS) fail(`items[${i}].quantity_options`, `at most ${MAX_QUANTITY_OPTIONS} quantity options`);
    opts.forEach((q, j) => quantityOf(q, `items[${i}].quantity_options[${j}]`));
    const report = it.dfm;
    const config = priceable[i].config;
    let main = priceItem(it.design, config, report, it.quantity, catalog, mainNest, i);
    const itemUnit = (lines: LineItem[], q: number): number => lines.reduce((a, l) => a + l.amount_cents, 0) / q;
    const optQs = main.priceable ? [...new Set(opts)] : [];
    // each quantity option nests the quote again with this item at that quantity
    const nestAt = new Map<number, NestedMaterial>([[it.quantity, mainNest]]);
    for (const q of optQs) if (!nestAt.has(q)) nestAt.set(q, nestQuote(priceable, mainQs.map((m, j) => (j === i ? q : m)), catalog, memo));
    if (nestAt.size > 1) main = priceItem(it.design, config, report, it.quantity, catalog, floorNest(nestAt, it.quantity, i), i);
    const unit = main.priceable ? itemUnit(main.lines, it.quantity) : null;
    const options = optQs.map((q) => {
      const u = itemUnit(priceItem(it.design, config, report, q, catalog, floorNest(nestAt, q, i), i).lines, q);
      return { quantity: q, unit_amount_cents: u, amount_cents: u * q };
    });
    if (main.priceable) {
      shipment.push(...main.shipment);
      production.bends ||= main.work.bends; production.inserts ||= main.work.inserts; production.welds ||= main.work.welds;
      production.finish_lead_time_days = Math.max(production.finish_lead_time_days, main.work.finish_lead_time_days); production.pieces += main.work.pieces;
    }
    // the assembly line items' amounts, already in amount_cents: the same numbers, so totals are unchanged
    const assembly = main.lines.filter((l) => l.process === 'assembly').reduce((a, l) => a + l.amount_cents, 0);
    items.push({
      design_id: it.design.id, quantity: it.quantity, status: report.status, client_reference_id: it.client_reference_id ?? null,
      unit_amount_cents: unit ?? 0, amount_cents: unit === null ? 0 : unit * it.quantity,
      assembly_operations_amount_cents: unit === null ? 0 : assembly, quantity_options: options, dfm: report,
      requirements: report.requirements, line_items: main.priceable ? main.lines : [],
    });
  });
  return {
    status: worstStatus(items.map((i) => i.status)),
    items,
    requirements: items.flatMap((i) => i.requirements),
    amount_subtotal_cents: items.reduce((a, it) => a + it.amount_cents, 0),
    manufacturing_warnings: items.flatMap((it) => it.dfm.parts.flatMap((p) => p.production_warning_details.map((w) => ({ design_id: it.design_id, part_id: p.part_id, code: w.code, message: w.message })))),
    production,
    shipment,
    catalog_version: catalog.version,
    terms: { valid_for_days: catalog.rates.quote_validity_days, expedite_fraction_per_day: catalog.rates.expedite_fraction_per_day },
    nests: mainNest.nests.filter((n) => n.result.sheets.length),
  };
}

/**
 * The prices of a request's items: validates the request, runs DFM per item (a configuration it
 * refuses names its field under the item: `items[i].configuration...`) and prices.
 */
export function partPrices(request: PriceRequest, designs: ReadonlyMap<string, Design> | Readonly<Record<string, Design>>, catalog: Catalog, ctx: PriceContext): PartPrices {
  const parsed = parsePriceRequest(request);
  const lookup = (id: string): Design | undefined => (designs instanceof Map ? designs.get(id) : (designs as Readonly<Record<string, Design>>)[id]);
  const inputs: PricingInput[] = parsed.items.map((it, i) => {
    const design = lookup(it.design_id);
    if (!design) return fail(`items[${i}].design_id`, `design ${it.design_id} was not found`);
    const id = ctx.dfmIds[i];
    if (id === undefined) throw new RangeError(`no DFM report id for items[${i}]: dfmIds has ${ctx.dfmIds.length}`);
    try {
      const dfmContext = { id, now: ctx.now };
      const report = ctx.dfm ? ctx.dfm(i, design, it.configuration, dfmContext) : dfm(design, it.configuration, catalog, dfmContext);
      return { design, quantity: it.quantity, quantity_options: it.quantity_options, client_reference_id: it.client_reference_id, dfm: report };
    } catch (e) {
      if (e instanceof InvalidConfigurationError) throw new InvalidConfigurationError(`items[${i}].${e.param}`, e.message);
      throw e;
    }
  });
  return priceItems(inputs, catalog, ctx.nest);
}
