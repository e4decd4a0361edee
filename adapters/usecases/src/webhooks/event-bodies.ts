// An event's body as it is delivered, read back from the events the relay kept.
import { type UseCaseContext, publicView, type Doc, EVENTS_COLLECTION, type EventBody } from '../core/index.ts';
import { namesSettledReports, toQuote } from '../quotes/index.ts';

export async function getEventBody(ctx: UseCaseContext, accountId: string, eventId: string): Promise<EventBody | null> {
  const rec = await ctx.store.documents<Doc>(EVENTS_COLLECTION).get(accountId, eventId);
  if (!rec) return null;
  const body = publicView(rec.data) as unknown as EventBody;
  // a quote's payload names its settled DFM reports by id (stored-quotes.ts): delivered whole
  return namesSettledReports(body.data) ? { ...body, data: await toQuote(ctx, accountId, body.data) } : body;
}
