// quote(request, designs, catalog, context): the API's quote (docs/api.md "Quotes") with each item's full DFM
// report, line items with breakdowns, quantity options, production speeds, shipping and tax.
// Pure and deterministic: ids and the clock come in; all amounts are integer cents.
import type { Design } from '../contract.ts';
import type { Catalog } from '../catalog/types.ts';
import { defaultCatalog, indexCatalog } from '../catalog/index.ts';
import { dfm, type DfmContext, type DfmReport, type DfmRequirement, type DfmStatus } from '../dfm/report.ts';
import { InvalidConfigurationError, effectiveSelections, parseConfiguration, type Configuration } from '../dfm/configuration.ts';
import { pricePart, partMassKg, volumeMultiplier, type BreakdownEntry, type StockForPrice } from './part-price.ts';
import { addBusinessDays } from './calendar.ts';
import { DEFAULT_SHIPPING, planShipment, rateShipment, shippingZone, type ShipmentPart, type ShippingConfig } from './shipping.ts';
import { STATE_TAX_RATE_PERCENT, isUsState, salesTaxCents } from './tax.ts';

export interface ShipTo { name?: string; street1?: string; street2?: string | null; city?: string; state: string; postal_code: string; country: 'US' }
export interface QuoteItemRequest { design_id: string; quantity: number; configuration?: unknown; client_reference_id?: string | null; quantity_options?: number[] }
export interface QuoteRequest { items: QuoteItemRequest[]; ship_to?: ShipTo | null }

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
}
export interface QuantityOption { quantity: number; unit_amount_cents: number; amount_cents: number }
export interface QuoteItem {
  design_id: string;
  quantity: number;
  status: DfmStatus;
  client_reference_id: string | null;
  /** null when a part has no stock selected or cannot be made, so it cannot be priced */
  unit_amount_cents: number | null;
  amount_cents: number | null;
  /**
   * The part of amount_cents that pays for the item's assembly operations (welds and their set-up:
   * the `assembly` line items), integer cents; 0 without any, null when the item cannot be priced.
   */
  assembly_operations_amount_cents: number | null;
  quantity_options: QuantityOption[];
  dfm: DfmReport;
  requirements: DfmRequirement[];
  line_items: LineItem[];
}
export interface ProductionSpeed { speed: 'standard' | 'expedited'; production_days: number; estimated_ship_date: string; surcharge_cents: number }
export interface ShippingOption {
  id: string; production_speed: 'standard' | 'expedited'; carrier: string; service: string; amount_cents: number; production_surcharge_cents: number;
  planned_ship_date: string; estimated_delivery_date: string; delivery_days: number; delivery_date_guaranteed: boolean; requires_freight: boolean; rate_source: string;
}
export interface Fulfillment {
  production: ProductionSpeed[];
  shipping_status: 'destination_required' | 'rated';
  shipping_options: ShippingOption[];
  requires_freight: boolean;
  freight_reasons: string[];
  shipping_zone: number | null;
  package: { weight_lb: number; billable_lb: number; box_in: [number, number, number] };
}
export interface Quote {
  id: string;
  object: 'quote';
  status: 'requires_input' | 'ready' | 'blocked';
  /** null: the engine builds no URL; the service fills it */
  status_url: null;
  /** the first item's design */
  design_id: string;
  currency: 'usd';
  amount_subtotal_cents: number;
  amount_shipping_cents: number;
  amount_tax_cents: number;
  amount_total_cents: number;
  tax: { status: 'destination_required' | 'calculated'; state: string | null; rate_percent: number | null; taxable_amount_cents: number };
  items: QuoteItem[];
  requirements: DfmRequirement[];
  fulfillment: Fulfillment;
  manufacturing_warnings: Array<{ design_id: string; part_id: string; code: string; message: string }>;
  production_files: { review_warning: { design_id: string; code: string; message: string } | null };
  /** null: a quote the engine cannot make is an error thrown, never a quote */
  error: { code: string; message: string } | null;
  catalog_version: string;
  created_at: string;
  expires_at: string;
}

