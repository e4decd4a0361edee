// The embedded processor: the contract suite on the embedded SQLite store and on the MongoDB store,
// and what only it has (its clock and settle trigger, durability across a store reopen, the setup
// session).
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { randomBytes } from 'node:crypto';
import { openStore, type Store } from '@kerf/store';
import { startMongoWireFake } from '@kerf/store/testing';
import { UseCaseError, type Payment } from '@kerf/usecases';
import { EmbeddedPaymentProcessor, paymentProcessorFromEnv, TEST_CARDS } from '../src/index.ts';
import { runProcessorContract } from './contract.ts';

class ManualClock {
  private t = Date.parse('2026-11-24T12:00:00.000Z');
  readonly now = (): Date => new Date(this.t);
  advance(ms: number): void { this.t += ms; }
}

const sessionOf = (url: string): string => new URL(url).pathname.split('/').at(-1)!;

/** The contract on a store opened by `openAt(dir)`: each open() is another store on the same database. */
function runOnStore(label: string, openAt: (dataDir: string) => Promise<Store>, done: () => Promise<void> = async () => {}): void {
  runProcessorContract(label, {
    async fresh() {
      const dataDir = await mkdtemp(join(tmpdir(), 'kerf-payments-'));
      const clock = new ManualClock();
      const stores: Store[] = [];
      const open = async (): Promise<EmbeddedPaymentProcessor> => {
        const store = await openAt(dataDir);
        stores.push(store);
        return new EmbeddedPaymentProcessor({ store, now: clock.now, settleIntervalMs: 0 });
      };
      const counter = await openAt(dataDir);
      stores.push(counter);
      return {
        open,
        async saveCard(p, url, token) { await (p as EmbeddedPaymentProcessor).completeSetup(sessionOf(url), token); },
        async settle(p) {
          clock.advance(60_000);
          await (p as EmbeddedPaymentProcessor).settleDue();
        },
        async chargeCount() {
          let n = 0;
          let cursor: string | null = null;
          do {
            const page = await counter.documents('payment_intents', { idPrefix: 'pi' }).list('payment_processor', { limit: 1000, cursor });
            n += page.items.length;
            cursor = page.nextCursor;
          } while (cursor);
          return n;
        },
        async cleanup() {
          for (const s of stores) await s.close();
          await rm(dataDir, { recursive: true, force: true });
          await done();
        },
      };
    },
  });
}

runOnStore('embedded, on the embedded SQLite store', (dataDir) => openStore({ dataDir }));

// The same processor on the MongoDB store: through the real driver against the store's wire
// stand-in (no server needed).
let wire: Awaited<ReturnType<typeof startMongoWireFake>> | null = null;
const dbNames = new Map<string, string>();
const dbFor = (dataDir: string): string => {
  if (!dbNames.has(dataDir)) dbNames.set(dataDir, `kerf_pay_${randomBytes(6).toString('hex')}`);
  return dbNames.get(dataDir)!;
};
runOnStore('embedded, on the MongoDB store (driver against the wire stand-in)', async (dataDir) => {
  wire ??= await startMongoWireFake({ replicaSet: 'rs0' });
  return openStore({ mongodbUrl: wire.url, mongodbDbName: dbFor(dataDir), serverSelectionTimeoutMS: 2000 });
}, async () => { await wire?.close(); wire = null; });

