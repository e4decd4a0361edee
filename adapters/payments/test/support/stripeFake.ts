// A local stand-in of the few Stripe API endpoints the Stripe processor uses, so that the official
// SDK is tested without a network (the SDK is pointed at it with host/port/protocol). It is a fake:
// in memory, only these endpoints, only the behaviour the processor relies on, modelled on Stripe's
// documented behaviour:
//   POST /v1/customers, GET /v1/customers/:id, GET /v1/customers/:id/payment_methods,
//   POST /v1/checkout/sessions (mode setup), POST /v1/payment_intents (confirm + off_session),
//   GET /v1/payment_intents/:id, GET /v1/payment_intents?customer=, POST /v1/refunds.
// Idempotency-Key: a finished request with the same key answers the same response (errors too);
// different parameters answer 400 idempotency_error; a key still in flight answers 409 with
// Stripe-Should-Retry (the SDK retries). Off-session declines answer 402 card_error carrying the
// payment intent. Test cards are the `pm_card_*` tokens of src/test-cards.ts. `settle` moves a
// processing intent on and sends the signed webhook event to `onEvent`.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import Stripe from 'stripe';
import { testCard, type CardBehaviour } from '../../src/test-cards.ts';

type Obj = Record<string, any>;

/** Parses Stripe's form encoding (`a[b]=c`, `a[0]=x`) into nested objects and arrays. */
export function parseForm(text: string): Obj {
  const out: Obj = {};
  for (const [rawKey, value] of new URLSearchParams(text)) {
    const parts = rawKey.replace(/\]/g, '').split('[');
    let node: Obj = out;
    parts.forEach((p, i) => {
      const last = i === parts.length - 1;
      const nextIsIndex = !last && /^\d+$/.test(parts[i + 1]);
      if (last) node[p] = value;
      else node = node[p] ??= nextIsIndex ? [] : {};
    });
  }
  return out;
}

const id = (prefix: string): string => `${prefix}_${randomBytes(12).toString('hex')}`;
const nowSec = (): number => Math.floor(Date.now() / 1000);

class ApiError extends Error {
  constructor(readonly status: number, readonly body: Obj) { super(String(body.message)); }
}
const invalid = (message: string, param?: string, code = 'resource_missing', status = 400): ApiError =>
  new ApiError(status, { type: 'invalid_request_error', code, message, ...(param ? { param } : {}) });

export interface StripeFakeOptions {
  /** Signs the webhook events `settle` sends. */
  webhookSecret: string;
  /** Receives every event as Stripe would POST it: the raw body and the Stripe-Signature header. */
  onEvent?: (payload: string, signature: string) => unknown;
  /** Added to every payment intent create, so that concurrent requests overlap (never asserted). */
  createDelayMs?: number;
}

interface IntentState { pi: Obj; behaviour: CardBehaviour; chargeId: string | null }

export class StripeFake {
  readonly apiKey = `sk_test_${randomBytes(12).toString('hex')}`;
  private server: Server | null = null;
  port = 0;
  readonly customers = new Map<string, Obj>();
  readonly paymentMethods = new Map<string, Obj>();
  readonly intents = new Map<string, IntentState>();
  readonly charges = new Map<string, Obj>();
  readonly sessions = new Map<string, Obj>();
  private readonly idempotency = new Map<string, { fingerprint: string; done: { status: number; body: Obj } | null }>();
  /** Every request served, `METHOD path` (for tests that check what was called). */
  readonly requests: string[] = [];

  constructor(private readonly opts: StripeFakeOptions) {}

  async start(): Promise<this> {
    this.server = createServer((req, res) => { void this.handle(req, res); });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }

