// Where webhook endpoints are kept and what a delivery needs of them (their secrets); the use cases
// on endpoints (endpoints.ts) and the delivery job (delivery.ts) both read them from here.
import { randomBytes } from 'node:crypto';
import type { DocumentCollection } from '@kerf/store';
import { type UseCaseContext, listAll, ENDPOINTS_COLLECTION, invalid, type objects } from '../core/index.ts';

/** Manufacturing and dropship endpoints share the collection; each API sees only its own object. */
export type EndpointObject = 'webhook_endpoint' | 'dropship_webhook_endpoint';

/** An endpoint as stored: the public object (core/objects/webhooks.ts) of either API, and its secrets. */
export type EndpointDoc<O extends EndpointObject = EndpointObject> = Omit<objects.WebhookEndpoint, 'object'> & {
  object: O;
  _secret: string;
  _previous_secret?: string | null;
  _previous_secret_until?: string | null;
  _deleted_at?: string | null;
  /** Why the service (not the account) ended it: 'failing' when every delivery failed for days. */
  _disabled_reason?: 'failing';
};

export function endpoints(ctx: Pick<UseCaseContext, 'store'>): DocumentCollection<EndpointDoc> {
  return ctx.store.documents<EndpointDoc>(ENDPOINTS_COLLECTION);
}

export const newSecret = (): string => `whsec_${randomBytes(32).toString('base64url')}`;

/** The secrets that sign a delivery now: the current one, and a rolled one for 24 h after the roll. */
export function signingSecrets(doc: EndpointDoc, now: Date): string[] {
  const out = [doc._secret];
  if (doc._previous_secret && doc._previous_secret_until && doc._previous_secret_until > now.toISOString()) out.push(doc._previous_secret);
  return out;
}

/** Every active endpoint of an account (for the relay). */
export async function activeEndpoints(ctx: UseCaseContext, accountId: string): Promise<EndpointDoc[]> {
  return listAll(endpoints(ctx), accountId, { filter: { active: true }, order: 'asc' });
}

/**
 * Active endpoints one account may have, of each API (docs/api.md "Webhooks"): every event is one
 * delivery per endpoint retried up to six times, so this also bounds the deliveries one event makes.
 */
export const MAX_ENDPOINTS_PER_ACCOUNT = 16;

/**
 * Creates an active endpoint within the account's cap. The count and the insert are two steps, so
 * parallel creations may all pass the count: each then looks again, and one that is not among the
 * cap's oldest active endpoints deactivates itself before answering, leaving exactly the cap.
 */
export async function createEndpointWithinCap<O extends EndpointObject>(ctx: UseCaseContext, accountId: string, doc: EndpointDoc<O>): Promise<void> {
  // oldest first, by creation time then id: an order every racing creator computes alike
  const active = async () => (await listAll(endpoints(ctx), accountId, { filter: { active: true, object: doc.object } }))
    .map((d) => [`${d.created_at} ${d.id}`, d.id]).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, id]) => id);
  const refuse = () => invalid('too_many_endpoints',
    `This account already has ${MAX_ENDPOINTS_PER_ACCOUNT} active webhook endpoints, the most it may have; delete one first.`);
  if ((await active()).length >= MAX_ENDPOINTS_PER_ACCOUNT) throw refuse();
  await endpoints(ctx).create(accountId, doc, { id: doc.id });
  const rank = (await active()).indexOf(doc.id);
  if (rank >= MAX_ENDPOINTS_PER_ACCOUNT) {
    await endpoints(ctx).update(accountId, doc.id, { ...doc, active: false, _deleted_at: ctx.now().toISOString() });
    throw refuse();
  }
}
