// Dropship orders exactly once when the service dies (issue #13; one order per external_ref): the real
// `kerf serve` on one data dir, killed (SIGKILL, via KERF_TEST_CRASH_AT) before the parts charge,
// after it, and after the order was made. After a restart a repeat of the external_ref, or the
// reconciler alone, finishes it: one charge, one order, and every later repeat answers that order.
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Store } from '@kerf/store';
import { childServiceGroup, demoKey, stopChild } from './helpers/child.ts';
import { cardAndReadyDesign, call as callAs, processorPayments, starter, type Json } from './helpers/shop.ts';
import { until } from './helpers/wait.ts';

const TEXAS = { name: 'R. Doe', street1: '1 Main St', city: 'Austin', state: 'TX', postal_code: '78701', country: 'US' };
const SHIP_TO = { name: 'Pat Buyer', street1: '9 Elm St', city: 'Boulder', state: 'CO', postal_code: '80301', country: 'US', phone: '+1 303 555 0100', email: 'pat@example.com' };
const CRASH_POINTS = ['before_charge', 'after_charge', 'after_order'] as const;

describe('dropship: kill -9 at every step of creating an order', () => {
  const group = childServiceGroup('kerf-dropship-crash-');
  const { dir, children } = group;
  // the reconciler waits 5 s for the creating process; where the test's repeat must make the order
  // itself, the restarted service waits a minute instead, since a loaded machine can take over 5 s
  // between the restart and the repeat's answer (CI saw the reconciler win: 200, not 201)
  const env = { KERF_DATA_DIR: dir, KERF_PAYMENT_RECONCILE_AFTER_MS: '5000', KERF_JOB_POLL_MS: '100', KERF_JOB_LEASE_MS: '1500' };
  let store: Store;
  let key = '';
  let opKey = '';
  let account = '';

  const call = (url: string, method: string, path: string, body?: unknown, bearer = key) => callAs(url, bearer, method, path, body);
  const start = starter(env, children);
  const paymentsOf = (ref: string) => processorPayments(store, (p) => p.metadata?.external_ref === ref);
  async function ordersOf(ref: string): Promise<Json[]> {
    const page = await store.documents<Json>('dropship_orders').list(account, { limit: 1000 });
    return page.items.map((r) => r.data).filter((o) => o.external_ref === ref);
  }
  const create = (url: string, ref: string) => call(url, 'POST', '/v1/dropship/orders', { sku: 'CRASH-1', quantity: 2, external_ref: ref, ship_to: SHIP_TO });

  before(async () => {
    const first = await start();
    ({ key, account } = demoKey(first)!);
    store = await group.store();
    const operator = await store.accounts.create({ email: 'ops@test.local', name: 'Ops', operator: true });
    opKey = (await store.apiKeys.create(operator.id, { operator: true }))!.api_key;
    // a card on file and a ready design, the sample order, then the approved account and item
    const design = await cardAndReadyDesign(first.url, key);
    const items = [{ design_id: design.id, quantity: 2, configuration: { defaults: { material_id: 'mat_mild_steel_2_0mm' } } }];
    const cart = await call(first.url, 'POST', '/v1/carts', { items, ship_to: TEXAS, shipping_option_id: 'shp_standard_ups_ground' });
    assert.equal(cart.status, 201, JSON.stringify(cart.body));
    const paid = await call(first.url, 'POST', `/v1/carts/${cart.body.id}/pay`, { payment: { type: 'card_on_file' } });
    assert.equal(paid.status, 200, JSON.stringify(paid.body));
    const sample = (await call(first.url, 'GET', `/v1/orders/${paid.body.order_id}`)).body;
    assert.equal((await call(first.url, 'POST', `/v1/admin/dropship/accounts/${account}/status`, { status: 'approved' }, opKey)).status, 200);
    const line = (sample.line_items as Json[]).find((l) => l.type === 'part')!;
    const item = await call(first.url, 'POST', '/v1/admin/dropship/items', { order_id: sample.id, line_item_id: line.id, sku: 'CRASH-1' }, opKey);
    assert.equal(item.status, 201, JSON.stringify(item.body));
    assert.equal((await call(first.url, 'POST', `/v1/admin/dropship/items/${item.body.id}/approve`, { unit_price_cents: 2500 }, opKey)).status, 200);
    assert.equal(await stopChild(first), 0);
  });

  for (const point of CRASH_POINTS) {
    it(`killed ${point.replace('_', ' ')}: one charge, one order, repeats answer it`, async () => {
      const ref = `crash-${point}`;
      const doomed = await start({ KERF_TEST_CRASH_AT: point });
      await assert.rejects(create(doomed.url, ref), 'the process dies mid-request');
      await doomed.stopped;
      assert.equal(doomed.proc.signalCode, 'SIGKILL');
      assert.equal((await paymentsOf(ref)).length, point === 'before_charge' ? 0 : 1);
      assert.equal((await ordersOf(ref)).length, point === 'after_order' ? 1 : 0);

      const next = await start(point === 'after_charge' ? {} : { KERF_PAYMENT_RECONCILE_AFTER_MS: '60000' });
      let orderId: string;
      if (point === 'after_charge') {
        // charged, no order: the reconciler makes it from the processor's record, with no request
        const made = await until('the reconciler to make the order', async () => {
          const list = (await call(next.url, 'GET', `/v1/dropship/orders?external_ref=${ref}`)).body.orders as Json[];
          return list.length ? list[0] : null;
        }, 60_000);
        orderId = made.id;
      } else {
        const repeat = await create(next.url, ref);
        assert.equal(repeat.status, point === 'after_order' ? 200 : 201, JSON.stringify(repeat.body));
        orderId = repeat.body.order.id;
      }
      const concurrent = await Promise.all([create(next.url, ref), create(next.url, ref)]);
      assert.deepEqual(concurrent.map((r) => [r.status, r.body.order.id]), [[200, orderId], [200, orderId]]);

      const payments = await paymentsOf(ref);
      const orders = await ordersOf(ref);
      assert.equal(payments.length, 1, 'one charge');
      assert.equal(payments[0].status, 'succeeded');
      assert.equal(payments[0].amount_cents, 5000);
      assert.equal(orders.length, 1, 'one order');
      assert.equal(orders[0].charges[0].processor_payment_intent_id, payments[0].id, 'the order is the charge\'s');
      assert.equal(await stopChild(next), 0);
    });
  }
});
