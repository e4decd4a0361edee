// The quote-cache switch as one interface, chosen once at composition (the service's
// KERF_QUOTE_CACHE): QUOTE_CACHING reuses earlier work within an account, NO_QUOTE_CACHING (the
// bench's "before") reuses nothing. Its users (designs' content index, dfm/quote-cache.ts's report
// index, the quotes' engine memo keys) ask it, never a flag. It is a port of the context, like the
// engine, so the designs folder (below dfm) reaches it too.
import type { DocumentRecord, Store } from '@kerf/store';

/** An account's index of reusable work, one entry per key (a content hash, a configuration's). */
export interface ReuseIndex<T> {
  getByKey(accountId: string, key: string): Promise<DocumentRecord<T> | null>;
  /** throws the store's 'duplicate' when `key` is taken */
  create(accountId: string, data: T, opts: { id?: string; key: string }): Promise<unknown>;
  update(accountId: string, id: string, data: T): Promise<unknown>;
}

/** What reuse of earlier work within an account is on. */
export interface QuoteCaching {
  /**
   * The keys the in-process engine keeps a quote's DFM reports and prices under (EngineMemo), from
   * its items' design variants; undefined: the engine works every item out afresh.
   */
  engineKeys(variants: string[]): string[] | undefined;
  /** The store's reuse index `name` (documents keyed per account). */
  index<T>(store: Store, name: string): ReuseIndex<T>;
}

/** Reuse on (the default): the engine memo keyed by design variant, the indexes in the store. */
export const QUOTE_CACHING: QuoteCaching = {
  engineKeys: (variants) => variants,
  index: (store, name) => store.documents(name),
};

/** An index that never finds an entry and keeps none. */
function noIndex<T>(): ReuseIndex<T> {
  return { getByKey: async () => null, create: async () => undefined, update: async () => undefined };
}

/** Reuse off: every quote item gets its own DFM report, every upload its own analysis. */
export const NO_QUOTE_CACHING: QuoteCaching = {
  engineKeys: () => undefined,
  index: noIndex,
};

/** The context's choice; QUOTE_CACHING when it made none. */
export const quoteCaching = (ctx: { quoteCache?: QuoteCaching }): QuoteCaching => ctx.quoteCache ?? QUOTE_CACHING;
