// Delivering events: one job per (event, endpoint) on the store's job queue, so that several
// service processes deliver each attempt once (claim with lease) and a restart resumes. Each attempt
// is a record in the endpoint's delivery log (`{id, event_id, event_type, status,
// attempt, response_status, error, created_at, next_attempt_at, delivered_at}`), written `pending`
// before it is made. A 2xx delivers; otherwise it is retried after 1 min, 5 min, 30 min, 2 h and
// 8 h: 6 attempts. Delays follow the service clock (the store's), so tests run them in milliseconds.
import { isStoreError, type DocumentCollection, type Job } from '@kerf/store';
import { type UseCaseContext, listAll, type Doc, RetryJobLater, type JobKindHandlers } from '../core/index.ts';
import { endpoints, signingSecrets } from './endpoint-records.ts';
import { getEventBody } from './event-bodies.ts';

export const WEBHOOK_DELIVERY_JOB = 'webhook_delivery';
const DELIVERIES_COLLECTION = 'webhook_deliveries';
/** Delay before attempt n+1 after attempt n failed. */
export const RETRY_DELAYS_MS: readonly number[] = [60_000, 5 * 60_000, 30 * 60_000, 2 * 3_600_000, 8 * 3_600_000];
export const MAX_DELIVERY_ATTEMPTS = RETRY_DELAYS_MS.length + 1;
export const DELIVERY_TIMEOUT_MS = 10_000;

export type DeliveryStatus = 'pending' | 'succeeded' | 'failed' | 'abandoned';

export interface DeliveryDoc extends Doc {
  object: 'webhook_delivery';
  event_id: string;
  event_type: string;
  status: DeliveryStatus;
  attempt: number;
  response_status: number | null;
  error: string | null;
  created_at: string;
  next_attempt_at: string | null;
  delivered_at: string | null;
  _endpoint_id: string;
  /** `<event id>:<endpoint id>` (a redelivery: `...:r<n>`): the job's resource id */
  _delivery: string;
}

interface DeliveryPayload { event_id: string; endpoint_id: string }

/** What scheduling a delivery needs: the store, a clock and ids (the operator CLI has no engine). */
export type DeliveryContext = Pick<UseCaseContext, 'store' | 'now' | 'newId'>;

export function deliveries(ctx: Pick<UseCaseContext, 'store'>): DocumentCollection<DeliveryDoc> {
  return ctx.store.documents<DeliveryDoc>(DELIVERIES_COLLECTION);
}

const deliveryKey = (eventId: string, endpointId: string): string => `${eventId}:${endpointId}`;
const attemptKey = (delivery: string, attempt: number): string => `${delivery}:${attempt}`;

/** The pending record of an attempt (or the one written before: a retried write finds it). */
async function attemptRecord(ctx: DeliveryContext, accountId: string, event: { id: string; type: string }, endpointId: string, attempt: number, at: Date, delivery = deliveryKey(event.id, endpointId)): Promise<DeliveryDoc> {
  const id = ctx.newId('whd');
  const doc: DeliveryDoc = {
    id, object: 'webhook_delivery', event_id: event.id, event_type: event.type, status: 'pending', attempt,
    response_status: null, error: null, created_at: ctx.now().toISOString(), next_attempt_at: at.toISOString(), delivered_at: null,
    _endpoint_id: endpointId, _delivery: delivery,
  };
  try {
    await deliveries(ctx).create(accountId, doc, { id, key: attemptKey(delivery, attempt) });
    return doc;
  } catch (err) {
    if (!isStoreError(err, 'duplicate')) throw err;
    return (await deliveries(ctx).getByKey(accountId, attemptKey(delivery, attempt)))!.data;
  }
}

/** The relay's step for one subscribed endpoint: idempotent per (event, endpoint). */
export async function scheduleDelivery(ctx: UseCaseContext, accountId: string, event: { id: string; type: string }, endpointId: string): Promise<void> {
  const first = await attemptRecord(ctx, accountId, event, endpointId, 1, ctx.now());
  if (first.status !== 'pending') return; // handed on and attempted already
  await ctx.store.jobs.enqueue<DeliveryPayload>({
    kind: WEBHOOK_DELIVERY_JOB, resourceId: deliveryKey(event.id, endpointId), accountId,
    payload: { event_id: event.id, endpoint_id: endpointId }, maxAttempts: MAX_DELIVERY_ATTEMPTS,
  });
}

