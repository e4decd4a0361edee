// Quotes the in-process engine made, kept per (request, its items' design variants, catalog version,
// UTC calendar day): DFM and pricing of a (design, configuration) are worked out once and reused
// (issue 18 target 3). A quote's prices, line items, fulfillment and tax read the clock only through
// the UTC date (ship dates are business days after it); its id, created_at, expires_at and each
// report's id and created_at are the quote's own, so a kept quote is stamped anew for each caller.
import { BoundedMap } from '@kerf/common';
import { deepFreeze, type Quote } from '@kerf/engine';
import { keepJsonText } from '@kerf/store';

/**
 * Quotes kept; the least recently used goes first. A one-item quote is ~4 KB of its own: its
 * items' DFM reports share their parts with the ones the DFM memo keeps.
 */
const MAX_QUOTES = 256;
const MS_PER_DAY = 86_400_000;

/**
 * True for plain data as JSON.parse makes it (the API's requests), which JSON writes as the engine
 * reads it. Not for a field present as undefined (the engine refuses unknown fields, even undefined
 * ones), NaN, Infinity or -0 (JSON's null and 0), holes, dates and other class instances: such a
 * request is left to the engine.
 */
function plainJson(value: unknown): boolean {
  switch (typeof value) {
    case 'string': case 'boolean': return true;
    case 'number': return Number.isFinite(value) && !Object.is(value, -0);
    case 'object': {
      if (value === null) return true;
      if (Array.isArray(value)) {
        for (let i = 0; i < value.length; i++) if (!(i in value) || !plainJson(value[i])) return false;
        return true;
      }
      const proto = Object.getPrototypeOf(value) as unknown;
      if (proto !== Object.prototype && proto !== null) return false;
      for (const v of Object.values(value)) if (!plainJson(v)) return false;
      return true;
    }
    default: return false;
  }
}

/** The quote's own: its id and clock, and the id of item i's report. `dfmKey(i)` names item i's design variant. */
export interface QuoteStamp { id: string; now: string; dfmId(itemIndex: number): string; dfmKey(itemIndex: number): string }

/** The memo key, or null for a request the memo leaves to the engine (it refuses it: nothing to keep). */
function memoKey(request: unknown, catalogVersion: string, stamp: QuoteStamp): string | null {
  const at = Date.parse(stamp.now);
  const items = (request as { items?: unknown } | null)?.items;
  if (Number.isNaN(at) || !Array.isArray(items) || !plainJson(request)) return null;
  // the UTC day number: the same number is the same UTC date, all the pricing reads of the clock
  const day = Math.floor(at / MS_PER_DAY);
  return JSON.stringify([catalogVersion, day, items.map((_, i) => stamp.dfmKey(i)), request]);
}

/**
 * Frozen, since every later quote of the key shares its parts; the large shared parts keep their
 * JSON text, so the stored record, its event and the response splice it instead of writing it again.
 */
function keep(made: Quote): Quote {
  // before freezing: keepJsonText defines a property on the value
  for (const item of made.items) {
    keepJsonText(item.line_items);
    keepJsonText(item.quantity_options);
  }
  keepJsonText(made.fulfillment);
  return deepFreeze(made);
}

/** A kept quote and its validity span as the engine computed it (created_at + the catalog's days), in milliseconds. */
interface Kept { quote: Quote; validForMs: number }

/** The kept quote as `stamp`'s quote: the same content under its id, clock and report ids. */
function restamp({ quote, validForMs }: Kept, stamp: QuoteStamp): Quote {
  // spreads keep the key order, so the JSON is the engine's, byte for byte
  return {
    ...quote,
    id: stamp.id,
    items: quote.items.map((item, i) => ({ ...item, dfm: { ...item.dfm, id: stamp.dfmId(i), created_at: stamp.now } })),
    created_at: stamp.now,
    expires_at: new Date(Date.parse(stamp.now) + validForMs).toISOString(),
  };
}

export class QuoteMemo {
  private readonly quotes = new BoundedMap<string, Kept>(MAX_QUOTES);

  /**
   * The quote of `request` under `stamp`: the kept one for the same request, items' design
   * variants, catalog version and UTC day, restamped; else make()'s, kept (and returned frozen).
   * A request make() refuses throws as make() does and keeps nothing.
   */
  quote(request: unknown, catalogVersion: string, stamp: QuoteStamp, make: () => Quote): Quote {
    const key = memoKey(request, catalogVersion, stamp);
    if (key === null) return make();
    const kept = this.quotes.get(key);
    if (kept) return restamp(kept, stamp);
    const made = keep(make());
    this.quotes.set(key, { quote: made, validForMs: Date.parse(made.expires_at) - Date.parse(made.created_at) });
    return made;
  }
}
