// Webhook endpoints (docs/api.md "Webhooks"): create (the secret shown once), list the
// active ones, get, delete (deactivate; pending deliveries abandoned), roll the secret (the old one
// keeps signing beside the new for 24 h), the log of delivery attempts, and sending a failed delivery again.
import { isStoreError, type DocumentRecord } from '@kerf/store';
import {
  requireScope, type Caller, type UseCaseContext, publicView, UseCaseError, invalid, notFound, paged,
  type ListEnvelope, EVENT_TYPES, ListWebhookEndpointsInput, WebhookDeliveriesInput, WebhookDeliveryInput, WebhookEndpointCreate, WebhookEndpointInput,
  validateInput, listAll,
} from '../core/index.ts';
import { abandonPendingDeliveries, deliveries, endedFailed, scheduleRedelivery, type DeliveryContext, type DeliveryDoc } from './delivery.ts';
import { createEndpointWithinCap, endpoints, newSecret, type EndpointDoc, type EndpointObject } from './endpoint-records.ts';

/** How long a rolled secret keeps signing beside its successor. */
const SECRET_OVERLAP_MS = 24 * 60 * 60 * 1000;

export type EndpointView = Omit<EndpointDoc<'webhook_endpoint'>, `_${string}`>;
export type EndpointWithSecret = EndpointView & { secret: string };

export function checkUrl(ctx: UseCaseContext, raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw invalid('invalid_webhook_url', `'${raw.slice(0, 200)}' is not an absolute URL.`, 'url');
  }
  const refused = ctx.webhooks ? ctx.webhooks.refuseUrl(url.href) : url.protocol === 'https:' ? null : 'webhook URLs must use https';
  if (refused) throw invalid('invalid_webhook_url', `The webhook URL cannot be used: ${refused}.`, 'url');
  return url.href;
}

export async function createWebhookEndpoint(ctx: UseCaseContext, caller: Caller, input: WebhookEndpointCreate): Promise<EndpointWithSecret> {
  requireScope(caller, 'webhooks');
  const req = validateInput(WebhookEndpointCreate, input);
  const url = checkUrl(ctx, req.url);
  const id = ctx.newId('whe');
  const secret = newSecret();
  const doc: EndpointDoc<'webhook_endpoint'> = {
    id, object: 'webhook_endpoint', url,
    events: req.events ? EVENT_TYPES.filter((t) => req.events!.includes(t)) : [...EVENT_TYPES],
    description: req.description ?? null, active: true, created_at: ctx.now().toISOString(),
    _secret: secret, _previous_secret: null, _previous_secret_until: null, _deleted_at: null,
  };
  await createEndpointWithinCap(ctx, caller.accountId, doc);
  return { ...publicView(doc), secret };
}

/** The account's active endpoint of that API (`object`), or not_found. */
async function activeEndpoint<O extends EndpointObject>(ctx: UseCaseContext, accountId: string, id: string, object: O): Promise<DocumentRecord<EndpointDoc<O>>> {
  const rec = await endpoints(ctx).get(accountId, id);
  if (!rec || !rec.data.active || rec.data.object !== object) throw notFound('webhook endpoint', id, 'endpoint_id');
  return rec as DocumentRecord<EndpointDoc<O>>;
}

export async function getWebhookEndpoint(ctx: UseCaseContext, caller: Caller, input: WebhookEndpointInput): Promise<EndpointView> {
  requireScope(caller, 'webhooks');
  const { endpoint_id } = validateInput(WebhookEndpointInput, input, { location: 'params' });
  return publicView((await activeEndpoint(ctx, caller.accountId, endpoint_id, 'webhook_endpoint')).data);
}

export async function listWebhookEndpoints(ctx: UseCaseContext, caller: Caller, input: ListWebhookEndpointsInput): Promise<ListEnvelope<EndpointView>> {
  requireScope(caller, 'webhooks');
  const q = validateInput(ListWebhookEndpointsInput, input ?? {}, { location: 'querystring' });
  const page = await paged(() => endpoints(ctx).list(caller.accountId, { limit: q.limit, cursor: q.cursor ?? null, filter: { active: true, object: 'webhook_endpoint' } }));
  // the store's filter keeps the API's own; the guard tells the type
  const data = page.items.map((r) => r.data).filter((d): d is EndpointDoc<'webhook_endpoint'> => d.object === 'webhook_endpoint');
  return { object: 'list', data: data.map((d) => publicView(d)), has_more: page.hasMore, next_cursor: page.nextCursor };
}

/** DELETE: the endpoint stops receiving; deliveries not yet made are abandoned. */
export async function deleteWebhookEndpoint(ctx: UseCaseContext, caller: Caller, input: WebhookEndpointInput): Promise<void> {
  requireScope(caller, 'webhooks');
  const { endpoint_id } = validateInput(WebhookEndpointInput, input, { location: 'params' });
  await deactivateEndpoint(ctx, caller.accountId, endpoint_id, 'webhook_endpoint');
}

/** Deactivates the account's active endpoint of that API and abandons its deliveries not yet made. */
export async function deactivateEndpoint(ctx: UseCaseContext, accountId: string, id: string, object: EndpointObject): Promise<void> {
  const rec = await activeEndpoint(ctx, accountId, id, object);
  await endpoints(ctx).update(accountId, id, { ...rec.data, active: false, _deleted_at: ctx.now().toISOString() });
  await abandonPendingDeliveries(ctx, accountId, id);
}

