// Carts, orders and the account as the API serves them (docs/api.md "Carts and payment", "Orders",
// "Account").
import { Type, type Static, type TObject, type TProperties } from '@sinclair/typebox';
import { Quote, ShippingOption } from './quotes.ts';
import { QuoteItemRequest } from './requests.ts';
import { cents, centsOrNull, createdAt, described, enumOf, expiresAt, id, nullable, objectName, orNull } from './fields.ts';

const AnyObject = Type.Unsafe<object>({ type: 'object' });
const OrderId = orNull<string>({ type: 'string', description: 'The order the cart became, or null until paid.' });
const Subtotal = 'Parts, hardware, finishes and assembly before shipping and tax';

export const ShipToView = Type.Object({
  name: Type.String({ description: 'The recipient\'s name.' }),
  street1: Type.String({ description: 'Street address.' }),
  city: Type.String({ description: 'City of the address (US addresses only).' }),
  state: Type.String({ description: 'State; a two-letter US state code.' }),
  postal_code: Type.String({ description: 'Postal code; a US ZIP code for shipping and tax.' }),
  country: Type.Literal('US', { description: 'Two-letter country code; shipping and tax: `US` only.' }),
});

export const CART_STATUSES = ['open', 'checked_out', 'expired'] as const;
export type CartStatus = (typeof CART_STATUSES)[number];

export const CartPayment = Type.Object({
  cart_id: Type.String({ description: 'The cart.' }),
  status: enumOf(['processing', 'paid', 'failed', 'refunded'] as const, { description: '`processing`, `paid`, `failed` or `refunded`.' }),
  payment_intent_id: orNull<string>({ type: 'string', description: 'The payment processor\'s payment, or null.' }),
  amount_total_cents: cents('What is charged'),
  order_id: orNull<string>({ type: 'string', description: 'The order the payment made, or null.' }),
  paid_at: orNull<string>({ type: 'string', description: 'When it was paid (ISO 8601), or null.' }),
});
export type CartPayment = Static<typeof CartPayment>;

export const CartTotals = Type.Object({
  amount_subtotal_cents: centsOrNull(Subtotal),
  amount_shipping_cents: centsOrNull('Shipping'),
  amount_production_surcharge_cents: cents('Surcharge for the production speed chosen'),
  amount_tax_cents: centsOrNull('Sales tax (US addresses only)'),
  tax_status: enumOf(['destination_required', 'calculated'] as const, { description: 'Whether tax was calculated (`calculated`) or waits for a US `ship_to` (`destination_required`).' }),
  amount_total_cents: centsOrNull('What is charged'),
});
export type CartTotals = Static<typeof CartTotals>;

export const Cart = Type.Object({
  id: id('cart (`crt_...`)'),
  object: objectName('cart'),
  revision: Type.Integer({ description: 'Increases with every change.' }),
  status: enumOf(CART_STATUSES, { description: '`open`, `checked_out` or `expired`.' }),
  checked_out: Type.Boolean({ description: 'Whether the cart has been paid.' }),
  cart_url: Type.String({ description: 'The cart\'s checkout page on the web site.' }),
  status_url: Type.String({ description: 'Poll this URL for the cart.' }),
  items: Type.Array(QuoteItemRequest, { description: 'The items, as a quote request takes them (design, quantity, configuration).' }),
  ship_to: nullable(ShipToView, 'Destination address (US only), or null.'),
  shipping_option_id: orNull<string>({ type: 'string', description: 'A shipping option from the quote\'s fulfillment.shipping_options.' }),
  selected_shipping_option: nullable(ShippingOption, 'The chosen shipping option, or null.'),
  quote: described(Quote, 'The quote of the cart\'s current revision.'),
  totals: described(CartTotals, 'Amounts in cents.'),
  manufacturing_warnings: Type.Array(AnyObject, { description: 'Things to know that do not block production.' }),
  order_id: OrderId,
  payment: nullable(CartPayment, 'The payment and its state, or null.'),
  client_reference_id: orNull<string>({ type: 'string', description: 'Your own reference, echoed back.' }),
  created_at: createdAt,
  expires_at: expiresAt,
});
export type Cart = Static<typeof Cart>;

export const Tracking = Type.Object({
  carrier: Type.String({ description: 'Shipping carrier.' }),
  service: orNull<string>({ type: 'string', description: 'Shipping service, or null.' }),
  number: Type.String({ description: 'Tracking number.' }),
  url: orNull<string>({ type: 'string', description: 'The carrier\'s tracking page for the shipment, or null.' }),
  shipped_at: orNull<string>({ type: 'string', description: 'When it shipped (ISO 8601), or null.' }),
  delivered_at: orNull<string>({ type: 'string', description: 'When it was delivered (ISO 8601), or null.' }),
});
export type Tracking = Static<typeof Tracking>;

const Selection = (what: string) => orNull<string>({ type: 'string', description: `${what}, or null.` });

