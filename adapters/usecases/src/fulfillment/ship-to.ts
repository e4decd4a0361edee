// Where a quote ships to: a US address whose state and ZIP code the rates and the tax read. The
// request schema has checked the fields' types; this checks what they say.
import { invalid, type ShipTo } from '../core/index.ts';
import { isUsState } from './tax.ts';
import { stateOfZip } from './zip-states.ts';

/** A ship_to the quote can rate and tax. */
export type UsShipTo = ShipTo & { country: 'US'; state: string; postal_code: string };

const ZIP_CODE = /^\d{5}(-\d{4})?$/;

/** What is wrong with a US address's state and ZIP code (the field to name and why), or null when they are a state's code and a ZIP code in it. */
export function usAddressProblem(state: unknown, zip: unknown): { param: 'ship_to.state' | 'ship_to.postal_code'; message: string } | null {
  if (typeof state !== 'string' || !isUsState(state)) return { param: 'ship_to.state', message: `ship_to.state '${String(state)}' is not a two-letter US state code.` };
  if (typeof zip !== 'string' || !ZIP_CODE.test(zip)) return { param: 'ship_to.postal_code', message: `ship_to.postal_code '${String(zip)}' is not a US ZIP code.` };
  const ofZip = stateOfZip(zip);
  if (ofZip === state) return null;
  return {
    param: 'ship_to.state',
    message: ofZip === null
      ? `ship_to.postal_code ${zip} is not in one of the 50 states or DC, so ship_to.state ${state} cannot be checked against it.`
      : `ship_to.state ${state} does not match ship_to.postal_code ${zip}, which is in ${ofZip}: tax and shipping follow the ZIP code.`,
  };
}

/** The quote's destination (null: none given, shipping and tax wait for it); a field it cannot use is refused by name. */
export function usShipTo(shipTo: ShipTo | null | undefined): UsShipTo | null {
  if (shipTo === undefined || shipTo === null) return null;
  if (shipTo.country !== 'US') throw invalid('invalid_configuration', 'ship_to.country must be US (unsupported_country)', 'ship_to.country');
  const problem = usAddressProblem(shipTo.state, shipTo.postal_code);
  if (problem) throw invalid('invalid_configuration', problem.message, problem.param);
  return { ...shipTo, country: 'US', state: shipTo.state!, postal_code: shipTo.postal_code! };
}
