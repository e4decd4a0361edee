// POST /v1/dropship/orders (docs/commerce.md "Dropship"): one order per (account, external_ref),
// whatever repeats, races or crashes. Contract items allocate prepaid units; on-demand items are
// charged off-session for parts on the charge-once core (../charge-once.ts): a charge record keyed
// by external_ref holds the intent before the processor is called, the processor key is derived
// from it, the order is created under the external_ref key, and a reconcile job finishes (or drops)
// what a crashed process left.
import { isStoreError, type DocumentCollection, type Job } from '@kerf/store';
import {
  type Caller, type UseCaseContext, type Doc, UseCaseError, invalid, RetryJobLater, type JobKindHandlers, noPaymentMethod,
  paymentError, type Payment, DropshipOrderCreate, type DropshipShipTo, validateInput, newEvent,
} from '../core/index.ts';
import {
  chargeIntent, chargeKey, crashPoint, lookupIntent, newIntent, processorOf, type ChargeIntent, DEFAULT_RECONCILE_AFTER_MS,
} from '../commerce/index.ts';
import { usAddressProblem } from '../fulfillment/index.ts';
import { requireDropship } from './access.ts';
import { contactPhone } from './contacts.ts';
import { allocateContract, items } from './items.ts';
import { dropshipOrders, dropshipOrderView, eventOrder, type DropshipOrderDoc } from './orders.ts';

export const DROPSHIP_RECONCILE_JOB = 'dropship_charge_reconcile';
const PROCESSING_RECHECK_MS = 5_000;
const MAX_RECHECK_MS = 3_600_000;
const RECONCILE_ATTEMPTS = 100;

/** What the order will be, fixed when its charge is recorded (the reconciler builds the order from it). */
interface OrderRequest {
  sku: string; item_id: string; quantity: number; unit_price_cents: number;
  retail_unit_price_cents: number | null; ship_to: DropshipShipTo;
}

/** The parts charge of one external_ref: open (nothing under way), charging, failed (the last attempt), ordered. */
interface ChargeRecord extends Doc {
  object: 'dropship_charge';
  external_ref: string;
  status: 'open' | 'charging' | 'failed' | 'ordered';
  attempt: number;
  intent: ChargeIntent | null;
  request: OrderRequest;
  order_id: string | null;
  last_payment_intent_id: string | null;
}

const chargeRecords = (ctx: UseCaseContext): DocumentCollection<ChargeRecord> => ctx.store.documents<ChargeRecord>('dropship_charges');
const reconcileAfter = (ctx: UseCaseContext): number => ctx.paymentReconcileAfterMs ?? DEFAULT_RECONCILE_AFTER_MS;

export interface CreateResult { order: DropshipOrderDoc; created: boolean }

export async function createDropshipOrder(ctx: UseCaseContext, caller: Caller, input: DropshipOrderCreate): Promise<CreateResult> {
  const account = await requireDropship(ctx, caller);
  const req = validateInput(DropshipOrderCreate, input);
  const accountId = account.id;
  // rule 1: a repeat answers the order it made, whatever changed since
  const existing = await dropshipOrders(ctx).getByKey(accountId, req.external_ref);
  if (existing) return { order: dropshipOrderView(existing.data), created: false };
  if (req.ship_to.country.toUpperCase() !== 'US') throw invalid('unsupported_country', `Dropship orders ship within the US only; ship_to.country is '${req.ship_to.country}'.`, 'ship_to.country');
  const problem = usAddressProblem(req.ship_to.state, req.ship_to.postal_code);
  if (problem) throw invalid('parameter_invalid', problem.message, problem.param);
  const itemRec = await items(ctx).getByKey(accountId, req.sku);
  if (!itemRec) throw new UseCaseError('not_found', 'not_found_error', 'unknown_sku', `No dropship item with SKU '${req.sku}' on this account.`, { param: 'sku' });
  const item = itemRec.data;
  if (item.status !== 'approved' || item.unit_price_cents === null) {
    throw new UseCaseError('forbidden', 'permission_error', 'item_not_approved', `Item '${req.sku}' is ${item.status}, not approved; it cannot be ordered yet.`, { param: 'sku' });
  }
  const shipTo: DropshipShipTo = { ...req.ship_to, country: 'US', phone: req.ship_to.phone ?? (await contactPhone(ctx, accountId)) };
  const request: OrderRequest = {
    sku: item.sku, item_id: item.id, quantity: req.quantity, unit_price_cents: item.unit_price_cents,
    retail_unit_price_cents: req.retail_unit_price_cents ?? null, ship_to: shipTo,
  };
  if (item.committed_quantity !== null) {
    await allocateContract(ctx, accountId, item.id, req.external_ref, req.quantity);
    return ensureOrder(ctx, accountId, req.external_ref, request, null);
  }
  return chargeAndOrder(ctx, { id: accountId, email: account.email, name: account.name }, req.external_ref, request);
}