/**
 * Sends a failed delivery's event to its endpoint again: a new delivery of its own (the same event
 * id, so receivers that de-duplicate on it still can; attempt 1 of MAX_DELIVERY_ATTEMPTS). `failed`
 * is the last attempt record of a delivery that ended failed. Its redelivery has a fixed key
 * (`<delivery>:r`), so a repeated or concurrent request answers the same record and sends once.
 */
export async function scheduleRedelivery(ctx: DeliveryContext, accountId: string, failed: DeliveryDoc): Promise<DeliveryDoc> {
  const delivery = `${failed._delivery}:r`;
  const made = await deliveries(ctx).getByKey(accountId, attemptKey(delivery, 1));
  if (made) return made.data;
  const first = await attemptRecord(ctx, accountId, { id: failed.event_id, type: failed.event_type }, failed._endpoint_id, 1, ctx.now(), delivery);
  await ctx.store.jobs.enqueue<DeliveryPayload>({
    kind: WEBHOOK_DELIVERY_JOB, resourceId: delivery, accountId,
    payload: { event_id: failed.event_id, endpoint_id: failed._endpoint_id }, maxAttempts: MAX_DELIVERY_ATTEMPTS,
  });
  return first;
}

/** Whether an attempt record is the end of a delivery that failed: failed with no next attempt. */
export function endedFailed(d: DeliveryDoc): boolean {
  return d.status === 'failed' && d.next_attempt_at === null;
}

async function setStatus(ctx: UseCaseContext, accountId: string, doc: DeliveryDoc, change: Partial<DeliveryDoc>): Promise<void> {
  await deliveries(ctx).update(accountId, doc.id, { ...doc, ...change });
}

async function pendingOf(ctx: UseCaseContext, accountId: string, filter: Record<string, string>): Promise<DeliveryDoc[]> {
  return listAll(deliveries(ctx), accountId, { filter: { ...filter, status: 'pending' } });
}

/** Every pending attempt record matching `filter` gets `change` and no next attempt. */
async function closePending(ctx: UseCaseContext, accountId: string, filter: Record<string, string>, change: Partial<DeliveryDoc>): Promise<void> {
  for (const d of await pendingOf(ctx, accountId, filter)) await setStatus(ctx, accountId, d, { ...change, next_attempt_at: null });
}

/** A deleted endpoint's deliveries not yet made are abandoned (their jobs find it gone and stop). */
export async function abandonPendingDeliveries(ctx: UseCaseContext, accountId: string, endpointId: string): Promise<void> {
  await closePending(ctx, accountId, { _endpoint_id: endpointId }, { status: 'abandoned' });
}

/** An endpoint that has failed every delivery for this long is disabled (about three days, as peers do). */
export const DISABLE_AFTER_FAILING_MS = 3 * 24 * 3_600_000;
/** Where an account's notices are kept (an endpoint disabled: what an email would tell the person). */
export const NOTICES_COLLECTION = 'notices';

export interface NoticeDoc extends Doc {
  object: 'notice';
  type: 'webhook_endpoint.disabled';
  endpoint_id: string;
  url: string;
  message: string;
  created_at: string;
}

/**
 * Called when a delivery ends failed: when every delivery to the endpoint since its last success
 * (or ever) has failed, the first of them at least DISABLE_AFTER_FAILING_MS ago, the endpoint is
 * disabled (it stops receiving, its pending deliveries are abandoned) and the account gets a notice.
 */
