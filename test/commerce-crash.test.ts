// Paying exactly once when the service dies (issue #10): the real `kerf serve` on one data dir,
// killed (SIGKILL, via KERF_TEST_CRASH_AT) at every step of a pay: before the charge, after the
// charge but before the order, after the order but before the cart is checked out. After a restart
// the reconciler finishes from the processor's record: never two charges, never a charge without
// an order, never an order without a charge; a retry with the same Idempotency-Key answers the
// outcome, and another key for a paid cart is 409.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore, type Store } from '@kerf/store';
import { fixtureBytes } from './helpers/fixtures.ts';
import { demoKey, spawnServe, stopChild, type ChildService } from './helpers/child.ts';
import { freePort } from './helpers/service.ts';
import { until } from './helpers/wait.ts';

const L_BRACKET = new URL('../fixtures/sheet/l_t2_r2.step', import.meta.url).pathname;
const TEXAS = { name: 'R. Doe', street1: '1 Main St', city: 'Austin', state: 'TX', postal_code: '78701', country: 'US' };
const CRASH_POINTS = ['before_charge', 'after_charge', 'after_order'] as const;

type Json = Record<string, any>;

describe('commerce: kill -9 at every step of pay', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kerf-pay-crash-'));
  const env = { KERF_DATA_DIR: dir, KERF_PAYMENT_RECONCILE_AFTER_MS: '1000', KERF_IDEMPOTENCY_LEASE_MS: '1000', KERF_JOB_POLL_MS: '100', KERF_JOB_LEASE_MS: '1500' };
  const children: ChildService[] = [];
  let store: Store;
  let key = '';
  let account = '';
  const carts: Record<string, string> = {};

  async function call(url: string, method: string, path: string, body?: unknown, idem?: string): Promise<{ status: number; body: Json }> {
    const headers: Record<string, string> = { authorization: `Bearer ${key}` };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (idem) headers['idempotency-key'] = idem;
    const r = await fetch(`${url}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    return { status: r.status, body: (await r.json()) as Json };
  }
  async function start(extra: Record<string, string> = {}): Promise<ChildService> {
    const child = await spawnServe({ ...env, ...extra }, await freePort());
    children.push(child);
    return child;
  }
  async function paymentsOf(cartId: string): Promise<Json[]> {
    const page = await store.documents<Json>('payment_intents').list('payment_processor', { limit: 1000 });
    return page.items.map((r) => r.data).filter((p) => p.metadata?.cart_id === cartId);
  }
  async function ordersOf(cartId: string): Promise<Json[]> {
    const page = await store.documents<Json>('orders').list(account, { limit: 1000 });
    return page.items.map((r) => r.data).filter((o) => o.cart_id === cartId);
  }

  before(async () => {
    const first = await start();
    const demo = demoKey(first)!;
    assert.ok(demo, 'the first process prints a demo key');
    ({ key, account } = demo);
    store = await openStore({ dataDir: dir });
    // a card on file, through the hosted setup page
    const setup = (await call(first.url, 'GET', '/v1/account')).body.payment_method_setup_url as string;
    const saved = await fetch(setup, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'payment_method=pm_card_visa' });
    assert.equal(saved.status, 200);
    // a ready design and one payable cart per crash point
    const form = new FormData();
    form.append('file', new Blob([fixtureBytes(L_BRACKET)]), 'l.step');
    const up = await fetch(`${first.url}/v1/analyze`, { method: 'POST', headers: { authorization: `Bearer ${key}`, prefer: 'wait=60' }, body: form });
    const design = (await up.json()) as Json;
    await until('the design', async () => (await call(first.url, 'GET', `/v1/designs/${design.id}`)).body.status === 'ready', 60_000);
    const items = [{ design_id: design.id, quantity: 2, configuration: { defaults: { material_id: 'mat_mild_steel_2_0mm' } } }];
    for (const point of CRASH_POINTS) {
      const r = await call(first.url, 'POST', '/v1/carts', { items, ship_to: TEXAS, shipping_option_id: 'shp_standard_ups_ground' });
      assert.equal(r.status, 201, JSON.stringify(r.body));
      carts[point] = r.body.id;
    }
    assert.equal(await stopChild(first), 0);
  });

  after(async () => {
    for (const c of children) await stopChild(c, 'SIGKILL');
    await store?.close();
    rmSync(dir, { recursive: true, force: true });
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
