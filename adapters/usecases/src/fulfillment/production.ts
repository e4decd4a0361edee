// Production speeds: how many business days making the parts takes, standard and expedited, the
// ship date each gives from the day of the quote, and what expediting costs.
import type { PartPrices } from '@kerf/engine';
import { addBusinessDays } from './calendar.ts';

export interface ProductionSpeed { speed: 'standard' | 'expedited'; production_days: number; estimated_ship_date: string; surcharge_cents: number }

/** Production days: cut only / + bending / + inserts / + welding; finishes add their own lead time. */
const BASE_PRODUCTION_DAYS = 3;
const BENDING_DAYS = 1;
const INSERTION_DAYS = 1;
const WELDING_DAYS = 2;
/** Large runs take longer: [more pieces than, extra days], the last that applies. */
const LARGE_RUN_PIECES: ReadonlyArray<readonly [number, number]> = [[100, 1], [500, 2], [5000, 4]];
/** Expedited production saves this many days, down to a floor. */
const EXPEDITE_DAYS_SAVED = 2;
const MIN_PRODUCTION_DAYS = 2;

/** The standard speed, and the expedited one when it saves a day; ship dates are business days after `now`'s UTC day. */
export function productionSpeeds(prices: Pick<PartPrices, 'production' | 'amount_subtotal_cents' | 'terms'>, now: string): ProductionSpeed[] {
  const work = prices.production;
  const run = LARGE_RUN_PIECES.reduce((d, [pieces, days]) => (work.pieces > pieces ? days : d), 0);
  const standardDays = BASE_PRODUCTION_DAYS + (work.bends ? BENDING_DAYS : 0) + (work.inserts ? INSERTION_DAYS : 0) + (work.welds ? WELDING_DAYS : 0) + work.finish_lead_time_days + run;
  const production: ProductionSpeed[] = [{ speed: 'standard', production_days: standardDays, estimated_ship_date: addBusinessDays(now, standardDays), surcharge_cents: 0 }];
  const expeditedDays = Math.max(MIN_PRODUCTION_DAYS, standardDays - EXPEDITE_DAYS_SAVED);
  if (expeditedDays < standardDays) {
    production.push({ speed: 'expedited', production_days: expeditedDays, estimated_ship_date: addBusinessDays(now, expeditedDays),
      surcharge_cents: Math.round(prices.amount_subtotal_cents * prices.terms.expedite_fraction_per_day * (standardDays - expeditedDays)) });
  }
  return production;
}
