// `kerf admin order ...` spawned as an operator would run it, against a temporary embedded store
// holding a paid order (a real charge by the embedded processor on the same store).
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { kerf } from './support/kerf.ts';
import { openStore, type Store } from '@kerf/store';
import { EmbeddedPaymentProcessor } from '@kerf/payments';

describe('kerf admin order', () => {
  let dataDir: string;
  let store: Store;
  let accountId: string;
  let paymentId: string;
  const orderId = 'ord_cliTest0000000001';

  before(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'kerf-admin-orders-'));
    store = await openStore({ dataDir });
    accountId = (await store.accounts.create({ email: 'buyer@example.com', name: 'Buyer' })).id;
    // a webhook endpoint: events are recorded only for an account that has one (their audience)
    await store.documents('webhook_endpoints').create(accountId, { object: 'webhook_endpoint', url: 'https://hooks.example.com/kerf', events: [], active: true });
    const processor = new EmbeddedPaymentProcessor({ store });
    await processor.attachPaymentMethod(accountId, 'pm_card_visa');
    const payment = await processor.charge({ account: { id: accountId }, amount_cents: 4097, idempotency_key: 'crt_cli_r1_a0', metadata: { cart_id: 'crt_cli' } });
    paymentId = payment.id;
    const now = new Date().toISOString();
    await store.documents('orders').create(accountId, {
      id: orderId, object: 'order', status: 'received', created_at: now, cart_id: 'crt_cli', quote_id: 'quo_cli',
      amount_total_cents: 4097, tracking: null, delivered_at: null, line_items: [], events: [{ type: 'received', at: now }], _payment_intent_id: paymentId,
    }, { id: orderId, key: 'crt_cli' });
  });
  after(async () => {
    await store.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('moves an order through shipped (with tracking) and delivered, appending events and recording order.status_changed', async () => {
    const env = { KERF_DATA_DIR: dataDir };
    const noTracking = await kerf(['admin', 'order', 'set-status', orderId, '--status', 'shipped'], env);
    assert.equal(noTracking.code, 2, noTracking.stderr);
    assert.equal(JSON.parse(noTracking.stderr).error.code, 'parameter_missing');
    const shipped = await kerf(['admin', 'order', 'set-status', orderId, '--status', 'shipped', '--carrier', 'UPS', '--service', 'Ground', '--number', '1Z999', '--url', 'https://ups.example/1Z999'], env);
    assert.equal(shipped.code, 0, shipped.stderr);
    const order = JSON.parse(shipped.stdout);
    assert.equal(order.status, 'shipped');
    assert.equal(order.account_id, accountId);
    assert.deepEqual({ ...order.tracking, shipped_at: null }, { carrier: 'UPS', service: 'Ground', number: '1Z999', url: 'https://ups.example/1Z999', shipped_at: null, delivered_at: null });
    const delivered = await kerf(['admin', 'order', 'set-status', orderId, '--status', 'delivered'], env);
    assert.equal(delivered.code, 0, delivered.stderr);
    const back = await kerf(['admin', 'order', 'set-status', orderId, '--status', 'in_production'], env);
    assert.equal(back.code, 1);
    assert.equal(JSON.parse(back.stderr).error.code, 'invalid_order_transition');
    const shown = JSON.parse((await kerf(['admin', 'order', 'show', orderId], env)).stdout);
    assert.deepEqual(shown.events.map((e: { type: string }) => e.type), ['received', 'shipped', 'delivered']);
    const outbox = await store.outbox.pending({ limit: 100 });
    const changes = outbox.filter((e) => e.resourceId === orderId).flatMap((e) => e.events);
    assert.deepEqual(changes.map((e) => [e.type, (e.payload as { data: { status: string } }).data.status]), [['order.status_changed', 'shipped'], ['order.status_changed', 'delivered']]);
  });

  it('refunded refunds the payment through the processor, once', async () => {
    const env = { KERF_DATA_DIR: dataDir };
    const r = await kerf(['admin', 'order', 'set-status', orderId, '--status', 'refunded', '--reason', 'damaged in transit'], env);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(JSON.parse(r.stdout).status, 'refunded');
    const again = await kerf(['admin', 'order', 'set-status', orderId, '--status', 'refunded'], env);
    assert.equal(again.code, 0, again.stderr);
    const payment = await new EmbeddedPaymentProcessor({ store }).retrievePayment(paymentId);
    assert.equal(payment!.amount_refunded_cents, 4097);
  });

  it('list: an account\'s orders by its email, newest first', async () => {
    const env = { KERF_DATA_DIR: dataDir };
    const r = await kerf(['admin', 'order', 'list', '--email', 'buyer@example.com', '--limit', '5'], env);
    assert.equal(r.code, 0, r.stderr);
    const page = JSON.parse(r.stdout);
    assert.equal(page.object, 'list');
    assert.deepEqual(page.data.map((o: { id: string }) => o.id), [orderId]);
    assert.equal(page.data[0]._payment_intent_id, undefined, 'bookkeeping stays inside');
    const nobody = await kerf(['admin', 'order', 'list', '--email', 'nobody@example.com'], env);
    assert.equal(nobody.code, 1);
    assert.equal(JSON.parse(nobody.stderr).error.code, 'account_not_found');
    assert.equal((await kerf(['admin', 'order', 'list', '--email', 'buyer@example.com', '--limit', '0'], env)).code, 2);
  });

  it('an unknown order and bad usage', async () => {
    const env = { KERF_DATA_DIR: dataDir };
    const missing = await kerf(['admin', 'order', 'show', 'ord_nope'], env);
    assert.equal(missing.code, 1);
    assert.equal(JSON.parse(missing.stderr).error.code, 'resource_missing');
    assert.equal((await kerf(['admin', 'order', 'ship'], env)).code, 2);
    assert.equal((await kerf(['admin', 'order', 'show', orderId, '--bogus'], env)).code, 2);
  });
});