export interface QuoteContext {
  id: string;
  now: string;
  /** DFM report id of item i (default `${id}_dfm_${i}`) */
  dfmId?: (itemIndex: number) => string;
  shipping?: ShippingConfig;
  /**
   * Makes item i's DFM report (default: dfm() with the quote's catalog). A caller that keeps the
   * reports it made (the service: per design, K-factors, configuration and catalog) answers from them.
   */
  dfm?: (itemIndex: number, design: Design, configuration: unknown, context: DfmContext) => DfmReport;
}

export const MAX_QUANTITY = 100000;
export const MAX_QUANTITY_OPTIONS = 10;
const MAX_ITEMS = 100;
/** Production days: cut only / + bending / + inserts / + welding; finishes add their own lead time. */
const BASE_PRODUCTION_DAYS = 3;
const BENDING_DAYS = 1;
const INSERTION_DAYS = 1;
const WELDING_DAYS = 2;
const LARGE_RUN_PIECES: ReadonlyArray<readonly [number, number]> = [[100, 1], [500, 2], [5000, 4]];
/** Expedited production saves this many days, down to a floor. */
const EXPEDITE_DAYS_SAVED = 2;
const MIN_PRODUCTION_DAYS = 2;

const fail = (param: string, message: string): never => { throw new InvalidConfigurationError(param, message); };
const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function quantityOf(v: unknown, param: string): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 1 || v > MAX_QUANTITY) fail(param, `${param} must be an integer from 1 to ${MAX_QUANTITY}`);
  return v as number;
}

/** Strict request validation; configurations are validated by dfm(). */
export function parseQuoteRequest(raw: unknown): QuoteRequest {
  if (!isObj(raw)) fail('request', 'the quote request must be an object');
  const r = raw as Record<string, unknown>;
  for (const k of Object.keys(r)) if (k !== 'items' && k !== 'ship_to') fail(k, `unknown field '${k}'`);
  if (!Array.isArray(r.items) || r.items.length === 0 || r.items.length > MAX_ITEMS) fail('items', `items must be an array of 1 to ${MAX_ITEMS} items`);
  const items = (r.items as unknown[]).map((iv, i): QuoteItemRequest => {
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
    return { design_id: it.design_id as string, quantity: quantityOf(it.quantity, `${p}.quantity`), configuration: it.configuration, client_reference_id: (it.client_reference_id as string | null | undefined) ?? null, quantity_options: qo };
  });
  let ship_to: ShipTo | null = null;
  if (r.ship_to !== undefined && r.ship_to !== null) {
    if (!isObj(r.ship_to)) fail('ship_to', 'ship_to must be an object');
    const s = r.ship_to as Record<string, unknown>;
    if (s.country !== 'US') fail('ship_to.country', 'ship_to.country must be US (unsupported_country)');
    if (typeof s.state !== 'string' || !isUsState(s.state)) fail('ship_to.state', 'ship_to.state must be a two-letter US state code');
    if (typeof s.postal_code !== 'string' || !/^\d{5}(-\d{4})?$/.test(s.postal_code)) fail('ship_to.postal_code', 'ship_to.postal_code must be a US ZIP code');
    for (const k of ['name', 'street1', 'street2', 'city', 'phone', 'email']) if (s[k] !== undefined && s[k] !== null && typeof s[k] !== 'string') fail(`ship_to.${k}`, `ship_to.${k} must be a string`);
    ship_to = s as unknown as ShipTo;
  }
  return { items, ship_to };
}

interface PricedItem { lines: LineItem[]; priceable: boolean; shipment: ShipmentPart[]; flags: { bends: boolean; inserts: boolean; welds: boolean; finishDays: number; pieces: number } }

