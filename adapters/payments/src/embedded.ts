// The embedded payment processor (the default, no configuration): a simulation of a card processor
// kept in the store's documents, so it survives restarts and is shared by every service process on
// one store. Customers per account with saved test cards (./test-cards.ts), off-session charges,
// refunds, and payments that stay `processing` until they settle.
//
// Exactly once: a charge is one document whose unique key is the idempotency key. Its outcome is
// decided before it is written, so whoever loses the race to create it reads the winner's payment
// (concurrent calls, other processes, a retry after a crash): one key, one charge.
import { isStoreError, type DocumentCollection, type DocumentRecord, type Store } from '@kerf/store';
import { newId } from '@kerf/common';
import {
  noPaymentMethod, paymentKeyReused, paymentNotRefundable, notFound,
  type ChargeRequest, type Payment, type PaymentAccount, type PaymentListener, type PaymentProcessor,
  type Refund, type RefundRequest, type SavedCard, type SavedCardState,
} from '@kerf/usecases';
import { OWNER, checkCharge, invalidParam } from './common.ts';
import { Listeners } from './listeners.ts';
import { testCard, type CardBehaviour } from './test-cards.ts';

const DEFAULT_SETTLE_AFTER_MS = 3000;

interface SavedMethod { id: string; token: string; card: SavedCard; created_at: string }

interface CustomerDoc {
  account_id: string;
  email: string | null;
  name: string | null;
  payment_methods: SavedMethod[];
  default_payment_method: string | null;
}

interface RefundEntry extends Refund { idempotency_key: string }

interface PaymentDoc extends Omit<Payment, 'id'> {
  customer_id: string | null;
  /** Only while processing: when it settles, and how. */
  settle_at: string | null;
  settle_to: { status: 'succeeded' } | { status: 'failed'; decline_reason: string } | null;
  refunds: RefundEntry[];
}

interface SetupSessionDoc { account_id: string; customer_id: string; status: 'open' | 'completed'; return_url: string | null; payment_method: string | null }

export interface EmbeddedProcessorOptions {
  /** Where the documents live: the service's store (or anything with its `documents`). */
  store: Pick<Store, 'documents'>;
  /** Clock; default () => new Date(). Tests move it to settle processing payments. */
  now?: () => Date;
  /** How long a `processing` test payment takes to settle; default 3000 ms. */
  settleAfterMs?: number;
  /** How often settlements are looked for while someone listens; default 1000 ms; 0 = never (call settleDue). */
  settleIntervalMs?: number;
  /** The page where a customer picks a test card for a setup session; default under http://localhost:8080. */
  setupPageUrl?: (sessionId: string) => string;
  onListenerError?: (err: unknown) => void;
}

export class EmbeddedPaymentProcessor implements PaymentProcessor {
  readonly kind = 'embedded';
  private readonly customers: DocumentCollection<CustomerDoc>;
  private readonly payments: DocumentCollection<PaymentDoc>;
  private readonly sessions: DocumentCollection<SetupSessionDoc>;
  private readonly now: () => Date;
  private readonly settleAfterMs: number;
  private readonly settleIntervalMs: number;
  private readonly setupPageUrl: (sessionId: string) => string;
  private readonly listeners: Listeners;
  private timer: NodeJS.Timeout | null = null;

  constructor(opts: EmbeddedProcessorOptions) {
    this.customers = opts.store.documents<CustomerDoc>('payment_customers', { idPrefix: 'cus' });
    this.payments = opts.store.documents<PaymentDoc>('payment_intents', { idPrefix: 'pi' });
    this.sessions = opts.store.documents<SetupSessionDoc>('payment_setup_sessions', { idPrefix: 'seti' });
    this.now = opts.now ?? (() => new Date());
    this.settleAfterMs = opts.settleAfterMs ?? DEFAULT_SETTLE_AFTER_MS;
    this.settleIntervalMs = opts.settleIntervalMs ?? 1000;
    this.setupPageUrl = opts.setupPageUrl ?? ((id) => `http://localhost:8080/payment-methods/setup/${id}`);
    this.listeners = new Listeners(opts.onListenerError);
  }

  // ---- customers and cards -------------------------------------------------------------------

