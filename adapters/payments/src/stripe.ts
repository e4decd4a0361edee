// The Stripe processor, with the official SDK: enabled by STRIPE_SECRET_KEY. Customers per account
// (the mapping kept in the store's documents), Checkout in setup mode for the setup URL, off-session
// PaymentIntents (confirm + off_session) under Stripe's own idempotency keys, refunds, and the
// signed webhook (stripe.webhooks.constructEvent) for payments that settle later.
//
// Stripe keeps an idempotency key for 24 hours. So that a key keeps meaning one charge after that,
// the payment intent a key made is also written down here once known, and looked for before a
// charge; a key whose outcome was never written down (a crash mid-call) is found again by the
// `kerf_idempotency_key` metadata on the customer's payment intents.
import Stripe from 'stripe';
import { isStoreError, type DocumentCollection, type Store } from '@kerf/store';
import {
  UseCaseError, noPaymentMethod, paymentKeyReused, notFound, paymentNotRefundable, processorUnavailable, webhookSignatureInvalid,
  type ChargeRequest, type Payment, type PaymentAccount, type PaymentListener, type PaymentProcessor, type Refund, type RefundRequest,
  type SavedCard, type SavedCardState,
} from '@kerf/usecases';
import { OWNER, checkCharge, invalidParam } from './common.ts';
import { Listeners } from './listeners.ts';

/** How many of a customer's payment intents a lookup by idempotency key reads at most. */
const LOOKUP_LIMIT = 1000;

export interface StripeProcessorOptions {
  secretKey: string;
  /** The webhook endpoint's signing secret (STRIPE_WEBHOOK_SECRET); without it webhooks are refused. */
  webhookSecret?: string | null;
  store: Pick<Store, 'documents'>;
  /** Where Checkout sends the customer after saving a card (and after cancelling). */
  returnUrl: string;
  /** SDK connection overrides: tests point these at a local stand-in of the Stripe API. */
  host?: string;
  port?: number;
  protocol?: 'http' | 'https';
  maxNetworkRetries?: number;
  timeoutMs?: number;
  onListenerError?: (err: unknown) => void;
}

interface CustomerDoc { account_id: string; customer_id: string }
interface ChargeDoc { account_id: string; payment_intent_id: string; amount_cents: number; currency: string }

export class StripePaymentProcessor implements PaymentProcessor {
  readonly kind = 'stripe';
  private readonly stripe: Stripe;
  private readonly customers: DocumentCollection<CustomerDoc>;
  private readonly charges: DocumentCollection<ChargeDoc>;
  private readonly listeners: Listeners;

  constructor(private readonly opts: StripeProcessorOptions) {
    this.stripe = new Stripe(opts.secretKey, {
      maxNetworkRetries: opts.maxNetworkRetries ?? 3,
      timeout: opts.timeoutMs ?? 30_000,
      telemetry: false,
      appInfo: { name: 'kerf' },
      ...(opts.host ? { host: opts.host } : {}),
      ...(opts.port ? { port: opts.port } : {}),
      ...(opts.protocol ? { protocol: opts.protocol } : {}),
    });
    this.customers = opts.store.documents<CustomerDoc>('stripe_customers', { idPrefix: 'scus' });
    this.charges = opts.store.documents<ChargeDoc>('stripe_charges', { idPrefix: 'sch' });
    this.listeners = new Listeners(opts.onListenerError);
  }

  // ---- customers and cards -------------------------------------------------------------------

  private async customerId(accountId: string): Promise<string | null> {
    return (await this.customers.getByKey(OWNER, accountId))?.data.customer_id ?? null;
  }

  private async ensureCustomer(account: PaymentAccount): Promise<string> {
    const known = await this.customerId(account.id);
    if (known) return known;
    const created = await this.call(() => this.stripe.customers.create({
      ...(account.email ? { email: account.email } : {}),
      ...(account.name ? { name: account.name } : {}),
      metadata: { kerf_account_id: account.id },
    }, { idempotencyKey: `kerf-customer-${account.id}` }));
    try {
      await this.customers.create(OWNER, { account_id: account.id, customer_id: created.id }, { key: account.id });
      return created.id;
    } catch (err) {
      if (!isStoreError(err, 'duplicate')) throw err;
      return (await this.customerId(account.id))!;
    }
  }

