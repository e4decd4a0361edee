// Charging exactly once, whatever happens (issue #10). The pieces any paid
// resource (a cart now, a dropship order later) builds on:
//
// 1. Before the processor is called, the owner records a ChargeIntent on its own record (one
//    optimistic write), and a reconcile job for it exists.
// 2. The charge carries a processor idempotency key derived from what is paid (resource id +
//    revision + attempt): however often it is sent (retries, concurrent requests, a reconciler after
//    a crash) the processor makes one payment for it.
// 3. What follows a succeeded payment (the order) is created under a unique key, so finishing twice
//    finds the first; the owner clears its intent last.
// 4. After a crash the reconciler asks the processor for the key's payment: found, it finishes from
//    the processor's record; not found (the process died before charging), it drops the intent and
//    the customer pays again under the same key.
// A new attempt (a new key) is only made after the processor said the previous one failed.
import type { ChargeIntent } from '@kerf/store';
import { type UseCaseContext, UseCaseError, type ChargeRequest, type Payment, type PaymentAccount, type PaymentProcessor } from '../core/index.ts';

// the intent as its owner's record keeps it (a cart's _intent, a dropship charge's): the store port's type
export type { ChargeIntent };

/** The processor key of one attempt to pay one revision of a resource. */
export function chargeKey(resourceId: string, revision: number, attempt: number): string {
  return `${resourceId}_r${revision}_a${attempt}`;
}

export function newIntent(ctx: UseCaseContext, key: string, amountCents: number, paymentMethod: string | null, clientKey: string | null): ChargeIntent {
  return { key, amount_cents: amountCents, currency: 'usd', payment_method: paymentMethod, client_key: clientKey, started_at: ctx.now().toISOString(), payment_intent_id: null };
}

export function processorOf(ctx: Pick<UseCaseContext, 'payments'>, message = 'This service has no payment processor configured.'): PaymentProcessor {
  if (!ctx.payments) throw new UseCaseError('unavailable', 'api_error', 'payment_processor_unavailable', message, { retryable: true, retryAfterSeconds: 60 });
  return ctx.payments;
}

/** Sends the recorded intent's charge (idempotent at the processor). */
export async function chargeIntent(ctx: UseCaseContext, account: PaymentAccount, intent: ChargeIntent, metadata: Record<string, string>, description: string): Promise<Payment> {
  crashPoint('before_charge');
  const request: ChargeRequest = {
    account, amount_cents: intent.amount_cents, currency: intent.currency, idempotency_key: intent.key,
    payment_method: intent.payment_method, description, metadata,
  };
  const payment = await processorOf(ctx).charge(request);
  crashPoint('after_charge');
  return payment;
}

/**
 * What the processor knows of an intent: its payment, or null when it was never charged. Never
 * charges. (An intent younger than `graceMs` may still be charged by the process that recorded it.)
 */
export async function lookupIntent(ctx: UseCaseContext, accountId: string, intent: ChargeIntent): Promise<Payment | null> {
  const processor = processorOf(ctx);
  if (intent.payment_intent_id) return processor.retrievePayment(intent.payment_intent_id);
  return processor.findPaymentByIdempotencyKey(accountId, intent.key);
}

/**
 * Test hook for the kill -9 matrix: with KERF_TEST_CRASH_AT set to this point's name the process
 * kills itself here, as a power cut would. Inert unless the variable is set.
 */
export function crashPoint(name: 'before_charge' | 'after_charge' | 'after_order'): void {
  if (process.env.KERF_TEST_CRASH_AT === name) process.kill(process.pid, 'SIGKILL');
}
