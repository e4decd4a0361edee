// Where a quote ships to: a US address whose state and ZIP code the rates and the tax read. The
// request schema has checked the fields' types; this checks what they say.
import { invalid, type ShipTo } from '../core/index.ts';
import { isUsState } from './tax.ts';

/** A ship_to the quote can rate and tax. */
export type UsShipTo = ShipTo & { country: 'US'; state: string; postal_code: string };

const ZIP_CODE = /^\d{5}(-\d{4})?$/;

/** The quote's destination (null: none given, shipping and tax wait for it); a field it cannot use is refused by name. */
export function usShipTo(shipTo: ShipTo | null | undefined): UsShipTo | null {
  if (shipTo === undefined || shipTo === null) return null;
  const refuse = (field: string, message: string): never => { throw invalid('invalid_configuration', message, `ship_to.${field}`); };
  if (shipTo.country !== 'US') refuse('country', 'ship_to.country must be US (unsupported_country)');
  const { state, postal_code: zip } = shipTo;
  if (typeof state !== 'string' || !isUsState(state)) return refuse('state', 'ship_to.state must be a two-letter US state code');
  if (typeof zip !== 'string' || !ZIP_CODE.test(zip)) return refuse('postal_code', 'ship_to.postal_code must be a US ZIP code');
  return { ...shipTo, country: 'US', state, postal_code: zip };
}
