// The commerce flow on the MongoDB store (the real driver against the store's wire stand-in, no
// server): a card saved on the hosted page, a cart PATCHed to a destination and an option, paid once
// by concurrent requests, the order read back.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startMongoWireFake } from '@kerf/store/testing';
import { startTestService, type TestService } from './helpers/service.ts';
import { Client, clientsFor, pollDesign, stepForm } from './helpers/client.ts';

const L_BRACKET = new URL('../fixtures/sheet/l_t2_r2.step', import.meta.url).pathname;
const TEXAS = { name: 'R. Doe', street1: '1 Main St', city: 'Austin', state: 'TX', postal_code: '78701', country: 'US' };

describe('commerce on the MongoDB store', () => {
  let wire: Awaited<ReturnType<typeof startMongoWireFake>>;
  let t: TestService;
  let a: Client;

  before(async () => {
    wire = await startMongoWireFake({ replicaSet: 'rs0' });
    t = await startTestService({ mongodbUrl: wire.url });
    ({ a } = await clientsFor(t));
  });
  after(async () => {
    await t?.close();
    await wire?.close();
  });

  it('card, cart, PATCH, concurrent pays: one charge, one order', async () => {
    const setup = (await a.get('/v1/account')).body.payment_method_setup_url as string;
    const saved = await fetch(setup, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'payment_method=pm_card_visa' });
    assert.equal(saved.status, 200);
    const design = await pollDesign(a, (await a.post('/v1/analyze', { form: stepForm(L_BRACKET) })).body.id);
    const items = [{ design_id: design.id, quantity: 3, configuration: { defaults: { material_id: 'mat_mild_steel_2_0mm' } } }];
    const cart = (await a.post('/v1/carts', { json: { items } })).body;
    const shipped = await a.request('PATCH', `/v1/carts/${cart.id}`, { json: { ship_to: TEXAS, shipping_option_id: 'shp_standard_ups_ground' } });
    assert.equal(shipped.status, 200, shipped.text);
    assert.equal(shipped.body.revision, 2);
    const results = await Promise.all(['m-1', 'm-2', 'm-1', null].map((k) =>
      a.post(`/v1/carts/${cart.id}/pay`, { json: { payment: { type: 'card_on_file' } }, headers: k ? { 'idempotency-key': k } : {} })));
    const ok = results.filter((r) => r.status === 200);
    assert.ok(ok.length >= 1, results.map((r) => r.text).join('\n'));
    assert.equal(new Set(ok.map((r) => r.body.order_id)).size, 1);
    for (const r of results) assert.ok(r.status === 200 || r.status === 409, r.text);
    const charges = (await t.service.store.documents<{ metadata: { cart_id?: string } }>('payment_intents').list('payment_processor', { limit: 100 })).items
      .filter((p) => p.data.metadata.cart_id === cart.id);
    assert.equal(charges.length, 1, 'one charge');
    const order = await a.get(`/v1/orders/${ok[0].body.order_id}`);
    assert.equal(order.status, 200);
    assert.equal(order.body.amount_total_cents, shipped.body.totals.amount_total_cents);
    assert.deepEqual((await a.get('/v1/orders')).body.data.map((o: { id: string }) => o.id), [order.body.id]);
  });
});
