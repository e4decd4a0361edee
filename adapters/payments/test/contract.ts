// The payment processor contract: one suite every PaymentProcessor passes (embedded.test.ts,
// stripe.test.ts). It speaks only the port, plus a harness for what the outside world does: a
// customer saving a card on the setup page, a processing payment settling, counting charge attempts.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { UseCaseError, paymentError, type Payment, type PaymentProcessor } from '@kerf/usecases';

export interface ProcessorWorld {
  /** A processor on this world's durable state; a second call is a restarted process (a new instance, same state). */
  open(): Promise<PaymentProcessor>;
  /** The customer opens the account's payment_method_setup_url and saves this test card (`pm_card_*`). */
  saveCard(processor: PaymentProcessor, url: string, token: string): Promise<void>;
  /** The processor learns the outcome of a processing payment (time passes, a webhook arrives). */
  settle(processor: PaymentProcessor, paymentId: string): Promise<void>;
  /** Charge attempts the processor has made so far (what "never a second charge" is counted on). */
  chargeCount(): Promise<number>;
  cleanup(): Promise<void>;
}

export interface ProcessorHarness {
  fresh(): Promise<ProcessorWorld>;
}

let seq = 0;
const newAccount = () => { seq += 1; return { id: `acct_contract_${process.pid}_${Date.now()}_${seq}`, email: `buyer${seq}@example.com`, name: `Buyer ${seq}` }; };
const newKey = (what: string) => { seq += 1; return `crt_${what}_${Date.now()}_${seq}:rev1`; };

async function rejectsWithCode(p: Promise<unknown>, code: string, kind?: string): Promise<UseCaseError> {
  let caught: unknown = null;
  await assert.rejects(p, (err: unknown) => { caught = err; return true; });
  assert.ok(caught instanceof UseCaseError, `expected a UseCaseError ${code}, got ${String(caught)}`);
  assert.equal(caught.code, code, caught.message);
  if (kind) assert.equal(caught.kind, kind);
  return caught;
}