/** Line items of one item at quantity q (design units). */
function priceItem(design: Design, config: Configuration, report: DfmReport, q: number, catalog: Catalog): PricedItem {
  const ix = indexCatalog(catalog);
  const lines: LineItem[] = [];
  const shipment: ShipmentPart[] = [];
  let priceable = true;
  const flags = { bends: false, inserts: false, welds: config.assembly_operations.length > 0, finishDays: 0, pieces: 0 };
  for (const part of design.parts) {
    const pr = report.parts.find((p) => p.part_id === part.id)!;
    const stock: StockForPrice | null = pr.material_id ? { kind: 'sheet', material: ix.materials.get(pr.material_id)! }
      : pr.tube_profile_id ? { kind: 'tube', profile: ix.tube_profiles.get(pr.tube_profile_id)! } : null;
    if (!part.manufacturable || !stock) { priceable = false; continue; }
    const { part: partCfg } = effectiveSelections(config, part.id);
    const finish = pr.finish_id ? ix.finishes.get(pr.finish_id) ?? null : null;
    const color = pr.powder_coat_color_id ? ix.powder_coat_colors.get(pr.powder_coat_color_id) ?? null : null;
    const quantity = q * part.instance_count;
    const priced = pricePart({ part, stock, config: partCfg, finish, color, quantity }, catalog, ix);
    lines.push({
      part_id: part.id, process: part.suggested_process, quantity, unit_amount_cents: priced.unit_amount_cents, amount_cents: priced.amount_cents,
      material_id: pr.material_id, tube_profile_id: pr.tube_profile_id, finish_id: finish?.id ?? null, powder_coat_color_id: color?.id ?? null,
      breakdown: priced.breakdown,
    });
    shipment.push({ mass_kg: partMassKg(part, stock), quantity, dimensions_mm: [part.formed_dimensions.length_mm, part.formed_dimensions.width_mm, part.formed_dimensions.height_mm] });
    flags.bends ||= part.bends.length > 0;
    flags.inserts ||= !!partCfg && (partCfg.taps.length + partCfg.studs.length + partCfg.nuts.length + partCfg.standoffs.length + partCfg.countersinks.length) > 0;
    flags.finishDays = Math.max(flags.finishDays, finish?.lead_time_days ?? 0);
    flags.pieces += quantity;
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
    lines.push({ part_id: null, process: 'assembly', quantity: q, unit_amount_cents: weld + setup, amount_cents: (weld + setup) * q, material_id: null, tube_profile_id: null, finish_id: null, powder_coat_color_id: null, breakdown });
  }
  return { lines, priceable, shipment, flags };
}

function worstStatus(s: DfmStatus[]): DfmStatus {
  return s.includes('blocked') ? 'blocked' : s.includes('requires_input') ? 'requires_input' : 'ready';
}

/** One item to price: its design, quantity and the DFM report already made for its configuration. */
export interface PricingInput {
  design: Design;
  quantity: number;
  /** used only when the report carries no normalised configuration */
  configuration?: unknown;
  quantity_options?: number[];
  client_reference_id?: string | null;
  dfm: DfmReport;
}

/** Prices, fulfillment and tax for items whose DFM is done (what the service's quote use case needs). */
export interface PricingOutcome {
  items: QuoteItem[];
  fulfillment: Fulfillment;
  amount_subtotal_cents: number;
  amount_shipping_cents: number;
  amount_tax_cents: number;
  amount_total_cents: number;
  tax: Quote['tax'];
  catalog_version: string;
  manufacturing_warnings: Quote['manufacturing_warnings'];
}

export interface PricingOptions { catalog?: Catalog; shipTo?: unknown; now?: string; shipping?: ShippingConfig }

