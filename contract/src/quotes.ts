// The quote as the API serves it. Its items carry the full DFM report; what a price is made of
// (line items, fulfillment) is documented as objects whose fields may grow.
import { Type, type Static } from '@sinclair/typebox';
import { DfmReportView, Requirement } from './designs.ts';
import { centsOrNull, cents, createdAt, described, DesignId, enumOf, expiresAt, Failure, id, nullable, objectName } from './fields.ts';

const Requirements = Type.Array(Requirement, { description: 'Selections still needed before it can be priced.' });
const Quantity = Type.Integer({ description: 'Units of the design (each part is made instance_count times as many).' });

export const QuoteItem = Type.Object({
  design_id: DesignId,
  quantity: Quantity,
  status: Type.String({ description: 'The item\'s verdict: `ready`, `requires_input` or `blocked`.' }),
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
});

export const Quote = Type.Object({
  id: id('quote (`quo_...`)'),
  object: objectName('quote'),
  status: enumOf(['processing', 'requires_input', 'ready', 'blocked', 'expired', 'failed'] as const, { description: '`processing` (a file quote still being analysed), `requires_input`, `ready`, `blocked`, `expired` or `failed`.' }),
  status_url: Type.String({ description: 'Poll this URL for the status.' }),
  design_id: Type.String({ description: 'The first item\'s design.' }),
  currency: Type.Literal('usd', { description: 'Currency of every amount (`usd`).' }),
  amount_subtotal_cents: centsOrNull('Parts, hardware, finishes and assembly before shipping and tax'),
  amount_shipping_cents: centsOrNull('Shipping'),
  amount_tax_cents: centsOrNull('Sales tax (US addresses only)'),
  amount_total_cents: centsOrNull('What is charged'),
  items: Type.Array(QuoteItem, { description: 'The items quoted, each a design in a quantity.' }),
  requirements: Requirements,
  fulfillment: nullable(Type.Unsafe<Record<string, unknown>>({ type: 'object' }), 'Production speeds, shipping options and the ship date.'),
  manufacturing_warnings: Type.Array(Type.Unsafe<Record<string, unknown>>({ type: 'object' }), { description: 'Things to know that do not block production.' }),
  production_files: Type.Object({
    review_warning: nullable(Type.Unsafe<Record<string, unknown>>({ type: 'object' }), 'What a person should check before production, or null.'),
  }, { description: 'Production files of the quoted designs: what to check before production.' }),
  error: nullable(Failure, 'Why the quote failed, or null.'),
  created_at: createdAt,
  expires_at: expiresAt,
});
export type Quote = Static<typeof Quote>;
