// The quote record ('quotes'): a quote of docs/api.md "Quotes" as the use cases keep it, and what
// only they read under `_` keys. Its fields are the public object's (@kerf/contract's Quote, the
// one schema source); the record differs only where the store keeps something the API never
// serves as is: an item's DFM report named by id instead of held, amounts of records written
// before unpriced items said 0, a file quote's request until its design is analyzed.
import type { FileQuoteRequest, Quote, QuoteItem } from '@kerf/contract';

/** A JSON object the record holds whole, without the store naming its fields. */
export type JsonObject = { [key: string]: unknown };

export type QuoteItemRecord = Omit<QuoteItem, 'unit_amount_cents' | 'amount_cents' | 'assembly_operations_amount_cents' | 'dfm'> & {
  /** null in records written before unpriced items said 0 (the use cases serve 0) */
  unit_amount_cents: number | null;
  amount_cents: number | null;
  /** absent on a file quote's item until it is priced */
  assembly_operations_amount_cents?: number | null;
  /** the item's DFM report; null in a record whose `_settled_dfm` names it instead; absent until the design is checked */
  dfm?: JsonObject | null;
};

export type QuoteRecord = Omit<Quote, 'items'> & {
  items: QuoteItemRecord[];
  /** a file quote's request, kept until its design is analyzed */
  _file_request?: FileQuoteRequest;
  /** a file quote's design, whose analysis the quote waits for */
  _design_id?: string;
  /**
   * item index -> id of the settled DFM report that item embeds: the record keeps the id, the item's
   * `dfm` null (a settled report never changes, and is most of a quote's size)
   */
  _settled_dfm?: Record<string, string>;
  /** the sheet nests the quote's material is priced from, per material (the engine's MaterialNest, kept whole) */
  _nests?: object[];
};

/** A quote as callers see it (no `_` fields): what a cart keeps of its quote, every DFM report in place. */
export type QuoteView = Omit<QuoteRecord, '_file_request' | '_design_id' | '_settled_dfm' | '_nests'>;
