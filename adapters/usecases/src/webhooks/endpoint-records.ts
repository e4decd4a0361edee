// Where webhook endpoints are kept and what a delivery needs of them (their secrets); the use cases
// on endpoints (endpoints.ts) and the delivery job (delivery.ts) both read them from here.
import { randomBytes } from 'node:crypto';
import type { DocumentCollection } from '@kerf/store';
import { type UseCaseContext, listAll, type Doc, ENDPOINTS_COLLECTION } from '../core/index.ts';

/** Manufacturing and dropship endpoints share the collection; each API sees only its own object. */
export type EndpointObject = 'webhook_endpoint' | 'dropship_webhook_endpoint';

export interface EndpointDoc<O extends EndpointObject = EndpointObject> extends Doc {
  object: O;
  url: string;
  events: string[];
  description: string | null;
  active: boolean;
  created_at: string;
  _secret: string;
  _previous_secret?: string | null;
  _previous_secret_until?: string | null;
  _deleted_at?: string | null;
}

export function endpoints(ctx: UseCaseContext): DocumentCollection<EndpointDoc> {
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
