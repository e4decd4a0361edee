// The quote as the API serves it. Its items carry the full DFM report; what a price is made of
// (line items, fulfillment) is documented as objects whose fields may grow.
import { Type, type Static } from '@sinclair/typebox';
import { DfmReportView, Requirement } from './designs.ts';
import { centsOrNull, cents, createdAt, described, DesignId, enumOf, expiresAt, Failure, id, nullable, objectName, orNull } from './fields.ts';

const Requirements = Type.Array(Requirement, { description: 'Selections still needed before it can be priced.' });
/** A JSON object documented in words: fields may grow. */
const Open = (description?: string) => Type.Unsafe<object>({ type: 'object', ...(description ? { description } : {}) });
const Selection = (what: string) => orNull<string>({ type: 'string', description: `${what}, or null.` });

/** One priced line of an item: a part's process, or the item's assembly. */
export const QuoteLineItem = Type.Object({
  part_id: orNull<string>({ type: 'string', description: 'The unique part (the design\'s `parts[].id`); null on the item\'s assembly line.' }),
  process: enumOf(['sheet_metal', 'tube_laser', 'assembly'] as const, { description: 'What the line pays for: `sheet_metal`, `tube_laser` or `assembly`.' }),
  quantity: Type.Number({ description: 'Units charged: a part line\'s is the item\'s quantity x the part\'s `instance_count`.' }),
  unit_amount_cents: Type.Number({ description: 'Price per unit, in cents of `currency` (USD).' }),
  amount_cents: Type.Number({ description: 'The line\'s amount, in cents of `currency` (USD).' }),
  material_id: Selection('The sheet material'),
  tube_profile_id: Selection('The tube profile'),
  finish_id: Selection('The finish'),
  powder_coat_color_id: Selection('The powder-coat colour'),
  breakdown: Type.Array(Open(), { description: 'How the line was priced: the amounts it adds up (material, cutting, bending, hardware, finish, set-up).' }),
});
export type QuoteLineItem = Static<typeof QuoteLineItem>;

export const ShippingOption = Type.Object({
  id: Type.String({ description: 'The option; a cart takes it as `shipping_option_id`.' }),
  production_speed: enumOf(['standard', 'expedited'] as const, { description: 'The production speed it ships after: `standard` or `expedited`.' }),
  carrier: Type.String({ description: 'Shipping carrier.' }),
  service: Type.String({ description: 'The carrier\'s service.' }),
  amount_cents: Type.Number({ description: 'Shipping, in cents of `currency` (USD).' }),
  production_surcharge_cents: Type.Number({ description: 'Surcharge for the production speed, in cents of `currency` (USD).' }),
  planned_ship_date: Type.String({ description: 'When it ships (ISO 8601 date).' }),
  estimated_delivery_date: Type.String({ description: 'When it is expected to arrive (ISO 8601 date).' }),
  delivery_days: Type.Number({ description: 'Business days in transit.' }),
  delivery_date_guaranteed: Type.Boolean({ description: 'Whether the carrier guarantees the delivery date.' }),
  requires_freight: Type.Boolean({ description: 'Whether it goes by freight.' }),
  rate_source: Type.String({ description: 'Where the rate comes from (the rate table and its catalog version).' }),
});
export type ShippingOption = Static<typeof ShippingOption>;

export const QuoteFulfillment = Type.Object({
  production: Type.Array(Open(), { description: 'The production speeds offered: lead time, ship date and surcharge of each.' }),
  shipping_status: enumOf(['destination_required', 'rated'] as const, { description: 'Whether shipping is rated (`rated`) or waits for a `ship_to` (`destination_required`).' }),
  shipping_options: Type.Array(ShippingOption, { description: 'Rated for the quote\'s ship_to; empty without one.' }),
  requires_freight: Type.Boolean({ description: 'Whether the parts go by freight.' }),
  freight_reasons: Type.Array(Type.String(), { description: 'Why they go by freight.' }),
  shipping_zone: orNull<number>({ type: 'number', description: 'The carrier zone of the destination, or null without one.' }),
  package: Open('The package: weight, billable weight and box size.'),
});
export type QuoteFulfillment = Static<typeof QuoteFulfillment>;