  async savedCard(accountId: string): Promise<SavedCardState> {
    const c = await this.customers.getByKey(OWNER, accountId);
    const pm = c ? defaultMethod(c.data) : null;
    return pm ? { has_saved_card: true, card: { ...pm.card } } : { has_saved_card: false, card: null };
  }

  async paymentMethodSetupUrl(account: PaymentAccount, opts: { return_url?: string } = {}): Promise<string> {
    const customer = await this.ensureCustomer(account);
    const session = await this.sessions.create(OWNER, { account_id: account.id, customer_id: customer.id, status: 'open', return_url: opts.return_url ?? null, payment_method: null });
    return this.setupPageUrl(session.id);
  }

  /** A setup session as its page shows it; null when unknown. */
  async setupSession(sessionId: string): Promise<{ status: 'open' | 'completed'; card: SavedCard | null } | null> {
    const s = await this.sessions.getUnscoped(sessionId);
    if (!s || s.accountId !== OWNER) return null;
    const saved = s.data.payment_method ? testCard(s.data.payment_method) : null;
    return { status: s.data.status, card: saved ? { ...saved.card } : null };
  }

  /** The setup page's answer: the customer chose a test card (a `pm_card_*` token). Idempotent per session. */
  async completeSetup(sessionId: string, token: string): Promise<{ account_id: string; card: SavedCard; return_url: string | null }> {
    const s = await this.sessions.getUnscoped(sessionId);
    if (!s || s.accountId !== OWNER) throw notFound('setup session', sessionId, 'session_id');
    if (s.data.status === 'completed') {
      // the card this session saved, whatever the account has on file since
      return { account_id: s.data.account_id, card: { ...testCard(s.data.payment_method!)!.card }, return_url: s.data.return_url };
    }
    const card = await this.attachPaymentMethod(s.data.account_id, token);
    await this.sessions.update(OWNER, sessionId, { ...s.data, status: 'completed', payment_method: token }, { expectedVersion: s.version }).catch((err) => {
      if (!isStoreError(err, 'conflict')) throw err;
    });
    return { account_id: s.data.account_id, card, return_url: s.data.return_url };
  }

  /** Saves a test card (a `pm_card_*` token) on the account's customer and makes it the default. */
  async attachPaymentMethod(accountId: string, token: string): Promise<SavedCard> {
    const test = testCard(token);
    if (!test) throw invalidParam('payment_method', `Unknown test payment method '${token}'; use one of the pm_card_* test cards.`);
    const customer = await this.ensureCustomer({ id: accountId });
    const method: SavedMethod = { id: newId('pm'), token, card: { ...test.card }, created_at: this.now().toISOString() };
    await this.updateCustomer(customer, (c) => ({ ...c, payment_methods: [...c.payment_methods, method], default_payment_method: method.id }));
    return { ...test.card };
  }

  /** Forgets the account's saved cards (a customer removing the card on file). */
  async detachPaymentMethods(accountId: string): Promise<void> {
    const c = await this.customers.getByKey(OWNER, accountId);
    if (c) await this.updateCustomer(c, (d) => ({ ...d, payment_methods: [], default_payment_method: null }));
  }

  private async ensureCustomer(account: PaymentAccount): Promise<DocumentRecord<CustomerDoc>> {
    const found = await this.customers.getByKey(OWNER, account.id);
    if (found) return found;
    try {
      return await this.customers.create(OWNER, { account_id: account.id, email: account.email ?? null, name: account.name ?? null, payment_methods: [], default_payment_method: null }, { key: account.id });
    } catch (err) {
      if (!isStoreError(err, 'duplicate')) throw err;
      return (await this.customers.getByKey(OWNER, account.id))!;
    }
  }

  private async updateCustomer(start: DocumentRecord<CustomerDoc>, change: (c: CustomerDoc) => CustomerDoc): Promise<void> {
    let rec: DocumentRecord<CustomerDoc> | null = start;
    for (;;) {
      if (!rec) return;
      try {
        await this.customers.update(OWNER, rec.id, change(rec.data), { expectedVersion: rec.version });
        return;
      } catch (err) {
        if (!isStoreError(err, 'conflict')) throw err;
        rec = await this.customers.get(OWNER, rec.id);
      }
    }
  }

  // ---- charges -----------------------------------------------------------------------------

