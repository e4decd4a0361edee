// POST /v1/carts/{id}/pay (docs/api.md "Carts and payment"): the cart is charged
// exactly once (./charge-once.ts) and a succeeded payment becomes one order; a processing payment
// answers 202 and is finished later by the reconcile job or the processor's onPaymentUpdated.
import { isStoreError, type CartRecord, type Job } from '@kerf/store';
import {
  requireScope, type Caller, type UseCaseContext, UseCaseError, invalid, RetryJobLater, type JobKindHandlers, noPaymentMethod,
  paymentError, type Payment, CartPay, validateInput, newEvent,
} from '../core/index.ts';
import { cartCheckedOut, cartExpired, isExpired, paymentInProgress, readCart, view } from './carts.ts';
import { chargeIntent, chargeKey, crashPoint, lookupIntent, newIntent, processorOf, type ChargeIntent } from './charge-once.ts';
import { ensureOrder } from './orders.ts';

export const PAYMENT_RECONCILE_JOB = 'payment_reconcile';
export const DEFAULT_RECONCILE_AFTER_MS = 60_000;
/** A processing payment is looked at again after this, times the looks so far, at most hourly. */
const PROCESSING_RECHECK_MS = 5_000;
const MAX_RECHECK_MS = 3_600_000;
/** The store's limit; with the growing delay that is days of processing. */
const RECONCILE_ATTEMPTS = 100;

export interface PayResult {
  cart: CartRecord;
  /** checked_out: paid and ordered; processing: the processor has not decided yet (HTTP 202) */
  outcome: 'checked_out' | 'processing';
}

const reconcileAfter = (ctx: UseCaseContext): number => ctx.paymentReconcileAfterMs ?? DEFAULT_RECONCILE_AFTER_MS;

/** Rule 6: what must hold before a cart is charged; the error names the missing piece. */
async function requirePayable(ctx: UseCaseContext, accountId: string, cart: CartRecord, byCardOnFile: boolean): Promise<void> {
  const notReady = (param: string, message: string): UseCaseError =>
    new UseCaseError('conflict', 'invalid_request_error', 'cart_not_ready', message, { param });
  if (!cart.ship_to) throw notReady('ship_to', `Cart '${cart.id}' has no ship_to: PATCH the cart with a US address first.`);
  if (!cart.shipping_option_id) throw notReady('shipping_option_id', `Cart '${cart.id}' has no shipping option selected: PATCH it with a shipping_option_id from quote.fulfillment.shipping_options.`);
  if (cart.quote.status !== 'ready') throw notReady('items', `The cart's quote is ${String(cart.quote.status)}, not ready: resolve its requirements (PATCH the items) first.`);
  if (cart.totals.tax_status !== 'calculated' || !cart.totals.amount_total_cents) throw notReady('ship_to', `Cart '${cart.id}' has no calculated tax or total yet.`);
  if (byCardOnFile && !(await processorOf(ctx).savedCard(accountId)).has_saved_card) throw noPaymentMethod();
}

/**
 * Pays an open cart. Answers the checked-out cart (with order_id) or, while the processor is still
 * deciding, the cart with payment.status processing; throws 402 card_declined/payment_not_completed
 * (nothing created), 409 for a checked-out, expired or unready cart or a payment under way with
 * another Idempotency-Key.
 */
