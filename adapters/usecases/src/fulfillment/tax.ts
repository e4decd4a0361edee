// US sales tax: state base rates (percent), local add-ons not included. Source: the states' published
// base rates as of 2025 (Tax Foundation table). Tax applies to the goods and production surcharge;
// shipping is treated as non-taxable (true in most states when separately stated).
import type { QuoteTax } from '@kerf/contract';

export const STATE_TAX_RATE_PERCENT: Readonly<Record<string, number>> = {
  AL: 4, AK: 0, AZ: 5.6, AR: 6.5, CA: 7.25, CO: 2.9, CT: 6.35, DE: 0, DC: 6, FL: 6, GA: 4, HI: 4, ID: 6, IL: 6.25,
  IN: 7, IA: 6, KS: 6.5, KY: 6, LA: 5, ME: 5.5, MD: 6, MA: 6.25, MI: 6, MN: 6.875, MS: 7, MO: 4.225, MT: 0, NE: 5.5,
  NV: 6.85, NH: 0, NJ: 6.625, NM: 4.875, NY: 4, NC: 4.75, ND: 5, OH: 5.75, OK: 4.5, OR: 0, PA: 6, RI: 7, SC: 6,
  SD: 4.2, TN: 7, TX: 6.25, UT: 6.1, VT: 6, VA: 5.3, WA: 6.5, WV: 6, WI: 5, WY: 4,
};

export function isUsState(code: string): boolean { return Object.hasOwn(STATE_TAX_RATE_PERCENT, code); }

/** Tax in cents on a taxable amount, rounded half up. */
export function salesTaxCents(state: string, taxableCents: number): number {
  const rate = STATE_TAX_RATE_PERCENT[state];
  if (rate === undefined) throw new RangeError(`not a US state: ${state}`);
  return Math.round((taxableCents * rate) / 100);
}

/** A quote's tax: on its subtotal in the destination's state, or waiting for a destination. */
export type { QuoteTax };

/** The tax of a quote's subtotal shipped to `state` (null: no destination yet), and its amount in cents. */
export function quoteTax(state: string | null, subtotalCents: number): { tax: QuoteTax; amount_tax_cents: number } {
  if (state === null) return { tax: { status: 'destination_required', state: null, rate_percent: null, taxable_amount_cents: 0 }, amount_tax_cents: 0 };
  return { tax: { status: 'calculated', state, rate_percent: STATE_TAX_RATE_PERCENT[state], taxable_amount_cents: subtotalCents }, amount_tax_cents: salesTaxCents(state, subtotalCents) };
}