  async charge(req: ChargeRequest): Promise<Payment> {
    const currency = checkCharge(req);
    const existing = await this.payments.getByKey(OWNER, req.idempotency_key);
    if (existing) return this.replay(existing, req, currency);

    const customer = await this.customers.getByKey(OWNER, req.account.id);
    let methodId: string;
    let behaviour: CardBehaviour;
    if (req.payment_method) {
      const saved = customer?.data.payment_methods.find((m) => m.id === req.payment_method);
      const token = saved?.token ?? req.payment_method;
      const test = testCard(token);
      if (!test) throw invalidParam('payment.id', `No payment method '${req.payment_method}' on this account.`);
      methodId = req.payment_method;
      behaviour = test.behaviour;
    } else {
      const pm = customer ? defaultMethod(customer.data) : null;
      if (!pm) throw noPaymentMethod();
      methodId = pm.id;
      behaviour = testCard(pm.token)!.behaviour;
    }

    const now = this.now();
    const doc: PaymentDoc = {
      status: 'succeeded', amount_cents: req.amount_cents, currency, account_id: req.account.id, idempotency_key: req.idempotency_key,
      payment_method: methodId, failure_code: null, decline_reason: null, amount_refunded_cents: 0,
      metadata: { ...(req.metadata ?? {}) }, created_at: now.toISOString(),
      customer_id: customer?.id ?? null, settle_at: null, settle_to: null, refunds: [],
    };
    if (behaviour.outcome === 'declined') Object.assign(doc, { status: 'failed', failure_code: 'card_declined', decline_reason: behaviour.decline_reason });
    else if (behaviour.outcome === 'requires_action') Object.assign(doc, { status: 'requires_action', failure_code: 'authentication_required' });
    else if (behaviour.outcome === 'processing') {
      Object.assign(doc, {
        status: 'processing',
        settle_at: new Date(now.getTime() + this.settleAfterMs).toISOString(),
        settle_to: behaviour.then === 'succeeded' ? { status: 'succeeded' } : { status: 'failed', decline_reason: behaviour.decline_reason },
      });
    }
    try {
      return present(await this.payments.create(OWNER, doc, { key: req.idempotency_key }));
    } catch (err) {
      if (!isStoreError(err, 'duplicate')) throw err;
      // Another call with this key won the race: its payment is the one.
      return this.replay((await this.payments.getByKey(OWNER, req.idempotency_key))!, req, currency);
    }
  }

  private async replay(rec: DocumentRecord<PaymentDoc>, req: ChargeRequest, currency: string): Promise<Payment> {
    const d = rec.data;
    if (d.account_id !== req.account.id || d.amount_cents !== req.amount_cents || d.currency !== currency) throw paymentKeyReused(req.idempotency_key);
    return present(await this.settleIfDue(rec));
  }

  async retrievePayment(paymentId: string): Promise<Payment | null> {
    const rec = await this.payments.getUnscoped(paymentId);
    if (!rec || rec.accountId !== OWNER) return null;
    return present(await this.settleIfDue(rec));
  }

  async findPaymentByIdempotencyKey(accountId: string, idempotencyKey: string): Promise<Payment | null> {
    const rec = await this.payments.getByKey(OWNER, idempotencyKey);
    if (!rec || rec.data.account_id !== accountId) return null;
    return present(await this.settleIfDue(rec));
  }

  // ---- settlement of processing payments ---------------------------------------------------

  /** Settles every processing payment that is due; answers how many this call settled. */
  async settleDue(): Promise<number> {
    let settled = 0;
    let cursor: string | null = null;
    do {
      const page = await this.payments.list(OWNER, { filter: { status: 'processing' }, order: 'asc', limit: 100, cursor });
      for (const rec of page.items) {
        if ((await this.trySettle(rec)).settled) settled += 1;
      }
      cursor = page.nextCursor;
    } while (cursor);
    return settled;
  }

  /** Settles one processing payment now, whatever the clock says (tests, an operator's trigger). */
  async settle(paymentId: string): Promise<Payment> {
    const rec = await this.payments.getUnscoped(paymentId);
    if (!rec || rec.accountId !== OWNER) throw notFound('payment', paymentId, 'payment_id');
    return present(await this.settleIfDue(rec, true));
  }

  private async settleIfDue(rec: DocumentRecord<PaymentDoc>, force = false): Promise<DocumentRecord<PaymentDoc>> {
    return (await this.trySettle(rec, force)).rec;
  }

