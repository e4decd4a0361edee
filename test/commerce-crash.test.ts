// Paying exactly once when the service dies (issue #10): the real `kerf serve` on one data dir,
// killed (SIGKILL, via KERF_TEST_CRASH_AT) at every step of a pay: before the charge, after the
// charge but before the order, after the order but before the cart is checked out. After a restart
// the reconciler finishes from the processor's record: never two charges, never a charge without
// an order, never an order without a charge; a retry with the same Idempotency-Key answers the
// outcome, and another key for a paid cart is 409.
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Store } from '@kerf/store';
import { childServiceGroup, demoKey, stopChild } from './helpers/child.ts';
import { cardAndReadyDesign, call as callAs, processorPayments, starter, type Json } from './helpers/shop.ts';
import { until } from './helpers/wait.ts';

const TEXAS = { name: 'R. Doe', street1: '1 Main St', city: 'Austin', state: 'TX', postal_code: '78701', country: 'US' };
const CRASH_POINTS = ['before_charge', 'after_charge', 'after_order'] as const;

describe('commerce: kill -9 at every step of pay', () => {
  const group = childServiceGroup('kerf-pay-crash-');
  const { dir, children } = group;
  const env = { KERF_DATA_DIR: dir, KERF_PAYMENT_RECONCILE_AFTER_MS: '1000', KERF_IDEMPOTENCY_LEASE_MS: '1000', KERF_JOB_POLL_MS: '100', KERF_JOB_LEASE_MS: '1500' };
  let store: Store;
  let key = '';
  let account = '';
  const carts: Record<string, string> = {};

  const call = (url: string, method: string, path: string, body?: unknown, idem?: string) => callAs(url, key, method, path, body, idem);
  const start = starter(env, children);
  const paymentsOf = (cartId: string) => processorPayments(store, (p) => p.metadata?.cart_id === cartId);
  async function ordersOf(cartId: string): Promise<Json[]> {
    const page = await store.documents<Json>('orders').list(account, { limit: 1000 });
    return page.items.map((r) => r.data).filter((o) => o.cart_id === cartId);
  }

  before(async () => {
    const first = await start();
    const demo = demoKey(first)!;
    assert.ok(demo, 'the first process prints a demo key');
    ({ key, account } = demo);
    store = await group.store();
    // a card on file, a ready design and one payable cart per crash point
    const design = await cardAndReadyDesign(first.url, key);
    const items = [{ design_id: design.id, quantity: 2, configuration: { defaults: { material_id: 'mat_mild_steel_2_0mm' } } }];
    for (const point of CRASH_POINTS) {
      const r = await call(first.url, 'POST', '/v1/carts', { items, ship_to: TEXAS, shipping_option_id: 'shp_standard_ups_ground' });
      assert.equal(r.status, 201, JSON.stringify(r.body));
      carts[point] = r.body.id;
    }
    assert.equal(await stopChild(first), 0);
  });

  for (const point of CRASH_POINTS) {
    it(`killed ${point.replace('_', ' ')}: the restarted service finishes it, one charge, one order`, async () => {
      const cartId = carts[point];
      const doomed = await start({ KERF_TEST_CRASH_AT: point });
      await assert.rejects(call(doomed.url, 'POST', `/v1/carts/${cartId}/pay`, { payment: { type: 'card_on_file' } }, `pay-${point}`), 'the process dies mid-request');
      await doomed.stopped;
      assert.equal(doomed.proc.signalCode, 'SIGKILL');

      // what the dead process left behind
      const charged = await paymentsOf(cartId);
      const ordered = await ordersOf(cartId);
      assert.equal(charged.length, point === 'before_charge' ? 0 : 1);
      assert.equal(ordered.length, point === 'after_order' ? 1 : 0);
      const left = (await store.documents<Json>('carts').get(account, cartId))!.data;
      assert.equal(left.status, 'open');
      assert.ok(left._intent, 'the payment intent was recorded before the processor was called');

      const next = await start();
      if (point === 'before_charge') {
        // nothing was charged: the reconciler gives the intent up and the cart can be paid again
        await until('the reconciler to drop the intent', async () => (await call(next.url, 'GET', `/v1/carts/${cartId}`)).body.payment === null, 60_000);
        const retry = await call(next.url, 'POST', `/v1/carts/${cartId}/pay`, { payment: { type: 'card_on_file' } }, `pay-${point}`);
        assert.equal(retry.status, 200, JSON.stringify(retry.body));
        assert.equal(retry.body.status, 'checked_out');
      } else {
        // charged: the reconciler finishes the order from the processor's record, with no request
        const done = await until('the reconciler to check the cart out', async () => {
          const c = (await call(next.url, 'GET', `/v1/carts/${cartId}`)).body;
          return c.status === 'checked_out' ? c : null;
        }, 60_000);
        assert.match(done.order_id, /^ord_/);
        const retry = await call(next.url, 'POST', `/v1/carts/${cartId}/pay`, { payment: { type: 'card_on_file' } }, `pay-${point}`);
        assert.equal(retry.status, 200, JSON.stringify(retry.body));
        assert.equal(retry.body.order_id, done.order_id, 'the same key answers the same outcome');
      }
      const other = await call(next.url, 'POST', `/v1/carts/${cartId}/pay`, { payment: { type: 'card_on_file' } }, `another-${point}`);
      assert.equal(other.status, 409);
      assert.equal(other.body.error.code, 'cart_checked_out');

      const payments = await paymentsOf(cartId);
      const orders = await ordersOf(cartId);
      assert.equal(payments.length, 1, 'one charge');
      assert.equal(payments[0].status, 'succeeded');
      assert.equal(orders.length, 1, 'one order');
      assert.equal(orders[0]._payment_intent_id, (await store.documents<Json>('payment_intents').getByKey('payment_processor', payments[0].idempotency_key))!.id, 'the order is the charge\'s');
      assert.equal(orders[0].amount_total_cents, payments[0].amount_cents);
      const cart = (await call(next.url, 'GET', `/v1/carts/${cartId}`)).body;
      assert.equal(cart.order_id, orders[0].id);
      assert.equal(cart.payment.status, 'paid');
      const order = await call(next.url, 'GET', `/v1/orders/${orders[0].id}`);
      assert.equal(order.status, 200);
      assert.equal(await stopChild(next), 0);
    });
  }
});