/** The pricing core: line items, quantity options, production speeds, shipping and tax. */
export function priceItems(inputs: PricingInput[], shipToRaw: unknown, catalog: Catalog, now: string, shippingConfig: ShippingConfig = DEFAULT_SHIPPING): PricingOutcome {
  const shipTo = shipToRaw === undefined || shipToRaw === null ? null : parseQuoteRequest({ items: [{ design_id: 'x', quantity: 1 }], ship_to: shipToRaw }).ship_to;
  const items: QuoteItem[] = [];
  const shipmentParts: ShipmentPart[] = [];
  const flags = { bends: false, inserts: false, welds: false, finishDays: 0, pieces: 0 };
  inputs.forEach((it, i) => {
    quantityOf(it.quantity, `items[${i}].quantity`);
    const opts = it.quantity_options ?? [];
    if (!Array.isArray(opts) || opts.length > MAX_QUANTITY_OPTIONS) fail(`items[${i}].quantity_options`, `at most ${MAX_QUANTITY_OPTIONS} quantity options`);
    opts.forEach((q, j) => quantityOf(q, `items[${i}].quantity_options[${j}]`));
    const report = it.dfm;
    const config = report.configuration && Array.isArray(report.configuration.parts) ? report.configuration : parseConfiguration(it.configuration);
    const main = priceItem(it.design, config, report, it.quantity, catalog);
    const itemUnit = (lines: LineItem[], q: number): number => lines.reduce((a, l) => a + l.amount_cents, 0) / q;
    const unit = main.priceable ? itemUnit(main.lines, it.quantity) : null;
    const options = main.priceable ? [...new Set(opts)].map((q) => {
      const u = itemUnit(priceItem(it.design, config, report, q, catalog).lines, q);
      return { quantity: q, unit_amount_cents: u, amount_cents: u * q };
    }) : [];
    if (main.priceable) {
      shipmentParts.push(...main.shipment);
      flags.bends ||= main.flags.bends; flags.inserts ||= main.flags.inserts; flags.welds ||= main.flags.welds;
      flags.finishDays = Math.max(flags.finishDays, main.flags.finishDays); flags.pieces += main.flags.pieces;
    }
    // the assembly line items' amounts, already in amount_cents: the same numbers, so totals are unchanged
    const assembly = main.lines.filter((l) => l.process === 'assembly').reduce((a, l) => a + l.amount_cents, 0);
    items.push({
      design_id: it.design.id, quantity: it.quantity, status: report.status, client_reference_id: it.client_reference_id ?? null,
      unit_amount_cents: unit, amount_cents: unit === null ? null : unit * it.quantity,
      assembly_operations_amount_cents: unit === null ? null : assembly, quantity_options: options, dfm: report,
      requirements: report.requirements, line_items: main.priceable ? main.lines : [],
    });
  });
  const subtotal = items.reduce((a, it) => a + (it.amount_cents ?? 0), 0);

  // production speeds
  const run = LARGE_RUN_PIECES.reduce((d, [pieces, days]) => (flags.pieces > pieces ? days : d), 0);
  const standardDays = BASE_PRODUCTION_DAYS + (flags.bends ? BENDING_DAYS : 0) + (flags.inserts ? INSERTION_DAYS : 0) + (flags.welds ? WELDING_DAYS : 0) + flags.finishDays + run;
  const production: ProductionSpeed[] = [{ speed: 'standard', production_days: standardDays, estimated_ship_date: addBusinessDays(now, standardDays), surcharge_cents: 0 }];
  const expeditedDays = Math.max(MIN_PRODUCTION_DAYS, standardDays - EXPEDITE_DAYS_SAVED);
  if (expeditedDays < standardDays) {
    production.push({ speed: 'expedited', production_days: expeditedDays, estimated_ship_date: addBusinessDays(now, expeditedDays),
      surcharge_cents: Math.round(subtotal * catalog.rates.expedite_fraction_per_day * (standardDays - expeditedDays)) });
  }

  // shipping
  const shipment = planShipment(shipmentParts);
  const zone = shipTo ? shippingZone(shippingConfig.origin_state, shipTo.state) : null;
  const shipping_options: ShippingOption[] = [];
  if (zone !== null && shipmentParts.length) {
    for (const p of production) {
      for (const o of rateShipment(shipment, zone, p.estimated_ship_date)) {
        shipping_options.push({
          id: `shp_${p.speed}_${o.carrier}_${o.service}`, production_speed: p.speed, carrier: o.carrier, service: o.service, amount_cents: o.amount_cents,
          production_surcharge_cents: p.surcharge_cents, planned_ship_date: p.estimated_ship_date, estimated_delivery_date: o.estimated_delivery_date,
          delivery_days: o.delivery_days, delivery_date_guaranteed: o.delivery_date_guaranteed, requires_freight: o.requires_freight, rate_source: `kerf_table_${catalog.version}`,
        });
      }
    }
  }
  const defaultOption = shipping_options.filter((o) => o.production_speed === 'standard').sort((a, b) => a.amount_cents - b.amount_cents)[0] ?? null;
  const amountShipping = defaultOption?.amount_cents ?? 0;
  const taxState = shipTo?.state ?? null;
  const amountTax = taxState ? salesTaxCents(taxState, subtotal) : 0;
  return {
    items,
    fulfillment: {
      production, shipping_status: zone === null ? 'destination_required' : 'rated', shipping_options,
      requires_freight: shipment.requires_freight, freight_reasons: shipment.freight_reasons, shipping_zone: zone,
      package: { weight_lb: shipment.weight_lb, billable_lb: shipment.billable_lb, box_in: shipment.box_in },
    },
    amount_subtotal_cents: subtotal, amount_shipping_cents: amountShipping, amount_tax_cents: amountTax, amount_total_cents: subtotal + amountShipping + amountTax,
    tax: { status: taxState ? 'calculated' : 'destination_required', state: taxState, rate_percent: taxState ? STATE_TAX_RATE_PERCENT[taxState] : null, taxable_amount_cents: taxState ? subtotal : 0 },
    catalog_version: catalog.version,
    manufacturing_warnings: items.flatMap((it) => it.dfm.parts.flatMap((p) => p.production_warning_details.map((w) => ({ design_id: it.design_id, part_id: p.part_id, code: w.code, message: w.message })))),
  };
}