  /** The customer's default card: invoice_settings.default_payment_method, else the newest card. */
  private async defaultCard(customerId: string): Promise<Stripe.PaymentMethod | null> {
    const [customer, methods] = await Promise.all([
      this.call(() => this.stripe.customers.retrieve(customerId)),
      this.call(() => this.stripe.customers.listPaymentMethods(customerId, { type: 'card', limit: 100 })),
    ]);
    const def = 'deleted' in customer && customer.deleted ? null : (customer as Stripe.Customer).invoice_settings?.default_payment_method ?? null;
    const defId = typeof def === 'string' ? def : def?.id ?? null;
    return methods.data.find((m) => m.id === defId) ?? methods.data[0] ?? null;
  }

  async savedCard(accountId: string): Promise<SavedCardState> {
    const customerId = await this.customerId(accountId);
    const pm = customerId ? await this.defaultCard(customerId) : null;
    return pm?.card ? { has_saved_card: true, card: cardOf(pm.card) } : { has_saved_card: false, card: null };
  }

  async paymentMethodSetupUrl(account: PaymentAccount, opts: { return_url?: string } = {}): Promise<string> {
    const customer = await this.ensureCustomer(account);
    const back = opts.return_url ?? this.opts.returnUrl;
    const session = await this.call(() => this.stripe.checkout.sessions.create({
      mode: 'setup', customer, currency: 'usd',
      success_url: back, cancel_url: back, metadata: { kerf_account_id: account.id },
    }));
    if (!session.url) throw processorUnavailable('Stripe returned a Checkout Session without a URL.');
    return session.url;
  }

  /** Detaches each of the customer's cards (Stripe then clears a default that named one). */
  async detachPaymentMethods(accountId: string): Promise<void> {
    const customerId = await this.customerId(accountId);
    if (!customerId) return;
    const methods = await this.call(() => this.stripe.customers.listPaymentMethods(customerId, { type: 'card', limit: 100 }));
    for (const m of methods.data) await this.call(() => this.stripe.paymentMethods.detach(m.id));
  }

  // ---- charges -----------------------------------------------------------------------------

  async charge(req: ChargeRequest): Promise<Payment> {
    const currency = checkCharge(req);
    const recorded = await this.charges.getByKey(OWNER, req.idempotency_key);
    if (recorded) {
      const d = recorded.data;
      if (d.account_id !== req.account.id || d.amount_cents !== req.amount_cents || d.currency !== currency) throw paymentKeyReused(req.idempotency_key);
      const p = await this.retrievePayment(d.payment_intent_id);
      if (p) return p;
    }

    const customer = req.payment_method ? await this.ensureCustomer(req.account) : await this.customerId(req.account.id);
    const paymentMethod = req.payment_method ?? (customer ? (await this.defaultCard(customer))?.id : null);
    if (!customer || !paymentMethod) throw noPaymentMethod();

    let intent: Stripe.PaymentIntent;
    try {
      intent = await this.stripe.paymentIntents.create({
        amount: req.amount_cents, currency, customer, payment_method: paymentMethod,
        confirm: true, off_session: true,
        ...(req.description ? { description: req.description } : {}),
        metadata: { ...(req.metadata ?? {}), kerf_account_id: req.account.id, kerf_idempotency_key: req.idempotency_key },
        expand: ['latest_charge'],
      }, { idempotencyKey: req.idempotency_key });
    } catch (err) {
      if (err instanceof Stripe.errors.StripeError && err.payment_intent && (err instanceof Stripe.errors.StripeCardError || err.code === 'authentication_required')) {
        intent = err.payment_intent; // a decline or authentication_required still made a payment intent
      } else if (err instanceof Stripe.errors.StripeIdempotencyError) {
        throw paymentKeyReused(req.idempotency_key);
      } else if (err instanceof Stripe.errors.StripeInvalidRequestError && err.param === 'payment_method') {
        throw invalidParam('payment.id', `Stripe refused the payment method '${paymentMethod}': ${err.message}`);
      } else throw unavailableFrom(err);
    }
    await this.record(req, currency, intent.id);
    return toPayment(intent);
  }

