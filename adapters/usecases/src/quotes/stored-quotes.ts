// A quote as stored: its record (and its event's payload) names each settled DFM report it embeds by
// the report's id instead of holding a copy (17 KB of a 19.5 KB quote). A report whose production
// files have settled is never written again (dfm-cache.ts), so it reads the same by its id forever;
// a pending report is kept as it was when quoted.
import { type UseCaseContext, publicView, type Doc } from '../core/index.ts';
import { isSettledReport, readReport } from '../dfm/index.ts';

/** item index -> id of the settled report that item embeds */
type SettledNamed = Record<string, string>;
type StoredItem = Record<string, unknown> & { dfm?: unknown };
type Stored<T extends Doc> = T & { _settled_dfm?: SettledNamed };

/** The record a quote is stored as: each settled report it embeds named by its id (toQuote restores it). */
export function toStored<T extends Doc>(doc: T): Stored<T> {
  let named: SettledNamed | undefined;
  const items = (doc.items as StoredItem[]).map((item, i) => {
    if (!isSettledReport(item.dfm)) return item;
    (named ??= {})[i] = item.dfm.id;
    return { ...item, dfm: null };
  });
  return named ? { ...doc, items, _settled_dfm: named } : doc;
}

/** A stored quote's public view as its event's payload keeps it: the settled reports named, as in the record. */
export function eventData<T extends Doc>(stored: Stored<T>): Doc {
  return stored._settled_dfm ? { ...publicView(stored), _settled_dfm: stored._settled_dfm } : publicView(stored);
}

/** The quote a stored record (or an event's payload) is: the settled reports it names back in their items, in their places. */
export async function toQuote<T extends Doc>(ctx: UseCaseContext, accountId: string, stored: Stored<T>): Promise<T> {
  const named = stored._settled_dfm;
  if (!named) return stored;
  const items = [...(stored.items as StoredItem[])];
  for (const [i, dfmId] of Object.entries(named)) {
    const report = await readReport(ctx, accountId, dfmId);
    if (!report) ctx.log.error({ quote_id: stored.id, dfm_id: dfmId }, 'a quote names a DFM report that is not stored');
    items[Number(i)] = { ...items[Number(i)], dfm: report };
  }
  // the items in their place; the names (the record's last key) go
  const quote = { ...stored, items };
  delete quote._settled_dfm;
  return quote;
}