describe('embedded processor', () => {
  let dataDir: string;
  let store: Store;
  const clock = new ManualClock();
  let p: EmbeddedPaymentProcessor;
  const make = (s: Store) => new EmbeddedPaymentProcessor({ store: s, now: clock.now, settleAfterMs: 5000, settleIntervalMs: 0, setupPageUrl: (id) => `https://kerf.example/setup/${id}` });

  before(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'kerf-payments-'));
    store = await openStore({ dataDir });
    p = make(store);
  });
  after(async () => {
    await p.close();
    await store.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('a processing payment settles on the clock: not before settleAfterMs, then by settleDue or a retrieve', async () => {
    await p.attachPaymentMethod('acct_clock', 'pm_card_processingThenSucceeds');
    const heard: Payment[] = [];
    const off = p.onPaymentUpdated((x) => { heard.push(x); });
    const a = await p.charge({ account: { id: 'acct_clock' }, amount_cents: 100, idempotency_key: 'clock-a' });
    const b = await p.charge({ account: { id: 'acct_clock' }, amount_cents: 100, idempotency_key: 'clock-b' });
    clock.advance(4999);
    assert.equal(await p.settleDue(), 0);
    assert.equal((await p.retrievePayment(a.id))?.status, 'processing');
    clock.advance(1);
    assert.equal((await p.retrievePayment(a.id))?.status, 'succeeded', 'a retrieve settles a due payment');
    assert.equal(await p.settleDue(), 1, 'the other one');
    assert.equal((await p.retrievePayment(b.id))?.status, 'succeeded');
    assert.equal(await p.settleDue(), 0, 'nothing twice');
    assert.deepEqual(heard.map((x) => x.id).sort(), [a.id, b.id].sort(), 'each outcome heard once');
    off();
  });

  it('settle() is the trigger that settles a payment now, whatever the clock', async () => {
    await p.attachPaymentMethod('acct_trigger', 'pm_card_processingThenFails');
    const pay = await p.charge({ account: { id: 'acct_trigger' }, amount_cents: 100, idempotency_key: 'trigger' });
    const done = await p.settle(pay.id);
    assert.equal(done.status, 'failed');
    assert.equal(done.decline_reason, 'insufficient_funds');
  });

  it('a refund goes by the current state: a processing payment whose time has come is settled, then refunded', async () => {
    await p.attachPaymentMethod('acct_refund_due', 'pm_card_processingThenSucceeds');
    const pay = await p.charge({ account: { id: 'acct_refund_due' }, amount_cents: 700, idempotency_key: 'refund-due' });
    await assert.rejects(p.refund({ payment_id: pay.id, idempotency_key: 'early' }), (e: unknown) => e instanceof UseCaseError && e.code === 'payment_not_refundable');
    clock.advance(5000);
    const refund = await p.refund({ payment_id: pay.id, idempotency_key: 'due' });
    assert.equal(refund.amount_cents, 700);
    assert.equal((await p.retrievePayment(pay.id))?.amount_refunded_cents, 700);
  });

  it('everything survives a restart: cards, payments, refunds, pending settlements', async () => {
    await p.attachPaymentMethod('acct_durable', 'pm_card_visa');
    const paid = await p.charge({ account: { id: 'acct_durable' }, amount_cents: 800, idempotency_key: 'durable-1' });
    await p.refund({ payment_id: paid.id, amount_cents: 300, idempotency_key: 'r1' });
    await p.attachPaymentMethod('acct_durable2', 'pm_card_processingThenSucceeds');
    const pending = await p.charge({ account: { id: 'acct_durable2' }, amount_cents: 800, idempotency_key: 'durable-2' });
    await store.close();
    store = await openStore({ dataDir });
    await p.close();
    p = make(store);
    assert.equal((await p.savedCard('acct_durable')).card?.last4, '4242');
    assert.equal((await p.retrievePayment(paid.id))?.amount_refunded_cents, 300);
    assert.equal((await p.retrievePayment(pending.id))?.status, 'processing');
    clock.advance(5000);
    assert.ok(await p.settleDue() >= 1);
    assert.equal((await p.retrievePayment(pending.id))?.status, 'succeeded');
  });

  it('the setup URL is the configured page; completing its session twice saves one card', async () => {
    const url = await p.paymentMethodSetupUrl({ id: 'acct_setup', email: 'a@example.com' }, { return_url: 'https://kerf.example/account' });
    assert.match(url, /^https:\/\/kerf\.example\/setup\/seti_[A-Za-z0-9_-]{20,}$/);
    const first = await p.completeSetup(sessionOf(url), 'pm_card_mastercard');
    assert.equal(first.account_id, 'acct_setup');
    assert.equal(first.return_url, 'https://kerf.example/account');
    const again = await p.completeSetup(sessionOf(url), 'pm_card_visa');
    assert.equal(again.card.last4, '4444', 'a completed session stays as it was');
    assert.equal((await p.savedCard('acct_setup')).card?.brand, 'mastercard');
    await assert.rejects(p.completeSetup('seti_unknown', 'pm_card_visa'), (e: unknown) => e instanceof UseCaseError && e.code === 'resource_missing');
  });

  it('a completed setup session answers the card it saved, also after the saved cards are removed', async () => {
    const url = await p.paymentMethodSetupUrl({ id: 'acct_setup_gone' });
    await p.completeSetup(sessionOf(url), 'pm_card_mastercard');
    await p.detachPaymentMethods('acct_setup_gone');
    const again = await p.completeSetup(sessionOf(url), 'pm_card_visa');
    assert.deepEqual(again.card, { brand: 'mastercard', last4: '4444', exp_month: 12, exp_year: 2034 });
    assert.deepEqual(await p.savedCard('acct_setup_gone'), { has_saved_card: false, card: null }, 'the replay saves nothing');
  });

  it('unknown test cards are refused by name; removing the saved cards leaves none', async () => {
    await assert.rejects(p.attachPaymentMethod('acct_bad', 'pm_card_unknown'), (e: unknown) => e instanceof UseCaseError && e.code === 'parameter_invalid' && e.param === 'payment_method');
    await assert.rejects(p.charge({ account: { id: 'acct_bad' }, amount_cents: 100, idempotency_key: 'bad-pm', payment_method: 'pm_nope' }),
      (e: unknown) => e instanceof UseCaseError && e.code === 'parameter_invalid' && e.param === 'payment.id');
    await p.attachPaymentMethod('acct_detach', 'pm_card_visa');
    await p.detachPaymentMethods('acct_detach');
    assert.deepEqual(await p.savedCard('acct_detach'), { has_saved_card: false, card: null });
  });

  it('a bad amount is refused before anything is recorded', async () => {
    await p.attachPaymentMethod('acct_amount', 'pm_card_visa');
    for (const amount of [0, -5, 1.5]) {
      await assert.rejects(p.charge({ account: { id: 'acct_amount' }, amount_cents: amount, idempotency_key: `amount-${amount}` }),
        (e: unknown) => e instanceof UseCaseError && e.param === 'amount_cents');
    }
    assert.equal(await p.findPaymentByIdempotencyKey('acct_amount', 'amount-0'), null);
  });

  it('every test card behaves as its table says', async () => {
    for (const [token, t] of Object.entries(TEST_CARDS)) {
      const pay = await p.charge({ account: { id: 'acct_table' }, amount_cents: 100, idempotency_key: `table-${token}`, payment_method: token });
      const expected = t.behaviour.outcome === 'declined' ? 'failed' : t.behaviour.outcome;
      assert.equal(pay.status, expected, token);
      if (t.behaviour.outcome === 'declined') assert.equal(pay.decline_reason, t.behaviour.decline_reason, token);
    }
  });

  it('paymentProcessorFromEnv: embedded without STRIPE_SECRET_KEY, Stripe with it', async () => {
    const embedded = paymentProcessorFromEnv({ store, baseUrl: 'https://kerf.example/' }, {});
    assert.equal(embedded.kind, 'embedded');
    assert.match(await embedded.paymentMethodSetupUrl({ id: 'acct_env' }), /^https:\/\/kerf\.example\/payment-methods\/setup\/seti_/);
    const stripe = paymentProcessorFromEnv({ store, baseUrl: 'https://kerf.example' }, { STRIPE_SECRET_KEY: 'sk_test_x', STRIPE_WEBHOOK_SECRET: 'whsec_x' });
    assert.equal(stripe.kind, 'stripe');
    assert.equal(typeof stripe.handleWebhook, 'function');
    await embedded.close();
    await stripe.close();
  });
});