  private async record(req: ChargeRequest, currency: string, intentId: string): Promise<void> {
    try {
      await this.charges.create(OWNER, { account_id: req.account.id, payment_intent_id: intentId, amount_cents: req.amount_cents, currency }, { key: req.idempotency_key });
    } catch (err) {
      if (!isStoreError(err, 'duplicate')) throw err;
    }
  }

  async retrievePayment(paymentId: string): Promise<Payment | null> {
    try {
      return toPayment(await this.stripe.paymentIntents.retrieve(paymentId, { expand: ['latest_charge'] }));
    } catch (err) {
      if (err instanceof Stripe.errors.StripeInvalidRequestError && (err.code === 'resource_missing' || err.statusCode === 404)) return null;
      throw unavailableFrom(err);
    }
  }

  async findPaymentByIdempotencyKey(accountId: string, idempotencyKey: string): Promise<Payment | null> {
    const recorded = await this.charges.getByKey(OWNER, idempotencyKey);
    if (recorded) return recorded.data.account_id === accountId ? this.retrievePayment(recorded.data.payment_intent_id) : null;
    const customer = await this.customerId(accountId);
    if (!customer) return null;
    let seen = 0;
    try {
      for await (const intent of this.stripe.paymentIntents.list({ customer, limit: 100, expand: ['data.latest_charge'] })) {
        if (intent.metadata?.kerf_idempotency_key === idempotencyKey && intent.metadata?.kerf_account_id === accountId) {
          await this.record({ account: { id: accountId }, amount_cents: intent.amount, idempotency_key: idempotencyKey }, intent.currency, intent.id);
          return toPayment(intent);
        }
        if (++seen >= LOOKUP_LIMIT) break;
      }
    } catch (err) {
      throw unavailableFrom(err);
    }
    return null;
  }

  // ---- refunds -------------------------------------------------------------------------------

  async refund(req: RefundRequest): Promise<Refund> {
    const payment = await this.retrievePayment(req.payment_id);
    if (!payment) throw notFound('payment', req.payment_id, 'payment_id');
    if (payment.status !== 'succeeded') throw paymentNotRefundable(`Payment ${req.payment_id} is ${payment.status}; only a succeeded payment can be refunded.`);
    try {
      const refund = await this.stripe.refunds.create({
        payment_intent: req.payment_id,
        ...(req.amount_cents !== undefined ? { amount: req.amount_cents } : {}),
        metadata: { kerf_idempotency_key: req.idempotency_key, ...(req.reason ? { kerf_reason: req.reason } : {}) },
      }, { idempotencyKey: `kerf-refund-${req.payment_id}-${req.idempotency_key}` });
      const updated = await this.retrievePayment(req.payment_id);
      if (updated) await this.listeners.emit(updated);
      return {
        id: refund.id, payment_id: req.payment_id, amount_cents: refund.amount,
        status: refund.status === 'succeeded' ? 'succeeded' : refund.status === 'failed' || refund.status === 'canceled' ? 'failed' : 'pending',
        created_at: new Date(refund.created * 1000).toISOString(),
      };
    } catch (err) {
      if (err instanceof Stripe.errors.StripeIdempotencyError) throw paymentKeyReused(req.idempotency_key);
      if (err instanceof Stripe.errors.StripeInvalidRequestError) throw paymentNotRefundable(`Stripe refused the refund of ${req.payment_id}: ${err.message}`);
      throw unavailableFrom(err);
    }
  }

  // ---- async outcomes ------------------------------------------------------------------------

  onPaymentUpdated(listener: PaymentListener): () => void {
    return this.listeners.add(listener);
  }

