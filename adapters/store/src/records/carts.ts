// The cart record ('carts'): a cart of docs/api.md "Carts and payment" as the use cases keep it, with
// its checkout page's token and the bookkeeping that charges it exactly once under `_` keys. Its
// fields are the public object's (@kerf/contract's Cart).
import type { Cart, ShipTo } from '@kerf/contract';
import type { QuoteView } from './quotes.ts';

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

export type CartRecord = Omit<Cart, 'ship_to' | 'quote'> & {
  /** as the request gave it (checked to be a whole US address) */
  ship_to: ShipTo | null;
  /** the quote the cart is priced from, as its caller saw it */
  quote: QuoteView;
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
};
