// The Stripe processor with the official SDK, pointed (host/port/protocol) at a local stand-in of the
// Stripe API (support/stripeFake.ts): the contract suite, then what only Stripe has (webhook
// signatures, finding a charge whose outcome was never written down, Stripe's 24 h key window).
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { openStore, type Store } from '@kerf/store';
import { UseCaseError, type Payment, type PaymentProcessor } from '@kerf/usecases';
import { StripePaymentProcessor } from '../src/index.ts';
import { runProcessorContract } from './contract.ts';
import { StripeFake } from './support/stripeFake.ts';

const WEBHOOK_SECRET = 'whsec_test_contract';

function processorFor(fake: StripeFake, store: Store, webhookSecret: string | null = WEBHOOK_SECRET): StripePaymentProcessor {
  return new StripePaymentProcessor({
    secretKey: fake.apiKey, webhookSecret, store, returnUrl: 'https://kerf.example/account',
    host: '127.0.0.1', port: fake.port, protocol: 'http', maxNetworkRetries: 8,
  });
}

const sessionOf = (url: string): string => new URL(url).pathname.split('/').at(-1)!;

runProcessorContract('stripe (SDK against a local stand-in of the Stripe API)', {
  async fresh() {
    const dataDir = await mkdtemp(join(tmpdir(), 'kerf-payments-stripe-'));
    let target: PaymentProcessor | null = null;
    const fake = await new StripeFake({
      webhookSecret: WEBHOOK_SECRET,
      createDelayMs: 5,
      onEvent: (payload, signature) => target?.handleWebhook!(payload, { 'stripe-signature': signature }),
    }).start();
    const stores: Store[] = [];
    return {
      async open() {
        const store = await openStore({ dataDir });
        stores.push(store);
        return processorFor(fake, store);
      },
      async saveCard(_p, url, token) { fake.completeCheckout(sessionOf(url), token); },
      async settle(p, paymentId) {
        target = p; // Stripe posts the event to the webhook endpoint the service serves
        await fake.settle(paymentId);
      },
      async chargeCount() { return fake.intentCount(); },
      async cleanup() {
        await fake.stop();
        for (const s of stores) await s.close();
        await rm(dataDir, { recursive: true, force: true });
      },
    };
  },
});