/** A new secret, returned once; the previous one keeps signing beside it for 24 h. */
export async function rollWebhookSecret(ctx: UseCaseContext, caller: Caller, input: WebhookEndpointInput): Promise<EndpointWithSecret> {
  requireScope(caller, 'webhooks');
  const { endpoint_id } = validateInput(WebhookEndpointInput, input, { location: 'params' });
  const rec = await activeEndpoint(ctx, caller.accountId, endpoint_id, 'webhook_endpoint');
  const secret = newSecret();
  const doc: EndpointDoc<'webhook_endpoint'> = {
    ...rec.data, _secret: secret, _previous_secret: rec.data._secret,
    _previous_secret_until: new Date(ctx.now().getTime() + SECRET_OVERLAP_MS).toISOString(),
  };
  try {
    await endpoints(ctx).update(caller.accountId, endpoint_id, doc, { expectedVersion: rec.version });
  } catch (err) {
    if (isStoreError(err, 'conflict')) throw new UseCaseError('conflict', 'invalid_request_error', 'webhook_endpoint_changed', 'The endpoint was changed meanwhile (another roll or a delete); read it and try again.', { retryable: true });
    throw err;
  }
  return { ...publicView(doc), secret };
}

export async function listWebhookDeliveries(ctx: UseCaseContext, caller: Caller, input: WebhookDeliveriesInput): Promise<ListEnvelope<DeliveryDoc>> {
  requireScope(caller, 'webhooks');
  const q = validateInput(WebhookDeliveriesInput, input, { location: 'querystring' });
  await activeEndpoint(ctx, caller.accountId, q.endpoint_id, 'webhook_endpoint');
  const page = await paged(() => deliveries(ctx).list(caller.accountId, { limit: q.limit, cursor: q.cursor ?? null, filter: { _endpoint_id: q.endpoint_id } }));
  return { object: 'list', data: page.items.map((r) => publicView(r.data)), has_more: page.hasMore, next_cursor: page.nextCursor };
}

/**
 * POST .../deliveries/{delivery_id}/redeliver: the event of a delivery that ended failed is sent
 * again, as a new delivery (202, its first attempt record, pending). The attempt named must be the
 * last of its delivery and failed with no next attempt; a repeated request answers the same record.
 */
export async function redeliverWebhookDelivery(ctx: UseCaseContext, caller: Caller, input: WebhookDeliveryInput): Promise<DeliveryDoc> {
  requireScope(caller, 'webhooks');
  const { endpoint_id, delivery_id } = validateInput(WebhookDeliveryInput, input, { location: 'params' });
  await activeEndpoint(ctx, caller.accountId, endpoint_id, 'webhook_endpoint');
  const rec = await deliveries(ctx).get(caller.accountId, delivery_id);
  if (!rec || rec.data._endpoint_id !== endpoint_id) throw notFound('webhook delivery', delivery_id, 'delivery_id');
  const chain = await listAll(deliveries(ctx), caller.accountId, { filter: { _delivery: rec.data._delivery } });
  const later = chain.some((d) => d.attempt > rec.data.attempt || d.status === 'succeeded' || d.status === 'pending');
  if (!endedFailed(rec.data) || later) {
    throw new UseCaseError('conflict', 'invalid_request_error', 'delivery_not_failed',
      `Delivery attempt ${delivery_id} is ${rec.data.status}${rec.data.next_attempt_at ? ', with another attempt to come' : ''}: only a delivery that ended failed can be sent again.`, { param: 'delivery_id' });
  }
  return publicView(await scheduleRedelivery(ctx, caller.accountId, rec.data));
}

/** The operator's input: an endpoint of any account, and the earliest failed delivery to send again. */
export interface RedeliverFailedSinceInput { endpoint_id: string; since: string }

/**
 * The operator's bulk redelivery (`kerf admin webhook redeliver`): every delivery to the endpoint
 * that ended failed at or after `since` is sent again, as redeliverWebhookDelivery does for one
 * (each once, however often this runs). Answers the new deliveries' first attempts.
 */
export async function redeliverFailedSince(ctx: DeliveryContext, caller: Caller, input: RedeliverFailedSinceInput): Promise<ListEnvelope<DeliveryDoc>> {
  if (!caller.operator) {
    throw new UseCaseError('forbidden', 'permission_error', 'operator_required', 'Only an operator may redeliver an endpoint\'s deliveries in bulk.');
  }
  const since = Date.parse(input.since);
  if (!input.since || Number.isNaN(since)) throw invalid('parameter_invalid', `since must be a date and time (ISO 8601), got '${input.since}'.`, 'since');
  const rec = await endpoints(ctx).getUnscoped(input.endpoint_id);
  if (!rec || !rec.data.active) throw notFound('webhook endpoint', input.endpoint_id, 'endpoint_id');
  const all = await listAll(deliveries(ctx), rec.accountId, { filter: { _endpoint_id: rec.id } });
  const lastOf = new Map<string, DeliveryDoc>();
  for (const d of all) {
    const seen = lastOf.get(d._delivery);
    if (!seen || d.attempt > seen.attempt) lastOf.set(d._delivery, d);
  }
  const sent: DeliveryDoc[] = [];
  for (const last of lastOf.values()) {
    // a delivery sent again already has its own (the redelivery's chain, judged by itself)
    if (!endedFailed(last) || Date.parse(last.created_at) < since || lastOf.has(`${last._delivery}:r`)) continue;
    sent.push(publicView(await scheduleRedelivery(ctx, rec.accountId, last)));
  }
  return { object: 'list', data: sent, has_more: false, next_cursor: null };
}