  async stop(): Promise<void> {
    if (!this.server) return;
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server!.close(() => resolve()));
    this.server = null;
  }

  /** How many payment intents (charge attempts) exist: what exactly-once is checked against. */
  intentCount(filter: (pi: Obj) => boolean = () => true): number {
    return [...this.intents.values()].filter((s) => filter(s.pi)).length;
  }

  // ---- test controls (what a customer or the card network does) ------------------------------

  /**
   * The customer saved a card through Checkout in setup mode: a payment method from the token,
   * attached to the customer. Like Stripe, this does not make it the customer's default
   * (invoice_settings.default_payment_method); `setDefault` does (the Dashboard, or the API).
   */
  attachCard(customerId: string, token: string): Obj {
    const customer = this.customers.get(customerId);
    const test = testCard(token);
    if (!customer || !test) throw new Error(`fake: unknown customer ${customerId} or token ${token}`);
    const pm = { id: id('pm'), object: 'payment_method', type: 'card', customer: customerId, created: nowSec(), card: { ...test.card }, metadata: {}, _token: token };
    this.paymentMethods.set(pm.id, pm);
    return pm;
  }

  setDefault(customerId: string, paymentMethodId: string): void {
    this.customers.get(customerId)!.invoice_settings.default_payment_method = paymentMethodId;
  }

  completeCheckout(sessionId: string, token: string): void {
    const s = this.sessions.get(sessionId);
    if (!s) throw new Error(`fake: no session ${sessionId}`);
    this.attachCard(s.customer, token);
    s.status = 'complete';
  }

  /** A processing payment intent settles as its card says, and the signed event is sent. */
  async settle(intentId: string): Promise<void> {
    const s = this.intents.get(intentId);
    if (!s || s.pi.status !== 'processing' || s.behaviour.outcome !== 'processing') throw new Error(`fake: ${intentId} is not processing`);
    if (s.behaviour.then === 'succeeded') {
      this.succeed(s);
      await this.sendEvent('payment_intent.succeeded', this.present(s, false));
    } else {
      s.pi.status = 'requires_payment_method';
      s.pi.last_payment_error = { type: 'card_error', code: 'card_declined', decline_code: s.behaviour.decline_reason, message: 'Your card was declined.' };
      await this.sendEvent('payment_intent.payment_failed', this.present(s, false));
    }
  }

  /** Sends an event the way Stripe does (signed with the endpoint secret, or with another secret). */
  async sendEvent(type: string, object: Obj, secret = this.opts.webhookSecret): Promise<{ payload: string; signature: string; result: unknown }> {
    const payload = JSON.stringify({ id: id('evt'), object: 'event', type, created: nowSec(), api_version: Stripe.API_VERSION, livemode: false, data: { object } });
    const signature = Stripe.webhooks.generateTestHeaderString({ payload, secret });
    const result = this.opts.onEvent ? await this.opts.onEvent(payload, signature) : undefined;
    return { payload, signature, result };
  }

  // ---- HTTP ----------------------------------------------------------------------------------

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const params = req.method === 'GET' ? parseForm(url.search.slice(1)) : parseForm(Buffer.concat(chunks).toString('utf8'));
    this.requests.push(`${req.method} ${url.pathname}`);
    const send = (status: number, body: Obj, headers: Record<string, string> = {}): void => {
      res.writeHead(status, { 'content-type': 'application/json', 'request-id': id('req'), ...headers });
      res.end(JSON.stringify(status >= 400 ? { error: body } : body));
    };
    if (req.headers.authorization !== `Bearer ${this.apiKey}`) {
      send(401, { type: 'invalid_request_error', message: 'Invalid API Key provided.' });
      return;
    }
    const key = req.method === 'POST' ? req.headers['idempotency-key'] as string | undefined : undefined;
    const fingerprint = `${url.pathname} ${JSON.stringify(params)}`;
    if (key) {
      const seen = this.idempotency.get(key);
      if (seen && seen.fingerprint !== fingerprint) {
        send(400, { type: 'idempotency_error', message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}'.` });
        return;
      }
      if (seen && !seen.done) {
        send(409, { type: 'idempotency_error', code: 'idempotency_key_in_use', message: 'There is currently another in-progress request using this Idempotent Key.' }, { 'stripe-should-retry': 'true' });
        return;
      }
      if (seen?.done) {
        send(seen.done.status, seen.done.body, { 'idempotent-replayed': 'true' });
        return;
      }
      this.idempotency.set(key, { fingerprint, done: null });
    }
    let status = 200;
    let body: Obj;
    try {
      body = await this.route(req.method ?? 'GET', url.pathname, params);
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      status = err.status;
      body = err.body;
    }
    if (key) this.idempotency.set(key, { fingerprint, done: { status, body } });
    send(status, body);
  }

  private async route(method: string, path: string, p: Obj): Promise<Obj> {
    let m: RegExpExecArray | null;
    if (method === 'POST' && path === '/v1/customers') {
      const c = { id: id('cus'), object: 'customer', created: nowSec(), email: p.email ?? null, name: p.name ?? null, metadata: p.metadata ?? {}, invoice_settings: { default_payment_method: null } };
      this.customers.set(c.id, c);
      return c;
    }
    if (method === 'GET' && (m = /^\/v1\/customers\/([^/]+)$/.exec(path))) return this.customer(m[1]);
    if (method === 'GET' && (m = /^\/v1\/customers\/([^/]+)\/payment_methods$/.exec(path))) {
      this.customer(m[1]);
      const data = [...this.paymentMethods.values()].filter((pm) => pm.customer === m![1]).reverse().map(({ _token, ...pm }) => pm);
      return { object: 'list', url: path, has_more: false, data };
    }
    if (method === 'POST' && (m = /^\/v1\/payment_methods\/([^/]+)\/detach$/.exec(path))) {
      const pm = this.paymentMethods.get(m[1]);
      if (!pm || !pm.customer) throw invalid(`The payment method you provided is not attached to a customer so detachment is impossible.`, undefined, 'payment_method_unexpected_state');
      const c = this.customers.get(pm.customer);
      if (c && c.invoice_settings.default_payment_method === pm.id) c.invoice_settings.default_payment_method = null;
      pm.customer = null;
      const { _token, ...shown } = pm;
      return shown;
    }
    if (method === 'POST' && path === '/v1/checkout/sessions') {
      if (p.mode !== 'setup') throw invalid('fake: only mode=setup', 'mode', 'parameter_invalid');
      this.customer(p.customer);
      const s = { id: id('cs_test'), object: 'checkout.session', mode: 'setup', customer: p.customer, status: 'open', success_url: p.success_url, cancel_url: p.cancel_url, metadata: p.metadata ?? {} };
      this.sessions.set(s.id, { ...s, url: `http://127.0.0.1:${this.port}/c/pay/${s.id}` });
      return this.sessions.get(s.id)!;
    }
    if (method === 'POST' && path === '/v1/payment_intents') return this.createIntent(p);
    if (method === 'GET' && (m = /^\/v1\/payment_intents\/([^/]+)$/.exec(path))) {
      const s = this.intents.get(m[1]);
      if (!s) throw invalid(`No such payment_intent: '${m[1]}'`, 'intent', 'resource_missing', 404);
      return this.present(s, expands(p).includes('latest_charge'));
    }
    if (method === 'GET' && path === '/v1/payment_intents') {
      let all = [...this.intents.values()].filter((s) => !p.customer || s.pi.customer === p.customer).reverse();
      if (p.starting_after) all = all.slice(all.findIndex((s) => s.pi.id === p.starting_after) + 1);
      const limit = Number(p.limit ?? 10);
      const page = all.slice(0, limit);
      return { object: 'list', url: path, has_more: all.length > limit, data: page.map((s) => this.present(s, expands(p).includes('data.latest_charge'))) };
    }
    if (method === 'POST' && path === '/v1/refunds') {
      const s = this.intents.get(p.payment_intent);
      if (!s) throw invalid(`No such payment_intent: '${p.payment_intent}'`, 'payment_intent');
      const charge = s.chargeId ? this.charges.get(s.chargeId)! : null;
      if (!charge || charge.status !== 'succeeded') throw invalid(`This PaymentIntent (${s.pi.id}) does not have a successful charge to refund.`, 'payment_intent', 'charge_not_refundable');
      const left = charge.amount - charge.amount_refunded;
      const amount = p.amount === undefined ? left : Number(p.amount);
      if (amount < 1 || amount > left) throw invalid(`Refund amount ($${(amount / 100).toFixed(2)}) is greater than unrefunded amount on charge ($${(left / 100).toFixed(2)})`, 'amount', 'amount_too_large');
      charge.amount_refunded += amount;
      charge.refunded = charge.amount_refunded === charge.amount;
      return { id: id('re'), object: 'refund', amount, charge: charge.id, payment_intent: s.pi.id, status: 'succeeded', created: nowSec(), metadata: p.metadata ?? {} };
    }
    throw invalid(`fake: unrecognized request URL (${method}: ${path})`, undefined, 'resource_missing', 404);
  }

  private customer(customerId: string): Obj {
    const c = this.customers.get(customerId);
    if (!c) throw invalid(`No such customer: '${customerId}'`, 'customer', 'resource_missing', 404);
    return c;
  }

  private async createIntent(p: Obj): Promise<Obj> {
    if (this.opts.createDelayMs) await new Promise((r) => setTimeout(r, this.opts.createDelayMs));
    if (p.confirm !== 'true' || p.off_session !== 'true') throw invalid('fake: only confirm=true&off_session=true', 'confirm', 'parameter_invalid');
    this.customer(p.customer);
    // A saved payment method of the customer, or a test token (Stripe makes a payment method of it).
    const saved = this.paymentMethods.get(p.payment_method);
    if (saved && saved.customer !== p.customer) throw invalid(`The payment method ${p.payment_method} does not belong to customer ${p.customer}.`, 'payment_method', 'parameter_invalid');
    const test = testCard(saved?._token ?? p.payment_method);
    if (!test) throw invalid(`No such PaymentMethod: '${p.payment_method}'`, 'payment_method', 'resource_missing');
    const pi: Obj = {
      id: id('pi'), object: 'payment_intent', amount: Number(p.amount), currency: p.currency, customer: p.customer,
      payment_method: p.payment_method, description: p.description ?? null, metadata: p.metadata ?? {},
      created: nowSec(), status: 'processing', last_payment_error: null, latest_charge: null, confirmation_method: 'automatic',
    };
    const s: IntentState = { pi, behaviour: test.behaviour, chargeId: null };
    this.intents.set(pi.id, s);
    const b = test.behaviour;
    if (b.outcome === 'succeeded') this.succeed(s);
    else if (b.outcome === 'declined' || b.outcome === 'requires_action') {
      const code = b.outcome === 'declined' ? 'card_declined' : 'authentication_required';
      const decline = b.outcome === 'declined' ? b.decline_reason : 'authentication_required';
      pi.status = 'requires_payment_method';
      pi.last_payment_error = { type: 'card_error', code, decline_code: decline, message: b.outcome === 'declined' ? 'Your card was declined.' : 'This payment requires authentication.' };
      throw new ApiError(402, { type: 'card_error', code, decline_code: decline, message: pi.last_payment_error.message, payment_intent: this.present(s, expands(p).includes('latest_charge')) });
    }
    return this.present(s, expands(p).includes('latest_charge'));
  }

  private succeed(s: IntentState): void {
    const charge = { id: id('ch'), object: 'charge', amount: s.pi.amount, amount_refunded: 0, refunded: false, payment_intent: s.pi.id, status: 'succeeded', created: nowSec() };
    this.charges.set(charge.id, charge);
    s.chargeId = charge.id;
    s.pi.latest_charge = charge.id;
    s.pi.status = 'succeeded';
  }

  private present(s: IntentState, expandCharge: boolean): Obj {
    const pi = structuredClone(s.pi);
    if (expandCharge && s.chargeId) pi.latest_charge = structuredClone(this.charges.get(s.chargeId));
    return pi;
  }
}

const expands = (p: Obj): string[] => (Array.isArray(p.expand) ? p.expand : p.expand ? [p.expand] : []) as string[];