/**
 * The API's quote (docs/api.md "Quotes"). Two call forms:
 * - quote(request, designs, catalog, { id, now }): validates the request, runs DFM per item, prices;
 * - quote(items, { catalog, shipTo, now }): prices items whose DFM report the caller already made
 *   (the service's use case); returns the PricingOutcome without quote ids or timestamps.
 */
export function quote(items: PricingInput[], opts?: PricingOptions): PricingOutcome;
export function quote(request: unknown, designs: ReadonlyMap<string, Design> | Record<string, Design>, catalog: Catalog, ctx: QuoteContext): Quote;
export function quote(a: unknown, b?: unknown, c?: Catalog, d?: QuoteContext): Quote | PricingOutcome {
  if (Array.isArray(a)) {
    const o = (b ?? {}) as PricingOptions;
    // without an explicit clock the ship dates are from now: pass `now` for a deterministic answer
    return priceItems(a as PricingInput[], o.shipTo, o.catalog ?? defaultCatalog(), o.now ?? new Date().toISOString(), o.shipping);
  }
  return quoteRequest(a, b as ReadonlyMap<string, Design> | Record<string, Design>, c!, d!);
}

function quoteRequest(requestRaw: unknown, designs: ReadonlyMap<string, Design> | Record<string, Design>, catalog: Catalog, ctx: QuoteContext): Quote {
  const request = parseQuoteRequest(requestRaw);
  const lookup = (id: string): Design | undefined => (designs instanceof Map ? designs.get(id) : (designs as Record<string, Design>)[id]);
  const inputs: PricingInput[] = request.items.map((it, i) => {
    const design = lookup(it.design_id);
    if (!design) fail(`items[${i}].design_id`, `design ${it.design_id} was not found`);
    try {
      const dfmContext = { id: ctx.dfmId ? ctx.dfmId(i) : `${ctx.id}_dfm_${i}`, now: ctx.now };
      const report = ctx.dfm ? ctx.dfm(i, design!, it.configuration, dfmContext) : dfm(design!, it.configuration, catalog, dfmContext);
      return { design: design!, quantity: it.quantity, quantity_options: it.quantity_options, client_reference_id: it.client_reference_id, dfm: report };
    } catch (e) {
      if (e instanceof InvalidConfigurationError) throw new InvalidConfigurationError(`items[${i}].${e.param}`, e.message);
      throw e;
    }
  });
  const priced = priceItems(inputs, request.ship_to, catalog, ctx.now, ctx.shipping);
  const created = new Date(ctx.now);
  const expires = new Date(created.getTime() + catalog.rates.quote_validity_days * 86400000);
  return {
    // status_url is the contract's; null here: the id is the reference, the service serves the quote
    id: ctx.id, object: 'quote', status: worstStatus(priced.items.map((i) => i.status)), status_url: null, design_id: priced.items[0].design_id, currency: 'usd',
    amount_subtotal_cents: priced.amount_subtotal_cents, amount_shipping_cents: priced.amount_shipping_cents, amount_tax_cents: priced.amount_tax_cents, amount_total_cents: priced.amount_total_cents,
    tax: priced.tax, items: priced.items, requirements: priced.items.flatMap((i) => i.requirements), fulfillment: priced.fulfillment,
    manufacturing_warnings: priced.manufacturing_warnings, production_files: { review_warning: null }, error: null, catalog_version: catalog.version,
    created_at: ctx.now, expires_at: expires.toISOString(),
  };
}