  async handleWebhook(rawBody: Uint8Array | string, headers: Record<string, string | string[] | undefined>): Promise<Payment | null> {
    if (!this.opts.webhookSecret) throw webhookSignatureInvalid('No STRIPE_WEBHOOK_SECRET is configured, so no Stripe webhook can be verified.');
    const sig = headers['stripe-signature'];
    const signature = Array.isArray(sig) ? sig.join(',') : sig;
    if (!signature) throw webhookSignatureInvalid('The request has no Stripe-Signature header.');
    let event: Stripe.Event;
    try {
      const body = typeof rawBody === 'string' ? rawBody : Buffer.from(rawBody.buffer, rawBody.byteOffset, rawBody.byteLength);
      event = this.stripe.webhooks.constructEvent(body, signature, this.opts.webhookSecret);
    } catch (err) {
      throw webhookSignatureInvalid(`The Stripe webhook signature does not verify: ${(err as Error).message}`);
    }
    const obj = event.data.object as { object?: string; id?: string; payment_intent?: string | { id: string } | null };
    const intentId = obj.object === 'payment_intent' ? obj.id
      : obj.object === 'charge' || obj.object === 'refund' ? (typeof obj.payment_intent === 'string' ? obj.payment_intent : obj.payment_intent?.id)
        : undefined;
    if (!intentId) return null;
    // Events can arrive late and out of order: the payment intent as it is now is what counts.
    const payment = await this.retrievePayment(intentId);
    if (payment) await this.listeners.emit(payment);
    return payment;
  }

  /** Transient failures are retried by the SDK (maxNetworkRetries); what is left is reported as unavailable. */
  private async call<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      throw unavailableFrom(err);
    }
  }

  async close(): Promise<void> {}
}

function unavailableFrom(err: unknown): UseCaseError {
  if (err instanceof UseCaseError) return err;
  const detail = err instanceof Error ? err.message : String(err);
  return processorUnavailable(`The payment processor (Stripe) failed: ${detail}`);
}

const cardOf = (c: Stripe.PaymentMethod.Card): SavedCard => ({ brand: c.brand, last4: c.last4, exp_month: c.exp_month, exp_year: c.exp_year });

/** A Stripe PaymentIntent as the port's Payment. */
export function toPayment(pi: Stripe.PaymentIntent): Payment {
  const err = pi.last_payment_error;
  let status: Payment['status'];
  let failure: string | null = null;
  let decline: string | null = null;
  switch (pi.status) {
    case 'succeeded': status = 'succeeded'; break;
    case 'processing': status = 'processing'; break;
    case 'requires_action': case 'requires_confirmation': status = 'requires_action'; failure = 'authentication_required'; break;
    case 'requires_payment_method':
      if (err?.code === 'authentication_required') { status = 'requires_action'; failure = 'authentication_required'; } else {
        status = 'failed'; failure = err?.code ?? 'card_declined'; decline = err?.decline_code ?? (err?.code === 'card_declined' ? 'generic_decline' : null);
      }
      break;
    default: status = 'failed'; failure = err?.code ?? 'canceled'; decline = err?.decline_code ?? null;
  }
  const charge = typeof pi.latest_charge === 'object' && pi.latest_charge ? pi.latest_charge : null;
  const metadata: Record<string, string> = { ...(pi.metadata ?? {}) };
  const accountId = metadata.kerf_account_id ?? '';
  const key = metadata.kerf_idempotency_key ?? '';
  delete metadata.kerf_account_id;
  delete metadata.kerf_idempotency_key;
  return {
    id: pi.id, status, amount_cents: pi.amount, currency: pi.currency, account_id: accountId, idempotency_key: key,
    payment_method: typeof pi.payment_method === 'string' ? pi.payment_method : pi.payment_method?.id ?? null,
    failure_code: failure, decline_reason: decline, amount_refunded_cents: charge?.amount_refunded ?? 0,
    metadata, created_at: new Date(pi.created * 1000).toISOString(),
  };
}