export async function payCart(ctx: UseCaseContext, caller: Caller, input: CartPay): Promise<PayResult> {
  requireScope(caller, 'carts');
  requireScope(caller, 'payments');
  const req = validateInput(CartPay, input);
  if (req.payment.type === 'payment_method' && !req.payment.id) throw invalid('parameter_missing', "Missing required parameter 'payment.id' (the processor payment method id).", 'payment.id');
  if (req.payment.type === 'card_on_file' && req.payment.id) throw invalid('parameter_unknown', "'payment.id' is given only with type 'payment_method'.", 'payment.id');
  const accountId = caller.accountId;
  const clientKey = req.idempotency_key ?? null;
  processorOf(ctx); // no processor: 503 before anything is recorded

  let intent: ChargeIntent;
  for (;;) {
    const rec = await readCart(ctx, accountId, req.cart_id);
    const cart = rec.data;
    if (cart.status === 'checked_out') {
      if (clientKey !== null && cart._paid_by === clientKey) return { cart: view(ctx, cart), outcome: 'checked_out' };
      throw cartCheckedOut(cart);
    }
    if (cart._intent) {
      // the same request again (a retry, a concurrent duplicate): resume the recorded charge
      if (cart._intent.client_key !== clientKey) throw paymentInProgress(cart);
      intent = cart._intent;
      break;
    }
    if (clientKey !== null && cart._failed_by === clientKey && cart.payment?.payment_intent_id) {
      // a retry of the request whose payment failed (it may have failed after answering 202): the same failure
      const failed = await processorOf(ctx).retrievePayment(cart.payment.payment_intent_id);
      const failure = failed && paymentError(failed);
      if (failure) throw failure;
    }
    if (isExpired(ctx, cart) || cart.status === 'expired') throw cartExpired(cart);
    await requirePayable(ctx, accountId, cart, req.payment.type === 'card_on_file');
    intent = newIntent(ctx, chargeKey(cart.id, cart.revision, cart._attempt), cart.totals.amount_total_cents!, req.payment.type === 'payment_method' ? req.payment.id! : null, clientKey);
    // the reconciler exists before the intent does: a crash right after recording it is found
    await ctx.store.jobs.enqueue({ kind: PAYMENT_RECONCILE_JOB, resourceId: cart.id, accountId, delayMs: reconcileAfter(ctx), maxAttempts: RECONCILE_ATTEMPTS });
    const recorded: CartRecord = { ...cart, _intent: intent, payment: { cart_id: cart.id, status: 'processing', payment_intent_id: null, amount_total_cents: intent.amount_cents, order_id: null, paid_at: null } };
    try {
      await ctx.store.carts.update(accountId, cart.id, recorded, { expectedVersion: rec.version });
      break;
    } catch (err) {
      if (!isStoreError(err, 'conflict')) throw err; // a concurrent pay or PATCH: look again
    }
  }

  const account = await ctx.store.accounts.get(accountId);
  let payment: Payment;
  try {
    payment = await chargeIntent(ctx, { id: accountId, email: account?.email ?? null, name: account?.name ?? null }, intent,
      { cart_id: req.cart_id, account_id: accountId }, `Kerf cart ${req.cart_id}`);
  } catch (err) {
    // refused before any payment existed (no card any more, a bad payment method): the cart is payable again
    if (err instanceof UseCaseError && err.kind !== 'unavailable' && err.kind !== 'internal') await dropIntent(ctx, accountId, req.cart_id, intent.key);
    throw err;
  }
  const cart = await settleCart(ctx, accountId, req.cart_id, payment);
  const failure = paymentError(payment);
  if (failure) throw failure;
  return { cart: view(ctx, cart), outcome: cart.status === 'checked_out' ? 'checked_out' : 'processing' };
}

/** Forgets an intent the processor never charged (and never will: the same key is reused next time). */
async function dropIntent(ctx: UseCaseContext, accountId: string, cartId: string, key: string): Promise<void> {
  for (;;) {
    const rec = await ctx.store.carts.get(accountId, cartId);
    if (!rec || rec.data._intent?.key !== key) return;
    try {
      await ctx.store.carts.update(accountId, cartId, { ...rec.data, _intent: null, payment: null }, { expectedVersion: rec.version });
      return;
    } catch (err) {
      if (!isStoreError(err, 'conflict')) throw err;
    }
  }
}

/**
 * Brings the cart in line with a payment of it, from whoever learnt it (the pay request, the
 * reconciler, the processor's update): succeeded -> one order, cart checked_out (cart.checked_out
 * event); processing -> recorded; failed -> payment failed, the cart open for another attempt.
 * Idempotent: a settled cart is left as it is.
 */
