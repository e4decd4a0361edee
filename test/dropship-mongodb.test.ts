// The dropship API on the MongoDB store (the real driver against the store's wire stand-in): an
// item from a sample order, concurrent repeats of one external_ref (one order, one charge), a
// contract item's allocation and the operator's shipping charge.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startMongoWireFake } from '@kerf/store/testing';
import { startTestService, type TestService } from './helpers/service.ts';
import { Client, clientsFor, pollDesign, stepForm } from './helpers/client.ts';

const L_BRACKET = new URL('../fixtures/sheet/l_t2_r2.step', import.meta.url).pathname;
const TEXAS = { name: 'R. Doe', street1: '1 Main St', city: 'Austin', state: 'TX', postal_code: '78701', country: 'US' };
const SHIP_TO = { name: 'Pat Buyer', street1: '9 Elm St', city: 'Boulder', state: 'CO', postal_code: '80301', country: 'US', phone: '+1 303 555 0100', email: 'pat@example.com' };

type Json = Record<string, any>;

describe('dropship on the MongoDB store', () => {
  let wire: Awaited<ReturnType<typeof startMongoWireFake>>;
  let t: TestService;
  let a: Client;
  let op: Client;

  before(async () => {
    wire = await startMongoWireFake({ replicaSet: 'rs0' });
    t = await startTestService({ mongodbUrl: wire.url });
    ({ a } = await clientsFor(t));
    const operator = await t.service.store.accounts.create({ email: `op-${Date.now()}@test.local`, name: 'Ops', operator: true });
    op = new Client(t.url, (await t.service.store.apiKeys.create(operator.id, { operator: true }))!.api_key, a.openapi);
  });
  after(async () => {
    await t?.close();
    await wire?.close();
  });

  it('sample order -> approved item; concurrent repeats make one order and one charge; a contract item allocates; shipping is charged', async () => {
    const setup = (await a.get('/v1/account')).body.payment_method_setup_url as string;
    assert.equal((await fetch(setup, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'payment_method=pm_card_visa' })).status, 200);
    const design = await pollDesign(a, (await a.post('/v1/analyze', { form: stepForm(L_BRACKET) })).body.id);
    const items = [{ design_id: design.id, quantity: 3, configuration: { defaults: { material_id: 'mat_mild_steel_2_0mm' } } }];
    const cart = (await a.post('/v1/carts', { json: { items, ship_to: TEXAS, shipping_option_id: 'shp_standard_ups_ground' } })).body;
    const paid = await a.post(`/v1/carts/${cart.id}/pay`, { json: { payment: { type: 'card_on_file' } } });
    assert.equal(paid.status, 200, paid.text);
    const sample = (await a.get(`/v1/orders/${paid.body.order_id}`)).body;
    const line = (sample.line_items as Json[]).find((l) => l.type === 'part')!;

    assert.equal((await op.post(`/v1/admin/dropship/accounts/${t.accountA}/status`, { json: { status: 'approved' } })).status, 200);
    for (const [sku, approval] of [['M-1', { unit_price_cents: 2000 }], ['M-C', { unit_price_cents: 2000, committed_quantity: 3 }]] as const) {
      const item = await op.post('/v1/admin/dropship/items', { json: { order_id: sample.id, line_item_id: line.id, sku } });
      assert.equal(item.status, 201, item.text);
      assert.equal((await op.post(`/v1/admin/dropship/items/${item.body.id}/approve`, { json: approval })).status, 200);
    }
    assert.deepEqual((await a.get('/v1/dropship/items')).body.items.map((i: Json) => [i.sku, i.status, i.unit_price_cents]).sort(), [['M-1', 'approved', 2000], ['M-C', 'approved', 2000]]);

    const body = { sku: 'M-1', quantity: 2, external_ref: 'mongo-1', ship_to: SHIP_TO };
    const all = await Promise.all(Array.from({ length: 4 }, () => a.post('/v1/dropship/orders', { json: body })));
    assert.deepEqual(all.map((r) => r.status).sort(), [200, 200, 200, 201], all.map((r) => r.text).join('\n'));
    const orderId = all[0].body.order.id as string;
    assert.ok(all.every((r) => r.body.order.id === orderId));
    const charges = (await t.service.store.documents<Json>('payment_intents').list('payment_processor', { limit: 100 })).items.filter((p) => p.data.metadata.external_ref === 'mongo-1');
    assert.equal(charges.length, 1, 'one charge');
    assert.equal(charges[0].data.amount_cents, 4000);

    const contract = await a.post('/v1/dropship/orders', { json: { ...body, sku: 'M-C', external_ref: 'mongo-c1', quantity: 3 } });
    assert.equal(contract.status, 201, contract.text);
    assert.equal(contract.body.order.production_hold, true);
    const over = await a.post('/v1/dropship/orders', { json: { ...body, sku: 'M-C', external_ref: 'mongo-c2', quantity: 1 } });
    assert.equal(over.status, 409);
    assert.equal(over.body.error.code, 'contract_quantity_exhausted');

    const shipped = await op.post(`/v1/admin/dropship/orders/${orderId}/status`, { json: { status: 'shipped', tracking: { carrier: 'UPS', number: '1Z1' }, shipping_cost_cents: 900 } });
    assert.equal(shipped.status, 200, shipped.text);
    const read = (await a.get(`/v1/dropship/orders/${orderId}`)).body.order;
    assert.deepEqual(read.charges.map((c: Json) => [c.kind, c.amount_cents, c.status]), [['parts', 4000, 'succeeded'], ['shipping', 900, 'succeeded']]);
    assert.deepEqual((await a.get('/v1/dropship/orders?external_ref=mongo-1')).body.orders.map((o: Json) => o.status), ['shipped']);
  });
});