export function runProcessorContract(label: string, harness: ProcessorHarness): void {
  describe(`payment processor contract: ${label}`, () => {
    let world: ProcessorWorld;
    let p: PaymentProcessor;

    before(async () => {
      world = await harness.fresh();
      p = await world.open();
    });
    after(async () => {
      await p?.close();
      await world?.cleanup();
    });

    async function accountWithCard(token: string) {
      const account = newAccount();
      await world.saveCard(p, await p.paymentMethodSetupUrl(account), token);
      return account;
    }

    describe('saved cards', () => {
      it('an account without a customer has no card, and asking for the setup URL saves none', async () => {
        const account = newAccount();
        assert.deepEqual(await p.savedCard(account.id), { has_saved_card: false, card: null });
        const url = await p.paymentMethodSetupUrl(account);
        assert.match(new URL(url).protocol, /^https?:$/);
        assert.deepEqual(await p.savedCard(account.id), { has_saved_card: false, card: null });
        assert.notEqual(await p.paymentMethodSetupUrl(account), url, 'each setup URL is its own session');
      });

      it('a card saved through the setup URL is the saved card, with brand, last4 and expiry', async () => {
        const account = await accountWithCard('pm_card_visa');
        const state = await p.savedCard(account.id);
        assert.equal(state.has_saved_card, true);
        assert.deepEqual(state.card, { brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2034 });
        // another account sees nothing of it
        assert.deepEqual(await p.savedCard(newAccount().id), { has_saved_card: false, card: null });
      });

      it('the newest saved card is the one charged', async () => {
        const account = await accountWithCard('pm_card_chargeDeclined');
        await world.saveCard(p, await p.paymentMethodSetupUrl(account), 'pm_card_mastercard');
        assert.equal((await p.savedCard(account.id)).card?.last4, '4444');
        const pay = await p.charge({ account, amount_cents: 1200, idempotency_key: newKey('newest') });
        assert.equal(pay.status, 'succeeded');
      });
    });

    describe('removing the saved card', () => {
      it('detaching leaves no card: nothing is charged until a new one is saved, which is then charged', async () => {
        const account = await accountWithCard('pm_card_visa');
        await p.detachPaymentMethods(account.id);
        assert.deepEqual(await p.savedCard(account.id), { has_saved_card: false, card: null });
        await rejectsWithCode(p.charge({ account, amount_cents: 700, idempotency_key: newKey('removed') }), 'no_payment_method', 'conflict');
        await p.detachPaymentMethods(account.id); // nothing left: still fine
        await p.detachPaymentMethods(newAccount().id); // no customer at all: nothing to do
        await world.saveCard(p, await p.paymentMethodSetupUrl(account), 'pm_card_mastercard');
        assert.equal((await p.savedCard(account.id)).card?.last4, '4444');
        assert.equal((await p.charge({ account, amount_cents: 700, idempotency_key: newKey('replaced') })).status, 'succeeded');
      });
    });

    describe('charges', () => {
      it('no card on file: no_payment_method, and nothing is charged', async () => {
        const before = await world.chargeCount();
        await rejectsWithCode(p.charge({ account: newAccount(), amount_cents: 1000, idempotency_key: newKey('nocard') }), 'no_payment_method', 'conflict');
        assert.equal(await world.chargeCount(), before);
      });

      it('a good card: succeeded, with the amount, key and metadata, and readable by id', async () => {
        const account = await accountWithCard('pm_card_visa');
        const key = newKey('ok');
        const pay = await p.charge({ account, amount_cents: 12345, idempotency_key: key, metadata: { cart_id: 'crt_1' }, description: 'Cart crt_1' });
        assert.equal(pay.status, 'succeeded');
        assert.match(pay.id, /^pi_/);
        assert.equal(pay.amount_cents, 12345);
        assert.equal(pay.currency, 'usd');
        assert.equal(pay.account_id, account.id);
        assert.equal(pay.idempotency_key, key);
        assert.deepEqual(pay.metadata, { cart_id: 'crt_1' });
        assert.equal(pay.failure_code, null);
        assert.equal(pay.decline_reason, null);
        assert.equal(pay.amount_refunded_cents, 0);
        assert.ok(!Number.isNaN(Date.parse(pay.created_at)));
        assert.equal(paymentError(pay), null);
        assert.deepEqual(await p.retrievePayment(pay.id), pay);
      });

      it('a payment method given by id is charged without a saved card', async () => {
        const pay = await p.charge({ account: newAccount(), amount_cents: 500, idempotency_key: newKey('pm'), payment_method: 'pm_card_visa' });
        assert.equal(pay.status, 'succeeded');
      });

      it('a declined card: failed with the decline reason; the error is 402 card_declined naming it', async () => {
        const account = await accountWithCard('pm_card_chargeDeclinedInsufficientFunds');
        const pay = await p.charge({ account, amount_cents: 2000, idempotency_key: newKey('declined') });
        assert.equal(pay.status, 'failed');
        assert.equal(pay.failure_code, 'card_declined');
        assert.equal(pay.decline_reason, 'insufficient_funds');
        const err = paymentError(pay)!;
        assert.equal(err.code, 'card_declined');
        assert.equal(err.kind, 'payment_required');
        assert.equal(err.type, 'payment_error');
        assert.match(err.message, /insufficient funds/);
        assert.equal((await p.retrievePayment(pay.id))?.status, 'failed');

        const generic = await p.charge({ account: newAccount(), amount_cents: 2000, idempotency_key: newKey('generic'), payment_method: 'pm_card_chargeDeclined' });
        assert.equal(generic.decline_reason, 'generic_decline');
      });

      it('a card that needs authentication: requires_action; the error is payment_not_completed', async () => {
        const account = await accountWithCard('pm_card_authenticationRequired');
        const pay = await p.charge({ account, amount_cents: 2000, idempotency_key: newKey('auth') });
        assert.equal(pay.status, 'requires_action');
        assert.equal(pay.failure_code, 'authentication_required');
        const err = paymentError(pay)!;
        assert.equal(err.code, 'payment_not_completed');
        assert.equal(err.kind, 'payment_required');
      });

      it('processing, then succeeds: the listener hears it and a retrieve answers it', async () => {
        const account = await accountWithCard('pm_card_processingThenSucceeds');
        const heard: Payment[] = [];
        const off = p.onPaymentUpdated((x) => { heard.push(x); });
        try {
          const pay = await p.charge({ account, amount_cents: 3000, idempotency_key: newKey('proc_ok') });
          assert.equal(pay.status, 'processing');
          assert.equal(paymentError(pay), null);
          assert.equal((await p.retrievePayment(pay.id))?.status, 'processing');
          await world.settle(p, pay.id);
          assert.equal((await p.retrievePayment(pay.id))?.status, 'succeeded');
          const mine = heard.filter((x) => x.id === pay.id);
          assert.ok(mine.length >= 1, 'the listener heard the outcome');
          assert.equal(mine.at(-1)!.status, 'succeeded');
        } finally { off(); }
      });

      it('processing, then fails: failed with the decline reason, heard by the listener', async () => {
        const account = await accountWithCard('pm_card_processingThenFails');
        const heard: Payment[] = [];
        const off = p.onPaymentUpdated((x) => { heard.push(x); });
        try {
          const pay = await p.charge({ account, amount_cents: 3000, idempotency_key: newKey('proc_fail') });
          assert.equal(pay.status, 'processing');
          await world.settle(p, pay.id);
          const now = (await p.retrievePayment(pay.id))!;
          assert.equal(now.status, 'failed');
          assert.equal(now.failure_code, 'card_declined');
          assert.equal(now.decline_reason, 'insufficient_funds');
          assert.equal(paymentError(now)?.code, 'card_declined');
          assert.equal(heard.filter((x) => x.id === pay.id).at(-1)?.status, 'failed');
        } finally { off(); }
      });

      it('an unsubscribed listener hears nothing more', async () => {
        const account = await accountWithCard('pm_card_processingThenSucceeds');
        const heard: Payment[] = [];
        const off = p.onPaymentUpdated((x) => { heard.push(x); });
        off();
        const pay = await p.charge({ account, amount_cents: 3000, idempotency_key: newKey('unsub') });
        await world.settle(p, pay.id);
        assert.equal(heard.filter((x) => x.id === pay.id).length, 0);
      });

      it('an unknown payment id is null', async () => {
        assert.equal(await p.retrievePayment('pi_does_not_exist'), null);
      });
    });

    describe('exactly once', () => {
      it('the same key twice is the same payment and one charge', async () => {
        const account = await accountWithCard('pm_card_visa');
        const key = newKey('twice');
        const before = await world.chargeCount();
        const a = await p.charge({ account, amount_cents: 4200, idempotency_key: key });
        const b = await p.charge({ account, amount_cents: 4200, idempotency_key: key });
        assert.equal(b.id, a.id);
        assert.equal(b.status, 'succeeded');
        assert.equal(await world.chargeCount(), before + 1);
      });

      it('a declined charge retried with its key is the same declined payment, not a second attempt', async () => {
        const account = await accountWithCard('pm_card_chargeDeclined');
        const key = newKey('declined_twice');
        const before = await world.chargeCount();
        const a = await p.charge({ account, amount_cents: 4200, idempotency_key: key });
        const b = await p.charge({ account, amount_cents: 4200, idempotency_key: key });
        assert.equal(a.status, 'failed');
        assert.equal(b.id, a.id);
        assert.equal(b.decline_reason, a.decline_reason);
        assert.equal(await world.chargeCount(), before + 1);
      });

      it('the same key for a different amount is refused: idempotency_key_reused', async () => {
        const account = await accountWithCard('pm_card_visa');
        const key = newKey('reused');
        await p.charge({ account, amount_cents: 1000, idempotency_key: key });
        await rejectsWithCode(p.charge({ account, amount_cents: 1001, idempotency_key: key }), 'idempotency_key_reused', 'conflict');
      });

      it('concurrent charges with one key: one payment, one charge', async () => {
        const account = await accountWithCard('pm_card_visa');
        const key = newKey('concurrent');
        const before = await world.chargeCount();
        const second = await world.open(); // another process on the same state
        try {
          const all = await Promise.all(Array.from({ length: 6 }, (_, i) => (i % 2 ? second : p).charge({ account, amount_cents: 777, idempotency_key: key })));
          assert.equal(new Set(all.map((x) => x.id)).size, 1, 'one payment id');
          assert.ok(all.every((x) => x.status === 'succeeded'));
          assert.equal(await world.chargeCount(), before + 1);
        } finally { await second.close(); }
      });

      it('after a crash, a new processor on the same state finds the charge by its key, and a retry does not charge again', async () => {
        const account = await accountWithCard('pm_card_visa');
        const key = newKey('crash');
        const charged = await p.charge({ account, amount_cents: 9900, idempotency_key: key, metadata: { cart_id: 'crt_crash' } });
        const before = await world.chargeCount();
        const restarted = await world.open();
        try {
          const found = await restarted.findPaymentByIdempotencyKey(account.id, key);
          assert.equal(found?.id, charged.id);
          assert.equal(found?.status, 'succeeded');
          assert.equal(found?.amount_cents, 9900);
          assert.equal(found?.metadata.cart_id, 'crt_crash');
          assert.equal(await restarted.findPaymentByIdempotencyKey(account.id, newKey('never')), null, 'a key never charged is null');
          assert.equal(await restarted.findPaymentByIdempotencyKey(newAccount().id, key), null, "another account's key is not found");
          const again = await restarted.charge({ account, amount_cents: 9900, idempotency_key: key });
          assert.equal(again.id, charged.id);
          assert.equal(await world.chargeCount(), before);
          assert.deepEqual(await restarted.savedCard(account.id), await p.savedCard(account.id));
        } finally { await restarted.close(); }
      });
    });

    describe('refunds', () => {
      it('refunds a succeeded payment in part and then the rest; more is refused', async () => {
        const account = await accountWithCard('pm_card_visa');
        const pay = await p.charge({ account, amount_cents: 5000, idempotency_key: newKey('refund') });
        const part = await p.refund({ payment_id: pay.id, amount_cents: 1500, idempotency_key: 'refund-1' });
        assert.match(part.id, /^re_/);
        assert.equal(part.payment_id, pay.id);
        assert.equal(part.amount_cents, 1500);
        assert.equal(part.status, 'succeeded');
        assert.equal((await p.retrievePayment(pay.id))?.amount_refunded_cents, 1500);
        const replay = await p.refund({ payment_id: pay.id, amount_cents: 1500, idempotency_key: 'refund-1' });
        assert.equal(replay.id, part.id, 'the same refund key is the same refund');
        assert.equal((await p.retrievePayment(pay.id))?.amount_refunded_cents, 1500);
        const rest = await p.refund({ payment_id: pay.id, idempotency_key: 'refund-2' });
        assert.equal(rest.amount_cents, 3500);
        assert.equal((await p.retrievePayment(pay.id))?.amount_refunded_cents, 5000);
        await rejectsWithCode(p.refund({ payment_id: pay.id, amount_cents: 1, idempotency_key: 'refund-3' }), 'payment_not_refundable', 'conflict');
      });

      it('a payment that did not succeed cannot be refunded; an unknown one is not found', async () => {
        const pay = await p.charge({ account: newAccount(), amount_cents: 5000, idempotency_key: newKey('refund_declined'), payment_method: 'pm_card_chargeDeclined' });
        await rejectsWithCode(p.refund({ payment_id: pay.id, idempotency_key: 'r' }), 'payment_not_refundable', 'conflict');
        await rejectsWithCode(p.refund({ payment_id: 'pi_does_not_exist', idempotency_key: 'r' }), 'resource_missing', 'not_found');
      });
    });
  });
}