export async function settleCart(ctx: UseCaseContext, accountId: string, cartId: string, payment: Payment): Promise<CartRecord> {
  for (;;) {
    const rec = await readCart(ctx, accountId, cartId);
    const cart = rec.data;
    if (cart.status === 'checked_out') {
      const own = cart.payment?.payment_intent_id === payment.id;
      if (payment.status === 'succeeded' && !own) await refundStray(ctx, cart, payment);
      if (!own || cart.payment!.status === 'refunded' || payment.amount_refunded_cents < payment.amount_cents) return cart;
      // the order's payment was refunded in full (an operator's cancel or refund): the cart says so
      const refunded: CartRecord = { ...cart, payment: { ...cart.payment!, status: 'refunded' } };
      try {
        await ctx.store.carts.update(accountId, cartId, refunded, { expectedVersion: rec.version });
        return refunded;
      } catch (err) {
        if (!isStoreError(err, 'conflict')) throw err;
        continue;
      }
    }
    const current = cart._intent?.key === payment.idempotency_key;
    let next: CartRecord;
    const events = [];
    if (payment.status === 'succeeded') {
      // a succeeded payment of this cart always becomes its order, even when its intent was given up
      if (!current) ctx.log.warn({ cart_id: cartId, payment_intent_id: payment.id }, 'a payment succeeded for an intent no longer recorded; ordering it');
      const order = await ensureOrder(ctx, accountId, cart, payment);
      crashPoint('after_order');
      const paidAt = ctx.now().toISOString();
      next = {
        ...cart, status: 'checked_out', checked_out: true, order_id: order.id,
        payment: { cart_id: cart.id, status: 'paid', payment_intent_id: payment.id, amount_total_cents: payment.amount_cents, order_id: order.id, paid_at: paidAt },
        _intent: null, _paid_by: cart._intent?.client_key ?? null,
      };
      events.push(newEvent(ctx, 'cart.checked_out', view(ctx, next)));
    } else if (!current) {
      return cart; // an old attempt's news
    } else if (payment.status === 'processing') {
      if (cart._intent!.payment_intent_id === payment.id) return cart;
      next = { ...cart, _intent: { ...cart._intent!, payment_intent_id: payment.id }, payment: { ...cart.payment!, status: 'processing', payment_intent_id: payment.id } };
    } else {
      next = {
        ...cart, _intent: null, _attempt: cart._attempt + 1, _failed_by: cart._intent!.client_key,
        payment: { cart_id: cart.id, status: 'failed', payment_intent_id: payment.id, amount_total_cents: payment.amount_cents, order_id: null, paid_at: null },
      };
    }
    try {
      await ctx.store.carts.update(accountId, cartId, next, { expectedVersion: rec.version, events });
      if (events.length) ctx.notifyJobs();
      return next;
    } catch (err) {
      if (!isStoreError(err, 'conflict')) throw err;
    }
  }
}

/**
 * A second succeeded payment of a cart already paid by another: only a paying process that stalled
 * past the reconciler's patience, then charged an intent given up meanwhile, can make one. It is
 * refunded (once, by its own key), so no charge stands without its order.
 */
async function refundStray(ctx: UseCaseContext, cart: CartRecord, payment: Payment): Promise<void> {
  if (payment.amount_refunded_cents >= payment.amount_cents) return;
  ctx.log.warn({ cart_id: cart.id, payment_intent_id: payment.id, paid_by: cart.payment?.payment_intent_id }, 'a second payment for a paid cart; refunding it');
  await processorOf(ctx).refund({ payment_id: payment.id, idempotency_key: `${payment.id}_stray`, reason: 'duplicate' });
}

/** The processor's news of a payment (onPaymentUpdated, a verified webhook): settles its cart. */
export async function paymentUpdated(ctx: UseCaseContext, payment: Payment): Promise<void> {
  const cartId = payment.metadata.cart_id;
  const accountId = payment.metadata.account_id ?? payment.account_id;
  if (!cartId || !accountId) return; // not a cart's payment (a dropship charge, another system's)
  if (!(await ctx.store.carts.get(accountId, cartId))) return;
  await settleCart(ctx, accountId, cartId, payment);
}

/**
 * The reconciler: one job per cart payment, due `paymentReconcileAfterMs` after the intent was
 * recorded. It finishes from the processor's record what the paying process did not (it died, or
 * the payment was still processing), and drops an intent the processor never received.
 */
export const paymentReconcileJob: JobKindHandlers = {
  system: true,
  async run(ctx: UseCaseContext, job: Job): Promise<void> {
    const rec = await ctx.store.carts.get(job.accountId, job.resourceId);
    const intent = rec?.data._intent;
    if (!rec || !intent) return; // settled
    const payment = await lookupIntent(ctx, job.accountId, intent);
    if (!payment) {
      const age = ctx.now().getTime() - Date.parse(intent.started_at);
      if (age < reconcileAfter(ctx)) throw new RetryJobLater({ code: 'payment_pending', message: 'the paying process may still charge' }, reconcileAfter(ctx) - age);
      ctx.log.info({ cart_id: rec.id, key: intent.key }, 'no charge was made for this payment intent; the cart is payable again');
      await dropIntent(ctx, job.accountId, rec.id, intent.key);
      return;
    }
    await settleCart(ctx, job.accountId, rec.id, payment);
    if (payment.status === 'processing') {
      throw new RetryJobLater({ code: 'payment_processing', message: 'the payment is still processing' }, Math.min(PROCESSING_RECHECK_MS * job.attempts, MAX_RECHECK_MS));
    }
  },
  async failed(ctx, job, error) {
    ctx.log.error({ cart_id: job.resourceId, code: error.code }, 'the payment reconciler gave up on this cart; it keeps its payment intent');
  },
};