async function chargeAndOrder(ctx: UseCaseContext, account: { id: string; email: string; name: string }, externalRef: string, request: OrderRequest): Promise<CreateResult> {
  const processor = processorOf(ctx);
  const amount = request.unit_price_cents * request.quantity;
  let recordId: string;
  let intent: ChargeIntent;
  for (;;) {
    const rec = await chargeRecords(ctx).getByKey(account.id, externalRef);
    if (rec?.data.status === 'ordered') {
      const order = await dropshipOrders(ctx).getByKey(account.id, externalRef);
      if (order) return { order: dropshipOrderView(order.data), created: false };
    }
    if (rec?.data.status === 'charging' && rec.data.intent) {
      // the same order again (a retry, a concurrent repeat, a restart): resume the recorded charge
      recordId = rec.id;
      intent = rec.data.intent;
      break;
    }
    if (!(await processor.savedCard(account.id)).has_saved_card) throw noPaymentMethod();
    recordId = rec?.id ?? ctx.newId('dsc');
    const attempt = rec ? rec.data.attempt + (rec.data.status === 'failed' ? 1 : 0) : 0;
    intent = newIntent(ctx, chargeKey(recordId, 1, attempt), amount, null, null);
    // the reconciler exists before the intent does: a crash right after recording it is found
    await ctx.store.jobs.enqueue({ kind: DROPSHIP_RECONCILE_JOB, resourceId: recordId, accountId: account.id, delayMs: reconcileAfter(ctx), maxAttempts: RECONCILE_ATTEMPTS });
    const next: ChargeRecord = {
      id: recordId, object: 'dropship_charge', external_ref: externalRef, status: 'charging', attempt, intent,
      request: rec?.data.request ?? request, order_id: null, last_payment_intent_id: rec?.data.last_payment_intent_id ?? null,
    };
    try {
      if (rec) await chargeRecords(ctx).update(account.id, recordId, next, { expectedVersion: rec.version });
      else await chargeRecords(ctx).create(account.id, next, { id: recordId, key: externalRef });
      break;
    } catch (err) {
      if (!isStoreError(err, 'conflict') && !isStoreError(err, 'duplicate')) throw err; // a concurrent repeat: look again
    }
  }
  let payment: Payment;
  try {
    payment = await chargeIntent(ctx, account, intent, { dropship_charge_id: recordId, external_ref: externalRef, account_id: account.id }, `Kerf dropship ${externalRef}`);
  } catch (err) {
    // refused before any payment existed (no card any more): nothing under way
    if (err instanceof UseCaseError && err.kind !== 'unavailable' && err.kind !== 'internal') await settleCharge(ctx, account.id, recordId, null, intent.key);
    throw err;
  }
  const result = await settleCharge(ctx, account.id, recordId, payment, intent.key);
  if (result) return result;
  const failure = paymentError(payment);
  if (failure) throw failure;
  throw new UseCaseError('conflict', 'payment_error', 'dropship_payment_processing',
    `The card payment for '${externalRef}' is still processing; repeat the request with the same external_ref to get the order once it succeeds.`, { retryable: true, retryAfterSeconds: 5 });
}

