// The payment processor port: what the use cases (account, carts/pay, orders, dropship) need from a
// card processor. Two implementations live in @kerf/payments: the embedded simulation (the default)
// and Stripe; both pass one contract suite. Types and small pure helpers only: no processor here.
//
// Rules every processor keeps:
// - One customer per Kerf account, created on first need; reads never create one.
// - A charge is off-session and carries an idempotency key: the processor's own idempotency, so the
//   same key always answers the same payment and never charges twice, also when called
//   concurrently or from another process, and also after a restart.
// - A charge answers a Payment whatever its outcome (a decline is a `failed` payment, not an
//   exception); `paymentError` turns an unsuccessful one into the caller-facing UseCaseError.
//   Exceptions are for what is not a payment outcome: no card on file (`no_payment_method`), a key
//   reused with a different amount (`idempotency_key_reused`), an unreachable processor.
// - `processing` payments settle later (succeeded or failed): subscribers of `onPaymentUpdated`
//   hear it from the process that learns it, and `retrievePayment` always answers the current state,
//   so a use case can also poll. A reconciler after a crash finds a charge by its idempotency key.
import { UseCaseError } from './errors.ts';

export type PaymentStatus = 'succeeded' | 'processing' | 'requires_action' | 'failed';

/** The account's saved card (docs/api.md "Account"). */
export interface SavedCard {
  brand: string;
  last4: string;
  exp_month: number;
  exp_year: number;
}

export interface SavedCardState {
  has_saved_card: boolean;
  card: SavedCard | null;
}

/** The Kerf account a customer belongs to (email and name are passed on to the processor). */
export interface PaymentAccount {
  id: string;
  email?: string | null;
  name?: string | null;
}

export interface ChargeRequest {
  account: PaymentAccount;
  amount_cents: number;
  /** ISO 4217, lower case; default 'usd'. */
  currency?: string;
  /** Derived by the caller from what is paid (cart id + revision): the same key is the same charge. */
  idempotency_key: string;
  /** A processor payment method id (pay body `{type: "payment_method", id}`); default the saved card. */
  payment_method?: string | null;
  description?: string | null;
  /** Echoed back on the payment (cart_id, order_id, ...). */
  metadata?: Record<string, string>;
}

export interface Payment {
  /** The processor's payment intent id (`pi_...`). */
  id: string;
  status: PaymentStatus;
  amount_cents: number;
  currency: string;
  account_id: string;
  idempotency_key: string;
  /** The payment method charged. */
  payment_method: string | null;
  /** Why it did not succeed: `card_declined`, `authentication_required`, `processing_error`; null otherwise. */
  failure_code: string | null;
  /** The processor's decline reason (`insufficient_funds`, `generic_decline`, ...) for a decline. */
  decline_reason: string | null;
  amount_refunded_cents: number;
  metadata: Record<string, string>;
  created_at: string;
}

export type RefundStatus = 'succeeded' | 'pending' | 'failed';

export interface RefundRequest {
  payment_id: string;
  /** Default: what is left to refund. */
  amount_cents?: number;
  /** The same key answers the same refund. */
  idempotency_key: string;
  reason?: string | null;
}

export interface Refund {
  id: string;
  payment_id: string;
  amount_cents: number;
  status: RefundStatus;
  created_at: string;
}

export type PaymentListener = (payment: Payment) => void | Promise<void>;

export interface PaymentProcessor {
  /** 'embedded' or 'stripe'. */
  readonly kind: string;
  /** The account's saved card; `{has_saved_card: false, card: null}` without a customer. Creates nothing. */
  savedCard(accountId: string): Promise<SavedCardState>;
  /** Where the customer saves a card (the account's `payment_method_setup_url`); creates the customer when needed. */
  paymentMethodSetupUrl(account: PaymentAccount, opts?: { return_url?: string }): Promise<string>;
  /** Detaches every saved card of the account (the person removed it); payments made stay as they are. */
  detachPaymentMethods(accountId: string): Promise<void>;
  /** Off-session charge. Throws `no_payment_method` (no saved card and none given) and `idempotency_key_reused`. */
  charge(request: ChargeRequest): Promise<Payment>;
  /** The payment's current state; null when unknown. */
  retrievePayment(paymentId: string): Promise<Payment | null>;
  /** The payment a charge with this key made, if any (a reconciler after a crash); never charges. */
  findPaymentByIdempotencyKey(accountId: string, idempotencyKey: string): Promise<Payment | null>;
  /** Refunds a succeeded payment (all that is left by default). Throws `payment_not_refundable`. */
  refund(request: RefundRequest): Promise<Refund>;
  /** Later outcomes of processing payments (and refunds changing a payment). Returns unsubscribe. */
  onPaymentUpdated(listener: PaymentListener): () => void;
  /**
   * A webhook from the processor (raw body bytes and the request headers), verified; answers the
   * updated payment, or null for an event that is not about one. Throws `webhook_signature_invalid`.
   * Processors without webhooks (the embedded one) do not have it.
   */
  handleWebhook?(rawBody: Uint8Array | string, headers: Record<string, string | string[] | undefined>): Promise<Payment | null>;
  close(): Promise<void>;
}

// ---------------------------------------------------------------------------------------------
// Pure helpers

/** A payment no later state will change (processing is the only open one; requires_action needs the customer). */

/**
 * The caller-facing error of a payment that did not go through (402 card_declined
 * with the processor's reason, 402 payment_not_completed), null for succeeded and processing.
 */
export function paymentError(p: Payment): UseCaseError | null {
  if (p.status === 'failed' && p.failure_code !== 'authentication_required') {
    const reason = p.decline_reason ?? p.failure_code ?? 'declined';
    return new UseCaseError('payment_required', 'payment_error', 'card_declined',
      `The card was declined: ${reason.replace(/_/g, ' ')}.`, { details: { payment_intent_id: p.id, decline_code: reason } });
  }
  if (p.status === 'requires_action' || p.status === 'failed') {
    return new UseCaseError('payment_required', 'payment_error', 'payment_not_completed',
      'The payment cannot complete off-session: the card needs the customer to authenticate. Ask them to update the saved card.', { details: { payment_intent_id: p.id, failure_code: p.failure_code } });
  }
  return null;
}

export const noPaymentMethod = (): UseCaseError =>
  new UseCaseError('conflict', 'payment_error', 'no_payment_method', 'The account has no card on file; save one at payment_method_setup_url (GET /v1/account).');

export const paymentKeyReused = (key: string): UseCaseError =>
  new UseCaseError('conflict', 'idempotency_error', 'idempotency_key_reused', `The payment idempotency key '${key}' was already used for a different charge.`);

export const paymentNotRefundable = (message: string): UseCaseError =>
  new UseCaseError('conflict', 'payment_error', 'payment_not_refundable', message);

export const webhookSignatureInvalid = (message: string): UseCaseError =>
  new UseCaseError('malformed', 'invalid_request_error', 'webhook_signature_invalid', message);

export const processorUnavailable = (message: string): UseCaseError =>
  new UseCaseError('unavailable', 'api_error', 'payment_processor_unavailable', message, { retryable: true, retryAfterSeconds: 5 });
