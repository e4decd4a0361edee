// A quote as stored: its record (and its event's payload) names each settled DFM report it embeds by
// the report's id instead of holding a copy (17 KB of a 19.5 KB quote). A report whose production
// files have settled is never written again (dfm/quote-cache.ts), so it reads the same by its id forever;
// a pending report is kept as it was when quoted.
import type { QuoteRecord } from '@kerf/store';
import { type UseCaseContext, publicView } from '../core/index.ts';
import { isSettledReport, readReport } from '../dfm/index.ts';

/** The record a quote is stored as: each settled report it embeds named by its id (toQuote restores it). */
export function toStored(doc: QuoteRecord): QuoteRecord {
  let named: Record<string, string> | undefined;
  const items = doc.items.map((item, i) => {
    if (!isSettledReport(item.dfm)) return item;
    (named ??= {})[i] = item.dfm.id;
    return { ...item, dfm: null };
  });
  return named ? { ...doc, items, _settled_dfm: named } : doc;
}

/** A stored quote's public view as its event's payload keeps it: the settled reports named, as in the record. */
export function eventData(stored: QuoteRecord): QuoteRecord {
  return stored._settled_dfm ? { ...publicView(stored), _settled_dfm: stored._settled_dfm } : publicView(stored);
}

/** Whether an event's payload names settled reports: only eventData's quotes do, which toQuote makes whole. */
export function namesSettledReports(data: unknown): data is QuoteRecord {
  return typeof data === 'object' && data !== null && !!(data as Pick<QuoteRecord, '_settled_dfm'>)._settled_dfm;
}

/** The quote a stored record (or an event's payload) is: the settled reports it names back in their items, in their places. */
export async function toQuote(ctx: UseCaseContext, accountId: string, stored: QuoteRecord): Promise<QuoteRecord> {
  const { _settled_dfm: named, ...doc } = stored;
  // records written before unpriced items said 0 hold null there: existing clients read integers
  const items = doc.items.map((it) => ({ ...it, unit_amount_cents: it.unit_amount_cents ?? 0, amount_cents: it.amount_cents ?? 0, assembly_operations_amount_cents: it.assembly_operations_amount_cents ?? 0 }));
  if (!named) return { ...stored, items };
  for (const [i, dfmId] of Object.entries(named)) {
    const report = await readReport(ctx, accountId, dfmId);
    if (!report) ctx.log.error({ quote_id: stored.id, dfm_id: dfmId }, 'a quote names a DFM report that is not stored');
    items[Number(i)] = { ...items[Number(i)], dfm: report };
  }
  return { ...doc, items };
}
