// Events with an audience (OutboxEvent.audience) are recorded only for an account that holds a
// document of that collection. MongoDB appends events in the record's own single-document write,
// so the holding is read just before it: a write that starts after the audience document's
// creation has finished sees it.
import type { OutboxEvent } from '../port.ts';
import { checkOutboxEventList, eventsForAudience, plainOutboxEvents } from '../common/outbox.ts';
import type { MongoContext } from './context.ts';
import { COLLECTIONS } from './indexes.ts';

/** The checked events (plain JSON copies) an account's write records. */
export async function eventsToRecord(ctx: MongoContext, accountId: string, events: OutboxEvent[] | undefined): Promise<OutboxEvent[]> {
  const checked = checkOutboxEventList(events);
  const held = new Map<string, boolean>();
  for (const audience of new Set(checked.flatMap((e) => (e.audience === undefined ? [] : [e.audience])))) {
    const doc = await ctx.db.collection(COLLECTIONS.documents).findOne({ collection: audience, accountId: String(accountId) }, { projection: { _id: 1 } });
    held.set(audience, doc !== null);
  }
  return plainOutboxEvents(eventsForAudience(checked, (collection) => held.get(collection) === true));
}