/** The order of an external_ref, created once (its key); created says whether this call made it. */
async function ensureOrder(ctx: UseCaseContext, accountId: string, externalRef: string, request: OrderRequest, payment: Payment | null): Promise<CreateResult> {
  const found = await dropshipOrders(ctx).getByKey(accountId, externalRef);
  if (found) return { order: dropshipOrderView(found.data), created: false };
  const id = ctx.newId('ord');
  const now = ctx.now().toISOString();
  const contract = payment === null;
  const doc: DropshipOrderDoc = {
    id, object: 'dropship_order', status: 'paid', external_ref: externalRef, sku: request.sku, item_id: request.item_id,
    quantity: request.quantity, unit_price_cents: request.unit_price_cents, parts_total_cents: request.unit_price_cents * request.quantity,
    retail_unit_price_cents: request.retail_unit_price_cents, contract, production_hold: contract,
    shipping: { status: 'charged_at_fulfillment', amount_cents: null }, ship_to: request.ship_to, tracking: null,
    charges: payment ? [{ kind: 'parts', amount_cents: payment.amount_cents, status: 'succeeded', processor_payment_intent_id: payment.id, created_at: payment.created_at }] : [],
    created_at: now, shipped_at: null, delivered_at: null, cancelled_at: null, _shipping_key: null,
  };
  try {
    await dropshipOrders(ctx).create(accountId, doc, { id, key: externalRef, events: [newEvent(ctx, 'order.created', { order: eventOrder(doc) })] });
    ctx.notifyJobs();
    return { order: dropshipOrderView(doc), created: true };
  } catch (err) {
    if (!isStoreError(err, 'duplicate')) throw err;
    return { order: dropshipOrderView((await dropshipOrders(ctx).getByKey(accountId, externalRef))!.data), created: false };
  }
}

/**
 * Brings a charge record in line with what the processor says of its intent (null: never charged):
 * succeeded -> the order (once); failed -> the record failed, the next request a new attempt;
 * processing -> recorded. Answers the order when there is one.
 */
async function settleCharge(ctx: UseCaseContext, accountId: string, recordId: string, payment: Payment | null, key: string): Promise<CreateResult | null> {
  // this call made the order even when a concurrent repeat's write makes it look again
  let made = false;
  for (;;) {
    const rec = await chargeRecords(ctx).get(accountId, recordId);
    if (!rec) return null;
    const record = rec.data;
    let result: CreateResult | null = null;
    let next: ChargeRecord;
    if (payment?.status === 'succeeded') {
      result = await ensureOrder(ctx, accountId, record.external_ref, record.request, payment);
      made ||= result.created;
      result = { ...result, created: made };
      crashPoint('after_order');
      if (record.status === 'ordered') return result;
      next = { ...record, status: 'ordered', intent: null, order_id: result.order.id, last_payment_intent_id: payment.id };
    } else if (record.intent?.key !== key) {
      return null; // an old attempt's news
    } else if (payment === null) {
      next = { ...record, status: 'open', intent: null };
    } else if (payment.status === 'processing') {
      if (record.intent.payment_intent_id === payment.id) return null;
      next = { ...record, intent: { ...record.intent, payment_intent_id: payment.id } };
    } else {
      next = { ...record, status: 'failed', intent: null, last_payment_intent_id: payment.id };
    }
    try {
      await chargeRecords(ctx).update(accountId, recordId, next, { expectedVersion: rec.version });
      return result;
    } catch (err) {
      if (!isStoreError(err, 'conflict')) throw err;
    }
  }
}

/** Finishes from the processor's record what a creating process did not (it died, or the payment was processing). */
export const dropshipReconcileJob: JobKindHandlers = {
  system: true,
  async run(ctx: UseCaseContext, job: Job): Promise<void> {
    const rec = await chargeRecords(ctx).get(job.accountId, job.resourceId);
    const intent = rec?.data.status === 'charging' ? rec.data.intent : null;
    if (!rec || !intent) return;
    const payment = await lookupIntent(ctx, job.accountId, intent);
    if (!payment) {
      const age = ctx.now().getTime() - Date.parse(intent.started_at);
      if (age < reconcileAfter(ctx)) throw new RetryJobLater({ code: 'payment_pending', message: 'the creating process may still charge' }, reconcileAfter(ctx) - age);
      ctx.log.info({ dropship_charge_id: rec.id, key: intent.key }, 'no charge was made for this dropship order; a repeat may order it again');
      await settleCharge(ctx, job.accountId, rec.id, null, intent.key);
      return;
    }
    await settleCharge(ctx, job.accountId, rec.id, payment, intent.key);
    if (payment.status === 'processing') {
      throw new RetryJobLater({ code: 'payment_processing', message: 'the payment is still processing' }, Math.min(PROCESSING_RECHECK_MS * job.attempts, MAX_RECHECK_MS));
    }
  },
  async failed(ctx, job, error) {
    ctx.log.error({ dropship_charge_id: job.resourceId, code: error.code }, 'the dropship reconciler gave up on this charge; it keeps its intent');
  },
};