  private async trySettle(rec: DocumentRecord<PaymentDoc>, force = false): Promise<{ rec: DocumentRecord<PaymentDoc>; settled: boolean }> {
    const d = rec.data;
    if (d.status !== 'processing' || !d.settle_to || !d.settle_at) return { rec, settled: false };
    if (!force && Date.parse(d.settle_at) > this.now().getTime()) return { rec, settled: false };
    const next: PaymentDoc = d.settle_to.status === 'succeeded'
      ? { ...d, status: 'succeeded', settle_at: null, settle_to: null }
      : { ...d, status: 'failed', failure_code: 'card_declined', decline_reason: d.settle_to.decline_reason, settle_at: null, settle_to: null };
    try {
      const updated = (await this.payments.update(OWNER, rec.id, next, { expectedVersion: rec.version }))!;
      await this.listeners.emit(present(updated));
      return { rec: updated, settled: true };
    } catch (err) {
      if (!isStoreError(err, 'conflict')) throw err;
      return { rec: (await this.payments.get(OWNER, rec.id))!, settled: false }; // settled by another call or process
    }
  }

  onPaymentUpdated(listener: PaymentListener): () => void {
    const off = this.listeners.add(listener);
    if (!this.timer && this.settleIntervalMs > 0) {
      this.timer = setInterval(() => { this.settleDue().catch(() => {}); }, this.settleIntervalMs);
      this.timer.unref();
    }
    return () => {
      off();
      if (this.listeners.size === 0) this.stopTimer();
    };
  }

  // ---- refunds -------------------------------------------------------------------------------

  async refund(req: RefundRequest): Promise<Refund> {
    const found = await this.payments.getUnscoped(req.payment_id);
    if (!found || found.accountId !== OWNER) throw notFound('payment', req.payment_id, 'payment_id');
    let rec = await this.settleIfDue(found); // refunds go by the payment's current state, as retrievePayment answers it
    for (;;) {
      const d = rec.data;
      const done = d.refunds.find((r) => r.idempotency_key === req.idempotency_key);
      if (done) {
        if (req.amount_cents !== undefined && req.amount_cents !== done.amount_cents) throw paymentKeyReused(req.idempotency_key);
        return presentRefund(done);
      }
      if (d.status !== 'succeeded') throw paymentNotRefundable(`Payment ${rec.id} is ${d.status}; only a succeeded payment can be refunded.`);
      const left = d.amount_cents - d.amount_refunded_cents;
      const amount = req.amount_cents ?? left;
      if (!Number.isInteger(amount) || amount < 1 || amount > left) throw paymentNotRefundable(`Payment ${rec.id} has ${left} cents left to refund; asked for ${amount}.`);
      const refund: RefundEntry = { id: newId('re'), payment_id: rec.id, amount_cents: amount, status: 'succeeded', created_at: this.now().toISOString(), idempotency_key: req.idempotency_key };
      try {
        const updated = (await this.payments.update(OWNER, rec.id, { ...d, amount_refunded_cents: d.amount_refunded_cents + amount, refunds: [...d.refunds, refund] }, { expectedVersion: rec.version }))!;
        await this.listeners.emit(present(updated));
        return presentRefund(refund);
      } catch (err) {
        if (!isStoreError(err, 'conflict')) throw err;
        rec = (await this.payments.get(OWNER, rec.id))!;
      }
    }
  }

  async close(): Promise<void> {
    this.stopTimer();
  }

  private stopTimer(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}

function defaultMethod(c: CustomerDoc): SavedMethod | null {
  return c.payment_methods.find((m) => m.id === c.default_payment_method) ?? c.payment_methods.at(-1) ?? null;
}

function present(rec: DocumentRecord<PaymentDoc>): Payment {
  const d = rec.data;
  return {
    id: rec.id, status: d.status, amount_cents: d.amount_cents, currency: d.currency, account_id: d.account_id,
    idempotency_key: d.idempotency_key, payment_method: d.payment_method, failure_code: d.failure_code,
    decline_reason: d.decline_reason, amount_refunded_cents: d.amount_refunded_cents, metadata: { ...d.metadata }, created_at: d.created_at,
  };
}

const presentRefund = (r: RefundEntry): Refund => ({ id: r.id, payment_id: r.payment_id, amount_cents: r.amount_cents, status: r.status, created_at: r.created_at });
