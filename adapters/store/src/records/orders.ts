// The order record ('orders'): an order of docs/api.md "Orders", made once from a paid cart, with the
// payment it refunds through under `_` keys.
import type { ShippingAddress } from './quotes.ts';

export type OrderStatus = 'received' | 'in_production' | 'ready_for_pickup' | 'shipped' | 'delivered' | 'cancelled' | 'refunded';

export interface OrderTracking {
  carrier: string;
  service: string | null;
  number: string;
  url: string | null;
  shipped_at: string | null;
  delivered_at: string | null;
}

export interface OrderLineItem {
  id: string;
  type: 'part' | 'hardware' | 'finish' | 'assembly' | 'shipping';
  part_id: string | null;
  design_id: string | null;
  name: string;
  quantity: number;
  unit_amount_cents: number;
  amount_cents: number;
  material_id: string | null;
  tube_profile_id: string | null;
  powder_coat_color_id: string | null;
  finish_id: string | null;
  hole_operation_count: number;
}

/** One status the order reached, in order: `received` first. */
export interface OrderEvent {
  type: OrderStatus;
  at: string;
  reason?: string;
}

export interface OrderRecord {
  id: string;
  object: 'order';
  status: OrderStatus;
  status_url: string;
  created_at: string;
  cart_id: string;
  quote_id: string;
  amount_subtotal_cents: number | null;
  amount_discount_cents: number;
  amount_production_surcharge_cents: number;
  amount_tax_cents: number | null;
  amount_shipping_cents: number | null;
  amount_total_cents: number;
  expedited: boolean;
  production_hold: boolean;
  estimated_ship_date: string | null;
  delivered_at: string | null;
  po_number: string | null;
  client_reference_id: string | null;
  ship_to: ShippingAddress | null;
  shipping_option_id: string | null;
  payment_intent_id: string;
  tracking: OrderTracking | null;
  line_items: OrderLineItem[];
  events: OrderEvent[];
  /** the cart's payment, which a cancel or refund refunds */
  _payment_intent_id: string;
  /** the refund made, once, by a cancel or refund */
  _refund_id?: string | null;
}
