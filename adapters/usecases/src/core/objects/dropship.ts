// The dropship API's objects (docs/commerce.md "Dropship"): items, orders, the account's access.
import { Type, type Static } from '@sinclair/typebox';
import { page } from './common.ts';
import { DropshipEndpoint } from './webhooks.ts';
import { Account, createdAt, described, enumOf, id, nullable, objectName, orNull, timeOrNull } from '@kerf/contract';
import { DropshipShipTo } from '../schemas.ts';

const Sku = Type.String({ description: 'Your stock-keeping unit for the item.' });
const intOrNull = (description: string) => orNull<number>({ type: 'integer', description });

export const DropshipItem = Type.Object({
  id: id('item'),
  object: objectName('dropship_item'),
  sku: Sku,
  name: Type.String({ description: 'The item\'s name, to show.' }),
  status: enumOf(['requested', 'approved'] as const, { description: '`requested` (waiting for an operator) or `approved` (orderable at `unit_price_cents`).' }),
  unit_price_cents: intOrNull('The locked price per unit once approved, in cents of `currency` (USD); null until then.'),
  kind: enumOf(['part', 'assembly'] as const, { description: 'Whether the item is one part or an assembly.' }),
  part: nullable(Type.Object({
    id: Type.String({ description: 'The part.' }),
    material: Type.String({ description: 'Material name.' }),
    material_type: Type.String({ description: 'Material family, e.g. mild_steel.' }),
    thickness: Type.Number({ description: 'Sheet thickness of the part\'s material, mm (0 when unknown).' }),
  }), 'The part, for a part item; else null.'),
  assembly: nullable(Type.Object({
    id: Type.String({ description: 'The assembly\'s design.' }),
    part_count: Type.Integer({ description: 'Number of unique parts.' }),
    has_welds: Type.Boolean({ description: 'Whether the design has welds.' }),
    file_name: Type.String({ description: 'The uploaded file\'s name.' }),
  }), 'The assembly, for an assembly item; else null.'),
  committed_quantity: intOrNull('A contract item\'s units already paid for; null for an on-demand item.'),
  allocated_quantity: Type.Integer({ description: 'Units of the committed quantity that orders have taken.' }),
  created_at: createdAt,
  approved_at: timeOrNull('When an operator approved it (ISO 8601), or null.'),
});
export type DropshipItem = Static<typeof DropshipItem>;

const DropshipCharge = Type.Object({
  kind: enumOf(['parts', 'shipping'] as const, { description: 'What was charged: `parts` (at creation) or `shipping` (at fulfilment).' }),
  amount_cents: Type.Integer({ description: 'The amount, in cents of `currency` (USD).' }),
  status: enumOf(['succeeded', 'processing', 'failed', 'refunded'] as const, { description: 'The charge\'s state: `succeeded`, `processing`, `failed` or `refunded`.' }),
  processor_payment_intent_id: Type.String({ description: 'The processor\'s id of the payment.' }),
  created_at: Type.String({ description: 'When it was made (ISO 8601).' }),
});

export const DropshipOrder = Type.Object({
  id: id('order'),
  object: objectName('dropship_order'),
  status: enumOf(['paid', 'in_review', 'in_production', 'shipped', 'delivered', 'cancelled'] as const, { description: '`paid`, `in_review`, `in_production`, `shipped`, `delivered` or `cancelled`.' }),
  external_ref: Type.String({ description: 'Your order reference; repeating it returns the existing order.' }),
  sku: Sku,
  item_id: Type.String({ description: 'The dropship item ordered.' }),
  quantity: Type.Integer({ description: 'Units ordered.' }),
  unit_price_cents: Type.Integer({ description: 'The item\'s locked price per unit, in cents of `currency` (USD).' }),
  parts_total_cents: Type.Integer({ description: 'Parts for the whole quantity, in cents of `currency` (USD).' }),
  retail_unit_price_cents: intOrNull('Your retail price per unit, in cents of `currency` (USD), as you sent it (never billed).'),
  contract: Type.Boolean({ description: 'Whether the units come from the item\'s committed (already paid) quantity, with no parts charge.' }),
  shipping: Type.Object({
    status: enumOf(['charged_at_fulfillment', 'charged', 'failed'] as const, { description: 'The shipping charge\'s state: `charged_at_fulfillment`, `charged` or `failed`.' }),
    amount_cents: intOrNull('The shipping charged, in cents of `currency` (USD), or null until shipped.'),
  }, { description: 'Shipping, charged when the order ships.' }),
  tracking: nullable(Type.Object({
    carrier: Type.String({ description: 'Shipping carrier.' }),
    number: Type.String({ description: 'Tracking number.' }),
    url: orNull<string>({ type: 'string', description: 'The carrier\'s tracking page for the shipment, or null.' }),
  }), 'Carrier, tracking number and link once shipped, or null.'),
  ship_to: described(DropshipShipTo, 'Destination address (US only), as the order gave it (the account\'s phone when it gave none).'),
  charges: Type.Array(DropshipCharge, { description: 'Card charges made for it.' }),
  production_hold: Type.Boolean({ description: 'Whether production waits for an operator\'s release (contract items).' }),
  created_at: createdAt,
  shipped_at: timeOrNull('When it shipped (ISO 8601), or null.'),
  delivered_at: timeOrNull('When it was delivered (ISO 8601), or null.'),
  cancelled_at: timeOrNull('When it was cancelled (ISO 8601), or null.'),
});
export type DropshipOrder = Static<typeof DropshipOrder>;

/** The account as an operator's dropship action answers it: the account's fields without its card. */
export const DropshipAccount = Type.Object({
  id: Account.properties.id,
  object: Account.properties.object,
  email: Account.properties.email,
  name: Account.properties.name,
  dropship: Account.properties.dropship,
});
export type DropshipAccount = Static<typeof DropshipAccount>;

// the dropship API wraps its objects (docs/commerce.md "Dropship"): {order}, {orders}, {items}, {endpoints}
export const DropshipOrderEnvelope = Type.Object({ order: described(DropshipOrder, 'The order.') });
export const DropshipOrderPage = Type.Object({
  orders: Type.Array(DropshipOrder, { description: 'The account\'s dropship orders, newest first.' }),
  has_more: Type.Optional(page.has_more),
  next_cursor: Type.Optional(page.next_cursor),
});
export const DropshipItemList = Type.Object({ items: Type.Array(DropshipItem, { description: 'The account\'s dropship items, approved and requested.' }) });
export const DropshipEndpointList = Type.Object({ endpoints: Type.Array(DropshipEndpoint, { description: 'The account\'s active dropship webhook endpoints.' }) });
