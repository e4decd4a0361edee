// Sample quote, cart and order records as the use cases write them (private keys included), for the
// contract's tests of the typed collections.
import type { CartRecord, OrderRecord, QuoteRecord } from '../src/port.ts';

const NOW = '2026-11-22T03:14:08.123Z';
const LATER = '2026-12-22T03:14:08.123Z';

/** A file quote while its design is analyzed: one processing item, the request kept for later. */
export function fileQuoteRecord(id: string, designId: string): QuoteRecord {
  return {
    id, object: 'quote', status: 'processing', status_url: `https://kerf.test/v1/quotes/${id}`, design_id: designId, currency: 'usd',
    amount_subtotal_cents: null, amount_shipping_cents: null, amount_tax_cents: null, amount_total_cents: null,
    items: [{ design_id: designId, quantity: 3, status: 'processing', client_reference_id: null, unit_amount_cents: null, amount_cents: null, quantity_options: [], requirements: [] }],
    requirements: [], fulfillment: null, manufacturing_warnings: [], production_files: { review_warning: null }, error: null,
    created_at: NOW, expires_at: LATER,
    _file_request: { quantity: 3, configuration: { defaults: { material_id: 'mat_mild_steel_2_0mm' } }, ship_to: { state: 'CA', postal_code: '94107', country: 'US' } },
    _design_id: designId,
  };
}

/** A priced quote whose item's settled DFM report the record names by id. */
export function pricedQuoteRecord(id: string, designId: string): QuoteRecord {
  const option = {
    id: 'shp_standard_ups_ground', production_speed: 'standard' as const, carrier: 'ups', service: 'ground', amount_cents: 1427, production_surcharge_cents: 0,
    planned_ship_date: '2026-12-03', estimated_delivery_date: '2026-12-10', delivery_days: 5, delivery_date_guaranteed: false, requires_freight: false, rate_source: 'table',
  };
  const { _file_request: _r, _design_id: _d, ...quote } = fileQuoteRecord(id, designId);
  return {
    ...quote, status: 'ready', amount_subtotal_cents: 4200, amount_shipping_cents: 1427, amount_tax_cents: 305, amount_total_cents: 5932,
    tax: { status: 'calculated', state: 'CA', rate_percent: 7.25, taxable_amount_cents: 4200 },
    items: [{
      design_id: designId, quantity: 3, status: 'ready', client_reference_id: 'bracket', unit_amount_cents: 1400, amount_cents: 4200, assembly_operations_amount_cents: 0,
      quantity_options: [{ quantity: 10, unit_amount_cents: 1100, amount_cents: 11000 }], requirements: [], dfm: null,
      line_items: [{ part_id: 'prt_1', process: 'sheet_metal', quantity: 3, unit_amount_cents: 1400, amount_cents: 4200, material_id: 'mat_mild_steel_2_0mm', tube_profile_id: null, finish_id: null, powder_coat_color_id: null, breakdown: [] }],
    }],
    fulfillment: { production: [], shipping_status: 'rated', shipping_options: [option], requires_freight: false, freight_reasons: [], shipping_zone: 8, package: { weight_lb: 1.31 } },
    catalog_version: '2026-11-22.1', _settled_dfm: { 0: 'dfm_settled' },
  };
}

/** A cart on a priced quote with a payment under way. */
export function cartRecord(id: string, quote: QuoteRecord): CartRecord {
  const { _file_request: _r, _design_id: _d, _settled_dfm: _s, ...view } = quote;
  const option = quote.fulfillment!.shipping_options[0];
  return {
    id, object: 'cart', revision: 2, status: 'open', checked_out: false, cart_url: 'https://kerf.test/checkout/ctk_1', status_url: `https://kerf.test/v1/carts/${id}`,
    items: [{ design_id: quote.design_id, quantity: 3, configuration: { defaults: { material_id: 'mat_mild_steel_2_0mm' } } }],
    ship_to: { name: 'Ada', street1: '1 Main St', city: 'San Francisco', state: 'CA', postal_code: '94107', country: 'US' },
    shipping_option_id: option.id, selected_shipping_option: option, quote: view,
    totals: { amount_subtotal_cents: 4200, amount_shipping_cents: 1427, amount_production_surcharge_cents: 0, amount_tax_cents: 305, tax_status: 'calculated', amount_total_cents: 5932 },
    manufacturing_warnings: [], order_id: null,
    payment: { cart_id: id, status: 'processing', payment_intent_id: null, amount_total_cents: 5932, order_id: null, paid_at: null },
    client_reference_id: null, created_at: NOW, expires_at: LATER,
    _token: 'ctk_1', _attempt: 0, _failed_by: null,
    _intent: { key: `${id}_r2_a0`, amount_cents: 5932, currency: 'usd', payment_method: null, client_key: 'idem-1', started_at: NOW, payment_intent_id: null },
  };
}

/** The order a paid cart made, refunded once. */
export function orderRecord(id: string, cart: CartRecord): OrderRecord {
  return {
    id, object: 'order', status: 'refunded', status_url: `https://kerf.test/v1/orders/${id}`, created_at: NOW, cart_id: cart.id, quote_id: cart.quote.id,
    amount_subtotal_cents: 4200, amount_discount_cents: 0, amount_production_surcharge_cents: 0, amount_tax_cents: 305, amount_shipping_cents: 1427, amount_total_cents: 5932,
    expedited: false, production_hold: false, estimated_ship_date: '2026-12-03', delivered_at: null, po_number: null, client_reference_id: null,
    ship_to: cart.ship_to, shipping_option_id: cart.shipping_option_id, payment_intent_id: 'pi_1', tracking: null,
    line_items: [{ id: 'oli_1', type: 'part', part_id: 'prt_1', design_id: cart.quote.design_id, name: 'Part prt_1 (sheet_metal)', quantity: 3, unit_amount_cents: 1400, amount_cents: 4200, material_id: 'mat_mild_steel_2_0mm', tube_profile_id: null, powder_coat_color_id: null, finish_id: null, hole_operation_count: 0 }],
    events: [{ type: 'received', at: NOW }, { type: 'refunded', at: LATER, reason: 'customer asked' }],
    _payment_intent_id: 'pi_1', _refund_id: 're_1',
  };
}
