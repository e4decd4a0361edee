// Events (docs/api.md "Webhooks"): `{id, type, created_at, data}` where data is the
// object as GET returns it. An event is recorded in the same single-record write as the change it
// reports (the store's outbox), so a crash can delay it, never lose it. The relay hands each pending
// event on: an event some endpoint subscribes to is kept in the `events` collection (the store copies
// its payload; the relay reads only ids and types), one delivery job per subscribed endpoint, both
// idempotent by event id; then the events are cleared from the outbox. An event no endpoint
// subscribes to is only cleared: nothing would ever read it. An account without any endpoint
// records none at all (newEvent's audience).
import type { OutboxEvent } from '@kerf/store';
import type { UseCaseContext } from './context.ts';
import type { Doc } from './documents.ts';

export { EVENT_TYPES, type EventType } from './schemas.ts';
import type { DropshipEventType, EventType } from './schemas.ts';

/** The body every delivery of an event carries, byte for byte the same each time. */
export interface EventBody { id: string; type: EventType | DropshipEventType; created_at: string; data: unknown }

export const EVENTS_COLLECTION = 'events';

/** Manufacturing and dropship webhook endpoints: the only consumers of events (newEvent's audience). */
export const ENDPOINTS_COLLECTION = 'webhook_endpoints';

/**
 * An event to record with a state change: pass it as `events` to the design transition or the
 * document create/update that makes the change, e.g.
 * `orders.update(accountId, id, doc, { events: [newEvent(ctx, 'order.status_changed', orderView)] })`.
 * Its audience is the webhook endpoints: an account that has never had one records no events (the
 * store checks in the same write), as an endpoint receives the events of changes made after it
 * was created.
 */
export function newEvent(ctx: Pick<UseCaseContext, 'newId' | 'now'>, type: EventType | DropshipEventType, data: unknown): OutboxEvent {
  const id = ctx.newId('evt');
  const body: EventBody = { id, type, created_at: ctx.now().toISOString(), data };
  return { id, type, payload: body, audience: ENDPOINTS_COLLECTION };
}

/**
 * newEvent whose body is made only if the store records it (OutboxEvent.payload as a function):
 * for a change as frequent as a quote, of an account that mostly has no endpoint to hear it.
 */
export function newLazyEvent(ctx: Pick<UseCaseContext, 'newId' | 'now'>, type: EventType | DropshipEventType, data: () => unknown): OutboxEvent {
  const event = newEvent(ctx, type, null);
  const body = event.payload as EventBody;
  return { ...event, payload: (): EventBody => ({ ...body, data: data() }) };
}

/**
 * Emits an event that goes with no single record write of its own (or follows one already made):
 * recorded durably at once and relayed like every other. Returns the event id.
 */
export async function emitEvent(ctx: UseCaseContext, accountId: string, type: EventType | DropshipEventType, data: unknown): Promise<string> {
  const event = newEvent(ctx, type, data);
  await ctx.store.documents<Doc>(EVENTS_COLLECTION).create(accountId, event.payload as Doc, { id: event.id, events: [event] });
  ctx.notifyJobs();
  return event.id;
}

