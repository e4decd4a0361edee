// The part prices of quotes the in-process engine worked out, kept per (items, their design
// variants, catalog version): DFM and pricing of a (design, configuration) are worked out once and
// reused (issue 18 target 3). Part prices read the clock only for their reports' created_at; those
// and the reports' ids are each quote's own, so kept prices are stamped anew for each caller. The
// quote's fulfillment, shipping and tax (the calendar and destination) are the use case's, made
// afresh for every quote from these.
import { deepFreeze, type PartPrices, type PriceRequest } from '@kerf/engine';
import { keepJsonText } from '@kerf/store';
import { BoundedMap } from '@kerf/common';
import type { PartPricesContext } from '@kerf/usecases';

/**
 * Prices kept; the least recently used goes first. A one-item quote's are ~4 KB of their own: their
 * items' DFM reports share their parts with the ones the DFM memo keeps.
 */
const MAX_QUOTES = 256;

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

/** The quote's own: its items' report ids and the clock; `dfmKeys[i]` names item i's design variant. */
export type PriceStamp = Omit<PartPricesContext, 'dfmKeys'> & Required<Pick<PartPricesContext, 'dfmKeys'>>;

/** The memo key, or null for a request the memo leaves to the engine (it refuses it: nothing to keep). */
function memoKey(request: PriceRequest, catalogVersion: string, stamp: PriceStamp): string | null {
  if (!Array.isArray(request.items) || !plainJson(request)) return null;
  return JSON.stringify([catalogVersion, request.items.map((_, i) => stamp.dfmKeys[i]), request]);
}

/**
 * Frozen, since every later quote of the key shares their parts; the large shared parts keep their
 * JSON text, so the stored record, its event and the response splice it instead of writing it again.
 */
function keep(made: PartPrices): PartPrices {
  // before freezing: keepJsonText defines a property on the value
  for (const item of made.items) {
    keepJsonText(item.line_items);
    keepJsonText(item.quantity_options);
  }
  return deepFreeze(made);
}

/** The kept prices as `stamp`'s: the same content under its report ids and clock. */
function restamp(kept: PartPrices, stamp: PriceStamp): PartPrices {
  // spreads keep the key order, so the JSON is the engine's, byte for byte
  return { ...kept, items: kept.items.map((item, i) => ({ ...item, dfm: { ...item.dfm, id: stamp.dfmIds[i], created_at: stamp.now } })) };
}

export class QuoteMemo {
  private readonly prices = new BoundedMap<string, PartPrices>(MAX_QUOTES);

  /**
   * The part prices of `request` under `stamp`: the kept ones for the same items, design variants
   * and catalog version, restamped; else make()'s, kept (and returned frozen). A request make()
   * refuses throws as make() does and keeps nothing.
   */
  partPrices(request: PriceRequest, catalogVersion: string, stamp: PriceStamp, make: () => PartPrices): PartPrices {
    const key = memoKey(request, catalogVersion, stamp);
    if (key === null) return make();
    const kept = this.prices.get(key);
    if (kept) return restamp(kept, stamp);
    const made = keep(make());
    this.prices.set(key, made);
    return made;
  }
}