export const QuoteTax = Type.Object({
  status: enumOf(['destination_required', 'calculated'] as const, { description: 'Whether tax was calculated (`calculated`) or waits for a US `ship_to` (`destination_required`).' }),
  state: orNull<string>({ type: 'string', description: 'The US state taxed, or null.' }),
  rate_percent: orNull<number>({ type: 'number', description: 'The rate applied, percent, or null.' }),
  taxable_amount_cents: Type.Number({ description: 'The amount taxed, in cents of `currency` (USD).' }),
}, { description: 'How the tax was worked out.' });
export type QuoteTax = Static<typeof QuoteTax>;

/** Every status a quote (and, but `expired`, its item) may have. */
export const QUOTE_STATUSES = ['processing', 'requires_input', 'ready', 'blocked', 'expired', 'failed'] as const;
export type QuoteStatus = (typeof QUOTE_STATUSES)[number];
const Quantity = Type.Integer({ description: 'Units of the design (each part is made instance_count times as many).' });

export const QuoteItem = Type.Object({
  design_id: DesignId,
  quantity: Quantity,
  status: enumOf(['processing', 'requires_input', 'ready', 'blocked', 'failed'] as const, { description: 'The item\'s verdict: `ready`, `requires_input` or `blocked`; a file quote\'s item is `processing` until priced, `failed` with its analysis.' }),
  client_reference_id: orNull<string>({ type: 'string', description: 'Your own reference, echoed back.' }),
  // integers always (0 while not priced: `status` says why): existing clients read them as int and refuse null
  unit_amount_cents: cents('Price per unit (0 while the item is not priced: see `status`)'),
  amount_cents: cents('Price of the item\'s quantity (0 while the item is not priced: see `status`)'),
  assembly_operations_amount_cents: cents('Assembly operations (welding; 0 without any or while the item is not priced)'),
  quantity_options: Type.Array(Type.Object({
    quantity: Quantity,
    unit_amount_cents: cents('Price per unit at this quantity'),
    amount_cents: cents('Price of this quantity'),
  }), { description: 'Further quantities priced for comparison.' }),
  requirements: Requirements,
  // every item that got as far as DFM carries its full report, a requires_input file quote included
  dfm: Type.Optional(described(DfmReportView, 'The full DFM report of the item.')),
  line_items: Type.Optional(Type.Array(QuoteLineItem, { description: 'Priced lines: each part\'s process, and the assembly.' })),
});
export type QuoteItem = Static<typeof QuoteItem>;

export const Quote = Type.Object({
  id: id('quote (`quo_...`)'),
  object: objectName('quote'),
  status: enumOf(QUOTE_STATUSES, { description: '`processing` (a file quote still being analysed), `requires_input`, `ready`, `blocked`, `expired` or `failed`.' }),
  status_url: Type.String({ description: 'Poll this URL for the status.' }),
  design_id: Type.String({ description: 'The first item\'s design.' }),
  currency: Type.Literal('usd', { description: 'Currency of every amount (`usd`).' }),
  amount_subtotal_cents: centsOrNull('Parts, hardware, finishes and assembly before shipping and tax'),
  amount_shipping_cents: centsOrNull('Shipping'),
  amount_tax_cents: centsOrNull('Sales tax (US addresses only)'),
  amount_total_cents: centsOrNull('What is charged'),
  tax: Type.Optional(QuoteTax),
  items: Type.Array(QuoteItem, { description: 'The items quoted, each a design in a quantity.' }),
  requirements: Requirements,
  fulfillment: nullable(QuoteFulfillment, 'Production speeds, shipping options and the ship date; null until the quote is priced.'),
  manufacturing_warnings: Type.Array(Open(), { description: 'Things to know that do not block production.' }),
  production_files: Type.Object({
    review_warning: nullable(Type.Object({ design_id: DesignId, code: Type.String({ description: 'What to check, as a code.' }), message: Type.String({ description: 'What to check, in words.' }) }), 'What a person should check before production, or null.'),
  }, { description: 'Production files of the quoted designs: what to check before production.' }),
  error: nullable(Failure, 'Why the quote failed, or null.'),
  catalog_version: Type.Optional(Type.String({ description: 'The catalog version that priced the quote.' })),
  created_at: createdAt,
  expires_at: expiresAt,
});
export type Quote = Static<typeof Quote>;
