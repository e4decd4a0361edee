// /v1/dropship/webhook-endpoints: kept beside the manufacturing
// endpoints (one collection, one relay and delivery worker, the same signing) with their own
// object, UUID ids and the dropship events, so each API sees only its own endpoints.
import { randomUUID } from 'node:crypto';
import {
  type Caller, type UseCaseContext, listAll, DROPSHIP_EVENT_TYPES, DropshipEndpointCreate, DropshipEndpointInput, validateInput, type objects,
} from '../core/index.ts';
import { checkUrl, createEndpointWithinCap, deactivateEndpoint, endpoints, newSecret, type EndpointDoc } from '../webhooks/index.ts';
import { requireDropship } from './access.ts';

const OBJECT = 'dropship_webhook_endpoint' as const;

/** A dropship webhook endpoint as served (its schema: objects.DropshipEndpoint). */
export type DropshipEndpointView = objects.DropshipEndpoint;

const view = (d: EndpointDoc): DropshipEndpointView => ({ id: d.id, url: d.url, events: d.events, active: d.active, created_at: d.created_at });

export async function createDropshipEndpoint(ctx: UseCaseContext, caller: Caller, input: DropshipEndpointCreate): Promise<DropshipEndpointView & { secret: string }> {
  await requireDropship(ctx, caller);
  const req = validateInput(DropshipEndpointCreate, input);
  const url = checkUrl(ctx, req.url);
  const id = randomUUID();
  const secret = newSecret();
  const doc: EndpointDoc = {
    id, object: OBJECT, url, events: req.events ? DROPSHIP_EVENT_TYPES.filter((t) => req.events!.includes(t)) : [...DROPSHIP_EVENT_TYPES],
    description: null, active: true, created_at: ctx.now().toISOString(),
    _secret: secret, _previous_secret: null, _previous_secret_until: null, _deleted_at: null,
  };
  await createEndpointWithinCap(ctx, caller.accountId, doc);
  return { ...view(doc), secret };
}

/** The active endpoints, secrets never shown. */
export async function listDropshipEndpoints(ctx: UseCaseContext, caller: Caller): Promise<{ endpoints: DropshipEndpointView[] }> {
  await requireDropship(ctx, caller);
  const docs = await listAll(endpoints(ctx), caller.accountId, { order: 'asc', filter: { active: true, object: OBJECT } });
  return { endpoints: docs.map(view) };
}

/** DELETE: deactivates; deliveries not yet made are abandoned. */
export async function deleteDropshipEndpoint(ctx: UseCaseContext, caller: Caller, input: DropshipEndpointInput): Promise<void> {
  await requireDropship(ctx, caller);
  const { endpoint_id } = validateInput(DropshipEndpointInput, input, { location: 'params' });
  await deactivateEndpoint(ctx, caller.accountId, endpoint_id, OBJECT);
}
