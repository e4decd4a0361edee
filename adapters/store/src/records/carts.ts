// The cart record ('carts'): a cart of docs/api.md "Carts and payment" as the use cases keep it, with
// its checkout page's token and the bookkeeping that charges it exactly once under `_` keys.
import type { QuoteItemRequestRecord, QuoteView, ShippingAddress, ShippingOption } from './quotes.ts';

export type CartStatus = 'open' | 'checked_out' | 'expired';

/** A cart's `payment` object. */
export interface CartPayment {
  cart_id: string;
  status: 'processing' | 'paid' | 'failed' | 'refunded';
  payment_intent_id: string | null;
  amount_total_cents: number;
  order_id: string | null;
  paid_at: string | null;
}

export interface CartTotals {
  amount_subtotal_cents: number | null;
  amount_shipping_cents: number | null;
  amount_production_surcharge_cents: number;
  amount_tax_cents: number | null;
  tax_status: 'destination_required' | 'calculated';
  amount_total_cents: number | null;
}

/**
 * A charge recorded on its owner's record before the processor is called (a cart's, a dropship
 * charge's), so that whoever finishes it (a retry, the reconciler after a crash) sends the same one.
 */
export interface ChargeIntent {
  /** the processor idempotency key */
  key: string;
  amount_cents: number;
  currency: string;
  /** a processor payment method id; null = the saved card */
  payment_method: string | null;
  /** the caller's Idempotency-Key: a retry with it resumes this charge */
  client_key: string | null;
  started_at: string;
  /** known once the processor answered */
  payment_intent_id: string | null;
}

export interface CartRecord {
  id: string;
  object: 'cart';
  /** +1 on every change of the cart (a new quote) */
  revision: number;
  status: CartStatus;
  checked_out: boolean;
  /** the web site's checkout page */
  cart_url: string;
  status_url: string;
  items: QuoteItemRequestRecord[];
  ship_to: ShippingAddress | null;
  shipping_option_id: string | null;
  selected_shipping_option: ShippingOption | null;
  /** the quote the cart is priced from, as its caller saw it */
  quote: QuoteView;
  totals: CartTotals;
  manufacturing_warnings: object[];
  order_id: string | null;
  payment: CartPayment | null;
  client_reference_id: string | null;
  created_at: string;
  /** the quote's */
  expires_at: string;
  /** the checkout page's capability (in cart_url) */
  _token: string;
  /** the charge under way (recorded before the processor is called); null when none */
  _intent: ChargeIntent | null;
  /** charges tried for this revision that failed (a new attempt is a new processor key) */
  _attempt: number;
  /** the Idempotency-Key of the pay request that checked the cart out: a retry with it answers the cart */
  _paid_by?: string | null;
  /** the Idempotency-Key of the pay request whose payment failed last: a retry with it answers that failure */
  _failed_by?: string | null;
}
