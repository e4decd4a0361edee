// `kerf admin dropship ...` spawned as an operator would run it, against a temporary embedded store:
// account approval, item approval at a locked price (a contract item), factory release and shipping
// with the shipping charge by the embedded processor on the same store.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { kerf } from './support/kerf.ts';
import { openStore, type Store } from '@kerf/store';
import { EmbeddedPaymentProcessor } from '@kerf/payments';
import { newId } from '@kerf/common';
import { apiKeyCaller, createDropshipOrder, type UseCaseContext } from '@kerf/usecases';

describe('kerf admin dropship', () => {
  let dataDir: string;
  let store: Store;
  let processor: EmbeddedPaymentProcessor;
  let accountId: string;
  const itemId = '0b7f6a3e-5d0c-4c8e-9d7a-2f1e3c4b5a69';

  before(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'kerf-admin-dropship-'));
    store = await openStore({ dataDir });
    accountId = (await store.accounts.create({ email: 'shop@example.com', name: 'Shop' })).id;
    // a webhook endpoint: events are recorded only for an account that has one (their audience)
    await store.documents('webhook_endpoints').create(accountId, { object: 'webhook_endpoint', url: 'https://hooks.example.com/kerf', events: [], active: true });
    processor = new EmbeddedPaymentProcessor({ store });
    await processor.attachPaymentMethod(accountId, 'pm_card_visa');
    const now = new Date().toISOString();
    await store.documents('dropship_items').create(accountId, {
      id: itemId, object: 'dropship_item', sku: 'PLATE-1', name: 'Plate', status: 'requested', unit_price_cents: null, kind: 'part',
      part: { id: 'prt_1', material: 'Mild steel', material_type: 'steel', thickness: 2 }, assembly: null,
      committed_quantity: null, allocated_quantity: 0, created_at: now, approved_at: null,
      _sample_order_id: 'ord_sample', _sample_line_item_id: 'oli_1', _allocations: {},
    }, { id: itemId, key: 'PLATE-1' });
  });
  after(async () => {
    await processor.close();
    await store.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('approves the account and the item, releases a held contract order and ships it with the shipping charge', async () => {
    const env = { KERF_DATA_DIR: dataDir };
    const approved = await kerf(['admin', 'dropship', 'account', '--email', 'shop@example.com', '--status', 'approved', '--phone', '+1 512 555 0100'], env);
    assert.equal(approved.code, 0, approved.stderr);
    assert.deepEqual(JSON.parse(approved.stdout).dropship, { status: 'approved' });
    assert.equal((await store.accounts.get(accountId))!.dropshipStatus, 'approved');
    const badStatus = await kerf(['admin', 'dropship', 'account', '--email', 'shop@example.com', '--status', 'maybe'], env);
    assert.equal(badStatus.code, 2, badStatus.stderr);

    const item = await kerf(['admin', 'dropship', 'approve-item', itemId, '--price', '1500', '--committed', '4'], env);
    assert.equal(item.code, 0, item.stderr);
    assert.equal(JSON.parse(item.stdout).unit_price_cents, 1500);
    const relock = await kerf(['admin', 'dropship', 'approve-item', itemId, '--price', '999', '--committed', '4'], env);
    assert.equal(relock.code, 1);
    assert.equal(JSON.parse(relock.stderr).error.code, 'item_price_locked');

    // the account orders against the contract item (no parts charge, on hold)
    const ctx = { store, now: () => new Date(), newId, payments: processor, notifyJobs: () => {} } as unknown as UseCaseContext;
    const { order } = await createDropshipOrder(ctx, apiKeyCaller({ accountId, keyId: 'key_cli', operator: false }),
      { sku: 'PLATE-1', quantity: 2, external_ref: 'cli-1', ship_to: { name: 'Pat', street1: '9 Elm St', city: 'Boulder', state: 'CO', postal_code: '80301', country: 'US' } });
    assert.equal(order.production_hold, true);
    assert.equal(order.ship_to.phone, '+1 512 555 0100');

    const ship = ['admin', 'dropship', 'set-status', order.id, '--status', 'shipped', '--carrier', 'UPS', '--number', '1Z999', '--shipping-cost', '700'];
    const held = await kerf(ship, env);
    assert.equal(held.code, 1);
    assert.equal(JSON.parse(held.stderr).error.code, 'order_on_production_hold');
    const released = await kerf(['admin', 'dropship', 'release', order.id], env);
    assert.equal(released.code, 0, released.stderr);
    assert.equal(JSON.parse(released.stdout).status, 'in_production');
    const shipped = await kerf(ship, env);
    assert.equal(shipped.code, 0, shipped.stderr);
    const out = JSON.parse(shipped.stdout);
    assert.equal(out.status, 'shipped');
    assert.equal(out.account_id, accountId);
    assert.deepEqual(out.tracking, { carrier: 'UPS', number: '1Z999', url: null });
    assert.deepEqual(out.charges.map((c: { kind: string; amount_cents: number; status: string }) => [c.kind, c.amount_cents, c.status]), [['shipping', 700, 'succeeded']]);
    const payment = await processor.retrievePayment(out.charges[0].processor_payment_intent_id);
    assert.equal(payment?.amount_cents, 700);
    assert.equal(JSON.parse((await kerf(['admin', 'dropship', 'show', order.id], env)).stdout).status, 'shipped');
    const usage = await kerf(['admin', 'dropship', 'show'], env);
    assert.equal(usage.code, 2);

    const outbox = await store.outbox.pending({ limit: 100 });
    const events = outbox.filter((e) => e.resourceId === order.id).flatMap((e) => e.events.map((x) => x.type));
    assert.deepEqual(events, ['order.created', 'order.in_production', 'order.shipped']);
  });
});
