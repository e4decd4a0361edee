// The service with the Stripe processor (the official SDK pointed at the local stand-in of the Stripe
// API, @kerf/payments/testing; no network): a card saved through Checkout, a cart paid off-session
// once, and a processing payment finished by Stripe's signed webhook posted to the service's
// /v1/payment-webhooks/stripe; a webhook with a wrong signature is refused.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore, type Store } from '@kerf/store';
import { StripePaymentProcessor } from '@kerf/payments';
import { StripeFake } from '@kerf/payments/testing';
import { startTestService, type TestService } from './helpers/service.ts';
import { Client, clientsFor, pollDesign, stepForm } from './helpers/client.ts';

const L_BRACKET = new URL('../fixtures/sheet/l_t2_r2.step', import.meta.url).pathname;
const TEXAS = { name: 'R. Doe', street1: '1 Main St', city: 'Austin', state: 'TX', postal_code: '78701', country: 'US' };
const WEBHOOK_SECRET = 'whsec_test_service';

describe('commerce with the Stripe processor', () => {
  let t: TestService;
  let a: Client;
  let fake: StripeFake;
  let items: unknown[];
  let processorStore: Store;
  const dataDir = mkdtempSync(join(tmpdir(), 'kerf-stripe-e2e-'));
  const answers: number[] = [];

  before(async () => {
    let webhookUrl = '';
    fake = await new StripeFake({
      webhookSecret: WEBHOOK_SECRET,
      onEvent: async (payload, signature) => {
        const r = await fetch(webhookUrl, { method: 'POST', headers: { 'content-type': 'application/json', 'stripe-signature': signature }, body: payload });
        answers.push(r.status);
        return r.status;
      },
    }).start();
    // the processor's records on the service's data dir (a second handle: the store is multi-process)
    processorStore = await openStore({ dataDir });
    t = await startTestService({ dataDir }, {
      payments: new StripePaymentProcessor({
        secretKey: fake.apiKey, webhookSecret: WEBHOOK_SECRET, returnUrl: 'https://kerf.example/account',
        host: '127.0.0.1', port: fake.port, protocol: 'http', store: processorStore,
      }),
    });
    webhookUrl = `${t.url}/v1/payment-webhooks/stripe`;
    ({ a } = await clientsFor(t));
    const up = await a.post('/v1/analyze', { form: stepForm(L_BRACKET) });
    const design = await pollDesign(a, up.body.id);
    items = [{ design_id: design.id, quantity: 2, configuration: { defaults: { material_id: 'mat_mild_steel_2_0mm' } } }];
  });
  after(async () => {
    await t?.close();
    await processorStore?.close();
    await fake?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  async function readyCart(): Promise<any> {
    const r = await a.post('/v1/carts', { json: { items, ship_to: TEXAS, shipping_option_id: 'shp_standard_ups_ground' } });
    assert.equal(r.status, 201, r.text);
    return r.body;
  }

  it('a card saved through Checkout pays a cart off-session, once', async () => {
    const account = (await a.get('/v1/account')).body;
    assert.equal(account.has_saved_card, false);
    const session = new URL(account.payment_method_setup_url).pathname.split('/').at(-1)!;
    fake.completeCheckout(session, 'pm_card_visa');
    assert.equal((await a.get('/v1/account')).body.card.last4, '4242');
    const cart = await readyCart();
    const before = fake.intentCount();
    const r = await a.post(`/v1/carts/${cart.id}/pay`, { json: { payment: { type: 'card_on_file' } }, headers: { 'idempotency-key': 'stripe-1' } });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.status, 'checked_out');
    assert.match(r.body.payment.payment_intent_id, /^pi_/);
    assert.equal(fake.intentCount(), before + 1, 'one payment intent at Stripe');
    assert.equal((await a.post(`/v1/carts/${cart.id}/pay`, { json: { payment: { type: 'card_on_file' } }, headers: { 'idempotency-key': 'stripe-2' } })).status, 409);
    assert.equal(fake.intentCount(), before + 1);
  });

  it('a processing payment is finished by the signed webhook; a wrong signature is refused', async () => {
    const customer = [...fake.customers.keys()][0];
    const pm = fake.attachCard(customer, 'pm_card_processingThenSucceeds');
    fake.setDefault(customer, pm.id as string);
    const cart = await readyCart();
    const r = await a.post(`/v1/carts/${cart.id}/pay`, { json: { payment: { type: 'card_on_file' } }, headers: { 'idempotency-key': 'stripe-proc' } });
    assert.equal(r.status, 202, r.text);
    const intent = r.body.payment.payment_intent_id as string;

    const forged = await new StripeFake({ webhookSecret: 'whsec_other' }).sendEvent('payment_intent.succeeded', { id: intent, object: 'payment_intent' });
    const refused = await fetch(`${t.url}/v1/payment-webhooks/stripe`, { method: 'POST', headers: { 'content-type': 'application/json', 'stripe-signature': forged.signature }, body: forged.payload });
    assert.equal(refused.status, 400);
    assert.equal(((await refused.json()) as { error: { code: string } }).error.code, 'webhook_signature_invalid');
    assert.equal((await a.get(`/v1/carts/${cart.id}`)).body.status, 'open');

    await fake.settle(intent);
    assert.equal(answers.at(-1), 200);
    const done = (await a.get(`/v1/carts/${cart.id}`)).body;
    assert.equal(done.status, 'checked_out', 'the webhook checked the cart out');
    assert.match(done.order_id, /^ord_/);
    assert.equal((await a.get(`/v1/orders/${done.order_id}`)).body.amount_total_cents, cart.totals.amount_total_cents);
  });
});