async function disableIfFailingForDays(ctx: UseCaseContext, accountId: string, endpointId: string, now: Date): Promise<void> {
  const log = await listAll(deliveries(ctx), accountId, { filter: { _endpoint_id: endpointId } });
  const lastSuccess = Math.max(0, ...log.filter((d) => d.status === 'succeeded').map((d) => Date.parse(d.delivered_at ?? d.created_at)));
  const failures = log.filter((d) => d.status === 'failed' && Date.parse(d.created_at) > lastSuccess);
  if (failures.length === 0) return;
  const firstFailure = Math.min(...failures.map((d) => Date.parse(d.created_at)));
  if (now.getTime() - firstFailure < DISABLE_AFTER_FAILING_MS) return;
  const rec = await endpoints(ctx).get(accountId, endpointId);
  if (!rec || !rec.data.active) return;
  const days = Math.floor((now.getTime() - firstFailure) / (24 * 3_600_000));
  const message = `Every delivery to ${rec.data.url} has failed for ${days} days, so the endpoint was disabled; fix the receiver, create the endpoint again, and redeliver what it missed.`;
  const notice: NoticeDoc = { id: ctx.newId('ntc'), object: 'notice', type: 'webhook_endpoint.disabled', endpoint_id: endpointId, url: rec.data.url, message, created_at: now.toISOString() };
  try {
    await endpoints(ctx).update(accountId, endpointId, { ...rec.data, active: false, _deleted_at: now.toISOString(), _disabled_reason: 'failing' }, { expectedVersion: rec.version });
  } catch (err) {
    if (isStoreError(err, 'conflict')) return; // changed meanwhile (deleted, or another delivery disabled it)
    throw err;
  }
  await ctx.store.documents<NoticeDoc>(NOTICES_COLLECTION).create(accountId, notice, { id: notice.id });
  await abandonPendingDeliveries(ctx, accountId, endpointId);
  ctx.log.warn({ endpoint_id: endpointId, days }, 'webhook endpoint disabled: every delivery failed for days');
}

export const webhookDeliveryJob: JobKindHandlers = {
  crashed: 'The webhook delivery',
  async run(ctx: UseCaseContext, job: Job): Promise<void> {
    const { accountId } = job;
    const { event_id: eventId, endpoint_id: endpointId } = job.payload as DeliveryPayload;
    const attempt = job.attempts;
    const delivery = job.resourceId;
    const endpoint = (await endpoints(ctx).get(accountId, endpointId))?.data;
    if (!endpoint || !endpoint.active) {
      await closePending(ctx, accountId, { _delivery: delivery }, { status: 'abandoned' });
      return;
    }
    const event = await getEventBody(ctx, accountId, eventId);
    if (!event) return;
    const existing = await deliveries(ctx).getByKey(accountId, attemptKey(delivery, attempt));
    if (existing && existing.data.status !== 'pending') return; // a late duplicate job: this attempt was made
    const record = existing?.data ?? await attemptRecord(ctx, accountId, event, endpointId, attempt, ctx.now(), delivery);
    // an attempt whose process died before it reported
    for (const d of await pendingOf(ctx, accountId, { _delivery: delivery })) {
      if (d.attempt < attempt) await setStatus(ctx, accountId, d, { status: 'failed', error: 'interrupted: the service stopped during this attempt', next_attempt_at: null });
    }
    const now = ctx.now();
    const outcome = ctx.webhooks
      ? await ctx.webhooks.send({
        url: endpoint.url, eventType: event.type, body: JSON.stringify(event), secrets: signingSecrets(endpoint, now),
        timestamp: Math.floor(now.getTime() / 1000), timeoutMs: DELIVERY_TIMEOUT_MS,
      })
      : { delivered: false, responseStatus: null, error: 'webhook delivery is not configured on this service' };
    const done = ctx.now();
    if (outcome.delivered) {
      await setStatus(ctx, accountId, record, { status: 'succeeded', response_status: outcome.responseStatus, error: null, next_attempt_at: null, delivered_at: done.toISOString() });
      ctx.log.info({ event_id: eventId, endpoint_id: endpointId, attempt }, 'webhook delivered');
      return;
    }
    const delay = attempt < MAX_DELIVERY_ATTEMPTS ? RETRY_DELAYS_MS[attempt - 1] : undefined;
    const error = outcome.error ?? `the receiver answered ${outcome.responseStatus}`;
    if (delay === undefined) {
      await setStatus(ctx, accountId, record, { status: 'failed', response_status: outcome.responseStatus, error, next_attempt_at: null });
      ctx.log.warn({ event_id: eventId, endpoint_id: endpointId, attempt }, 'webhook delivery failed for good');
      await disableIfFailingForDays(ctx, accountId, endpointId, done);
      return;
    }
    const next = new Date(done.getTime() + delay);
    await setStatus(ctx, accountId, record, { status: 'failed', response_status: outcome.responseStatus, error, next_attempt_at: next.toISOString() });
    await attemptRecord(ctx, accountId, event, endpointId, attempt + 1, next, delivery);
    throw new RetryJobLater({ code: 'webhook_delivery_failed', message: error }, delay);
  },
  async failed(ctx, job, error) {
    await closePending(ctx, job.accountId, { _delivery: job.resourceId }, { status: 'failed', error: error.message });
  },
};