export const OrderLineItem = Type.Object({
  id: id('line item'),
  type: enumOf(['part', 'hardware', 'finish', 'assembly', 'shipping'] as const, { description: 'What the line charges for: `part`, `hardware`, `finish`, `assembly` or `shipping`.' }),
  part_id: orNull<string>({ type: 'string', description: 'The unique part (the design\'s `parts[].id`), or null.' }),
  design_id: orNull<string>({ type: 'string', description: 'The design (an analysed upload), or null.' }),
  name: Type.String({ description: 'What the line is, to show.' }),
  quantity: Type.Integer({ description: 'Units charged: a part line\'s is the item\'s quantity x the part\'s `instance_count`.' }),
  unit_amount_cents: Type.Number({ description: 'Price per unit, in cents of `currency` (USD).' }),
  amount_cents: Type.Number({ description: 'The line\'s amount, in cents of `currency` (USD).' }),
  material_id: Selection('The sheet material (from /v1/materials)'),
  tube_profile_id: Selection('The tube profile (from /v1/tube-profiles)'),
  powder_coat_color_id: Selection('The powder-coat colour (from /v1/powder-coat-colors)'),
  finish_id: Selection('The finish (from /v1/finishes)'),
  hole_operation_count: Type.Integer({ description: 'Holes with hardware, taps or countersinks.' }),
});
export type OrderLineItem = Static<typeof OrderLineItem>;

export const ORDER_STATUSES = ['received', 'in_production', 'ready_for_pickup', 'shipped', 'delivered', 'cancelled', 'refunded'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

/** One status the order reached, in order: `received` first. */
export const OrderEvent = Type.Object({
  type: enumOf(ORDER_STATUSES, { description: 'What happened: `received` when the order was placed, then each status it moved to.' }),
  at: Type.String({ description: 'When it happened (ISO 8601).' }),
  reason: Type.Optional(Type.String({ description: 'Why, when an operator gave a reason (a cancel).' })),
});
export type OrderEvent = Static<typeof OrderEvent>;

export const Order = Type.Object({
  id: id('order (`ord_...`)'),
  object: objectName('order'),
  status: enumOf(ORDER_STATUSES, { description: `Where the order is: ${ORDER_STATUSES.map((s) => `\`${s}\``).join(', ')}.` }),
  status_url: Type.String({ description: 'Poll this URL for the order.' }),
  created_at: createdAt,
  cart_id: Type.String({ description: 'The cart that was paid.' }),
  quote_id: Type.String({ description: 'The quote that was paid.' }),
  amount_subtotal_cents: cents(Subtotal),
  amount_discount_cents: cents('Discounts'),
  amount_production_surcharge_cents: cents('Surcharge for the production speed chosen'),
  amount_tax_cents: cents('Sales tax (US addresses only)'),
  amount_shipping_cents: cents('Shipping'),
  amount_total_cents: cents('What was charged'),
  expedited: Type.Boolean({ description: 'Whether expedited production was chosen.' }),
  production_hold: Type.Boolean({ description: 'Whether production waits for a release.' }),
  estimated_ship_date: orNull<string>({ type: 'string', description: 'Estimated ship date (ISO 8601 date).' }),
  delivered_at: orNull<string>({ type: 'string', description: 'When it was delivered (ISO 8601), or null.' }),
  po_number: orNull<string>({ type: 'string', description: 'Purchase order number, or null.' }),
  client_reference_id: orNull<string>({ type: 'string', description: 'Your own reference (the cart\'s), echoed back.' }),
  ship_to: nullable(ShipToView, 'Destination address (US only), or null.'),
  shipping_option_id: orNull<string>({ type: 'string', description: 'The shipping option chosen from the quote\'s fulfillment.shipping_options, or null.' }),
  payment_intent_id: Type.String({ description: 'The payment processor\'s payment.' }),
  tracking: nullable(Tracking, 'Carrier, tracking number and link once shipped, or null.'),
  line_items: Type.Array(OrderLineItem, { description: 'Priced lines: parts, hardware, finishes, assembly, shipping.' }),
  events: Type.Array(OrderEvent, { description: 'The order\'s history, oldest first.' }),
});
export type Order = Static<typeof Order>;

/** An operator's view of an object: whose it is. */
export const withAccount = <T extends TProperties>(schema: TObject<T>) =>
  Type.Object({ ...schema.properties, account_id: Type.Optional(Type.String({ description: 'The account that owns it.' })) });

export const Account = Type.Object({
  id: id('account'),
  object: objectName('account'),
  email: Type.String({ description: 'Email address.' }),
  name: Type.String({ description: 'The account holder\'s name.' }),
  has_saved_card: Type.Boolean({ description: 'Whether the account has a card on file.' }),
  card: nullable(Type.Object({
    brand: Type.String({ description: 'Card brand (visa, mastercard, ...).' }),
    last4: Type.String({ description: 'Last four digits of the card.' }),
    exp_month: Type.Integer({ description: 'Card expiry month.' }),
    exp_year: Type.Integer({ description: 'Card expiry year.' }),
  }), 'The saved card: brand, last 4 digits, expiry; or null.'),
  payment_method_setup_url: orNull<string>({ type: 'string', description: 'Page where the customer saves a card; only while no card is saved, null otherwise.' }),
  dropship: nullable(Type.Object({
    status: Type.String({ description: 'The account\'s dropship access: `requested`, `approved`, `suspended` or `denied`.' }),
  }), 'The account\'s dropship access, or null when it never asked for it.'),
});
export type Account = Static<typeof Account>;
