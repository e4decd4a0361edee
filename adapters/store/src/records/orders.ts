// The order record ('orders'): an order of docs/api.md "Orders", made once from a paid cart, with the
// payment it refunds through under `_` keys. Its fields are the public object's (@kerf/contract's
// Order); the amounts a cart may not have worked out yet are typed as the cart's.
import type { CartTotals, Order, ShipTo } from '@kerf/contract';

export type OrderRecord = Omit<Order, 'amount_subtotal_cents' | 'amount_tax_cents' | 'amount_shipping_cents' | 'ship_to'> & Pick<CartTotals, 'amount_subtotal_cents' | 'amount_tax_cents' | 'amount_shipping_cents'> & {
  /** as the cart's */
  ship_to: ShipTo | null;
  /** the cart's payment, which a cancel or refund refunds */
  _payment_intent_id: string;
  /** the refund made, once, by a cancel or refund */
  _refund_id?: string | null;
};