describe('stripe processor', () => {
  let dataDir: string;
  let store: Store;
  let fake: StripeFake;
  let p: StripePaymentProcessor;
  const delivered: Array<Payment | null> = [];

  before(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'kerf-payments-stripe-'));
    store = await openStore({ dataDir });
    fake = await new StripeFake({ webhookSecret: WEBHOOK_SECRET, onEvent: async (payload, signature) => {
      delivered.push(await p.handleWebhook(payload, { 'stripe-signature': signature }));
    } }).start();
    p = processorFor(fake, store);
  });
  after(async () => {
    await fake.stop();
    await store.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  async function customerWith(accountId: string, token: string): Promise<string> {
    fake.completeCheckout(sessionOf(await p.paymentMethodSetupUrl({ id: accountId, email: `${accountId}@example.com` })), token);
    return [...fake.customers.values()].find((c) => c.metadata.kerf_account_id === accountId)!.id as string;
  }

  it('speaks to Stripe: one customer per account (with email and account id), Checkout in setup mode, off-session intents', async () => {
    const customer = await customerWith('acct_calls', 'pm_card_visa');
    await p.paymentMethodSetupUrl({ id: 'acct_calls' });
    assert.equal([...fake.customers.values()].filter((c) => c.metadata.kerf_account_id === 'acct_calls').length, 1);
    assert.equal(fake.customers.get(customer)!.email, 'acct_calls@example.com');
    assert.ok([...fake.sessions.values()].every((s) => s.mode === 'setup' && s.success_url === 'https://kerf.example/account'));
    const pay = await p.charge({ account: { id: 'acct_calls' }, amount_cents: 2500, idempotency_key: 'calls-1', metadata: { cart_id: 'crt_x' } });
    const pi = fake.intents.get(pay.id)!.pi;
    assert.equal(pi.customer, customer);
    assert.equal(pi.metadata.kerf_idempotency_key, 'calls-1');
    assert.equal(pi.metadata.cart_id, 'crt_x');
    assert.ok(fake.requests.includes('POST /v1/payment_intents'));
  });

  it("the saved card is the customer's default payment method when set, else the newest card", async () => {
    const customer = await customerWith('acct_default', 'pm_card_visa');
    const visa = [...fake.paymentMethods.values()].find((pm) => pm.customer === customer)!;
    fake.completeCheckout(sessionOf(await p.paymentMethodSetupUrl({ id: 'acct_default' })), 'pm_card_mastercard');
    assert.equal((await p.savedCard('acct_default')).card?.brand, 'mastercard', 'the newest');
    fake.setDefault(customer, visa.id);
    assert.equal((await p.savedCard('acct_default')).card?.brand, 'visa', 'the default');
    const pay = await p.charge({ account: { id: 'acct_default' }, amount_cents: 100, idempotency_key: 'default-1' });
    assert.equal(pay.payment_method, visa.id);
  });

  it('a webhook with a bad or missing signature is refused: webhook_signature_invalid', async () => {
    const customer = await customerWith('acct_sig', 'pm_card_processingThenSucceeds');
    assert.ok(customer);
    const pay = await p.charge({ account: { id: 'acct_sig' }, amount_cents: 100, idempotency_key: 'sig-1' });
    const payload = JSON.stringify({ id: 'evt_1', object: 'event', type: 'payment_intent.succeeded', data: { object: { id: pay.id, object: 'payment_intent' } } });
    const isSigError = (e: unknown) => e instanceof UseCaseError && e.code === 'webhook_signature_invalid' && e.kind === 'malformed';
    await assert.rejects(p.handleWebhook(payload, {}), isSigError);
    await assert.rejects(p.handleWebhook(payload, { 'stripe-signature': 't=1,v1=00' }), isSigError);
    const wrong = await new StripeFake({ webhookSecret: 'whsec_other' }).sendEvent('payment_intent.succeeded', { id: pay.id, object: 'payment_intent' });
    await assert.rejects(p.handleWebhook(wrong.payload, { 'stripe-signature': wrong.signature }), isSigError);
    await assert.rejects(processorFor(fake, store, null).handleWebhook(wrong.payload, { 'stripe-signature': wrong.signature }), isSigError);
    // a correctly signed body that was altered afterwards
    const good = await new StripeFake({ webhookSecret: WEBHOOK_SECRET }).sendEvent('payment_intent.succeeded', { id: pay.id, object: 'payment_intent' });
    await assert.rejects(p.handleWebhook(good.payload.replace('succeeded', 'processing'), { 'stripe-signature': good.signature }), isSigError);
    // the untouched one verifies: the payment as Stripe has it now (still processing)
    assert.equal((await p.handleWebhook(Buffer.from(good.payload), { 'stripe-signature': good.signature }))?.status, 'processing');
  });

  it('webhook events about other objects answer null; a refund event answers the refunded payment', async () => {
    const other = await fake.sendEvent('customer.created', { id: 'cus_1', object: 'customer' });
    assert.equal(other.result, undefined);
    assert.equal(delivered.at(-1), null);
    await customerWith('acct_refund_event', 'pm_card_visa');
    const pay = await p.charge({ account: { id: 'acct_refund_event' }, amount_cents: 900, idempotency_key: 'refund-event' });
    await p.refund({ payment_id: pay.id, idempotency_key: 'x' });
    await fake.sendEvent('charge.refunded', { id: 'ch_1', object: 'charge', payment_intent: pay.id });
    assert.equal(delivered.at(-1)?.amount_refunded_cents, 900);
  });

  it('a charge whose outcome was never written down here (a crash mid-call) is found by its metadata key', async () => {
    await customerWith('acct_lost', 'pm_card_visa');
    const pay = await p.charge({ account: { id: 'acct_lost' }, amount_cents: 4100, idempotency_key: 'lost-1' });
    const charges = store.documents<unknown>('stripe_charges', { idPrefix: 'sch' });
    const rec = await charges.getByKey('payment_processor', 'lost-1');
    assert.ok(rec && await charges.delete('payment_processor', rec.id));
    const found = await p.findPaymentByIdempotencyKey('acct_lost', 'lost-1');
    assert.equal(found?.id, pay.id);
    assert.equal(found?.amount_cents, 4100);
    assert.ok(await charges.getByKey('payment_processor', 'lost-1'), 'written down once found');
    assert.equal(await p.findPaymentByIdempotencyKey('acct_lost', 'lost-2'), null);
  });

  it("a key written down here answers its payment without asking Stripe to create again (beyond Stripe's 24 h key window)", async () => {
    await customerWith('acct_window', 'pm_card_visa');
    const pay = await p.charge({ account: { id: 'acct_window' }, amount_cents: 1300, idempotency_key: 'window-1' });
    const creates = fake.requests.filter((r) => r === 'POST /v1/payment_intents').length;
    const again = await p.charge({ account: { id: 'acct_window' }, amount_cents: 1300, idempotency_key: 'window-1' });
    assert.equal(again.id, pay.id);
    assert.equal(fake.requests.filter((r) => r === 'POST /v1/payment_intents').length, creates);
  });

  it('an unreachable Stripe is payment_processor_unavailable (retryable), not a decline', async () => {
    const down = new StripePaymentProcessor({ secretKey: fake.apiKey, store, returnUrl: 'https://kerf.example/account', host: '127.0.0.1', port: 1, protocol: 'http', maxNetworkRetries: 0 });
    await customerWith('acct_down', 'pm_card_visa');
    await assert.rejects(down.charge({ account: { id: 'acct_down' }, amount_cents: 100, idempotency_key: 'down-1' }),
      (e: unknown) => e instanceof UseCaseError && e.code === 'payment_processor_unavailable' && e.retryable);
  });

  it('a wrong secret key is unavailable too, and never a charge', async () => {
    const wrongKey = new StripePaymentProcessor({ secretKey: 'sk_test_wrong', store, returnUrl: 'https://kerf.example/account', host: '127.0.0.1', port: fake.port, protocol: 'http', maxNetworkRetries: 0 });
    const unavailable = (e: unknown) => e instanceof UseCaseError && e.code === 'payment_processor_unavailable';
    await customerWith('acct_wrong_key', 'pm_card_visa'); // so that the charge below gets as far as creating the payment intent
    const before = fake.intentCount();
    const creates = () => fake.requests.filter((r) => r === 'POST /v1/payment_intents').length;
    const createsBefore = creates();
    await assert.rejects(wrongKey.paymentMethodSetupUrl({ id: 'acct_wrong_key' }), unavailable);
    await assert.rejects(wrongKey.charge({ account: { id: 'acct_wrong_key' }, amount_cents: 100, idempotency_key: 'wrong-key-1', payment_method: 'pm_card_visa' }), unavailable);
    assert.equal(creates(), createsBefore + 1, 'the charge was tried once, with the wrong key');
    assert.equal(fake.intentCount(), before);
    assert.equal(await p.findPaymentByIdempotencyKey('acct_wrong_key', 'wrong-key-1'), null);
  });
});
