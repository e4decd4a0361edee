// Shipping: packages from part weights and sizes, a US destination zone from distance, parcel
// rates per service, and the freight rules a real service publishes.
import type { ShipmentPart } from '@kerf/engine';
import { addBusinessDays } from './calendar.ts';

const KG_TO_LB = 2.20462;
const MM_PER_IN = 25.4;

/** Freight triggers (published by one real service). */
const FREIGHT_ORDER_LB = 200;
const FREIGHT_PART_LB = 100;
const FREIGHT_ANY_DIMENSION_IN = 60;
const FREIGHT_TWO_DIMENSIONS_IN: readonly [number, number] = [48, 30];
/** Flat freight charge plus a per-pound part, and its transit (published: flat charge, ~3 business days). */
const FREIGHT_FLAT_CENTS = 29500;
const FREIGHT_PER_LB_CENTS = 35;
const FREIGHT_TRANSIT_DAYS = 3;
/** Dimensions within this of a threshold count as reaching it (mm -> inch round-off), inch. */
const DIM_TOL_IN = 0.01;

/** Packaging: padding around the largest part on every side, and packaging weight. */
const BOX_PADDING_MM = 50;
const PACKAGING_WEIGHT_FRACTION = 0.1;
const PACKAGING_WEIGHT_MIN_LB = 1;
/** Carrier dimensional-weight divisor, cubic inches per pound. */
const DIM_DIVISOR_IN3_PER_LB = 139;

export interface ShippingConfig { origin_state: string }
export const DEFAULT_SHIPPING: ShippingConfig = { origin_state: 'OH' };

/** Approximate population centres (lat, lon) of US states and DC, for distance-based zones. */
const STATE_CENTER: Readonly<Record<string, readonly [number, number]>> = {
  AL: [32.8, -86.8], AK: [61.2, -149.9], AZ: [33.5, -112.1], AR: [34.8, -92.3], CA: [36.8, -119.4], CO: [39.7, -105.0],
  CT: [41.6, -72.7], DE: [39.2, -75.5], DC: [38.9, -77.0], FL: [28.1, -81.6], GA: [33.7, -84.4], HI: [21.3, -157.8],
  ID: [43.6, -116.2], IL: [41.8, -87.7], IN: [39.8, -86.2], IA: [41.6, -93.6], KS: [38.5, -97.5], KY: [38.2, -85.3],
  LA: [30.5, -91.1], ME: [44.3, -69.8], MD: [39.0, -76.7], MA: [42.3, -71.4], MI: [42.7, -84.5], MN: [45.0, -93.3],
  MS: [32.3, -90.2], MO: [38.6, -92.2], MT: [46.6, -110.0], NE: [41.1, -98.3], NV: [36.2, -115.1], NH: [43.2, -71.5],
  NJ: [40.2, -74.5], NM: [35.1, -106.6], NY: [41.5, -74.5], NC: [35.6, -79.4], ND: [47.0, -100.5], OH: [40.2, -82.8],
  OK: [35.5, -97.5], OR: [44.9, -122.9], PA: [40.6, -77.2], RI: [41.8, -71.4], SC: [34.0, -81.0], SD: [44.0, -100.0],
  TN: [35.9, -86.4], TX: [31.0, -97.5], UT: [40.5, -111.9], VT: [44.3, -72.6], VA: [37.5, -77.5], WA: [47.4, -121.5],
  WV: [38.6, -80.6], WI: [43.8, -89.0], WY: [42.9, -107.5],
};
/** Zone bands by great-circle miles, like the parcel carriers' zones 2-8; Alaska and Hawaii are zone 9. */
const ZONE_BANDS_MILES: ReadonlyArray<readonly [number, number]> = [[150, 2], [300, 3], [600, 4], [1000, 5], [1400, 6], [1800, 7], [Infinity, 8]];
const NONCONTIGUOUS = new Set(['AK', 'HI']);

function miles(a: readonly [number, number], b: readonly [number, number]): number {
  const rad = Math.PI / 180, R = 3958.8;
  const dLat = (b[0] - a[0]) * rad, dLon = (b[1] - a[1]) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a[0] * rad) * Math.cos(b[0] * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * R * Math.asin(Math.sqrt(h));
}

export function shippingZone(origin: string, destination: string): number {
  if (NONCONTIGUOUS.has(destination) !== NONCONTIGUOUS.has(origin)) return 9;
  const a = STATE_CENTER[origin], b = STATE_CENTER[destination];
  if (!a || !b) throw new RangeError(`unknown state ${a ? destination : origin}`);
  const d = miles(a, b);
  return ZONE_BANDS_MILES.find(([m]) => d <= m)![1];
}

export interface Shipment { weight_lb: number; billable_lb: number; box_in: [number, number, number]; requires_freight: boolean; freight_reasons: string[] }

export function planShipment(parts: ShipmentPart[]): Shipment {
  const goodsLb = parts.reduce((a, p) => a + p.mass_kg * KG_TO_LB * p.quantity, 0);
  const weight = goodsLb + Math.max(PACKAGING_WEIGHT_MIN_LB, goodsLb * PACKAGING_WEIGHT_FRACTION);
  const reasons: string[] = [];
  if (weight > FREIGHT_ORDER_LB) reasons.push(`order weighs ${Math.round(weight)} lb (over ${FREIGHT_ORDER_LB} lb)`);
  let box: [number, number, number] = [0, 0, 0];
  for (const p of parts) {
    const lb = p.mass_kg * KG_TO_LB;
    if (lb > FREIGHT_PART_LB) reasons.push(`a part weighs ${Math.round(lb)} lb (over ${FREIGHT_PART_LB} lb)`);
    const dims = [...p.dimensions_mm].map((x) => x / MM_PER_IN + DIM_TOL_IN).sort((a, b) => b - a) as [number, number, number];
    if (dims[0] >= FREIGHT_ANY_DIMENSION_IN) reasons.push(`a part is ${Math.round(dims[0])}" long (${FREIGHT_ANY_DIMENSION_IN}" or more)`);
    else if (dims[0] >= FREIGHT_TWO_DIMENSIONS_IN[0] && dims[1] >= FREIGHT_TWO_DIMENSIONS_IN[1]) reasons.push(`a part is ${Math.round(dims[0])}" x ${Math.round(dims[1])}" (${FREIGHT_TWO_DIMENSIONS_IN[0]}" x ${FREIGHT_TWO_DIMENSIONS_IN[1]}" or more)`);
    const pad = (2 * BOX_PADDING_MM) / MM_PER_IN;
    box = [Math.max(box[0], dims[0] + pad), Math.max(box[1], dims[1] + pad), Math.max(box[2], dims[2] + pad)];
  }
  const dimLb = (box[0] * box[1] * box[2]) / DIM_DIVISOR_IN3_PER_LB;
  return {
    weight_lb: Number(weight.toFixed(2)),
    billable_lb: Math.ceil(Math.max(weight, dimLb, 1)),
    box_in: box.map((x) => Number(x.toFixed(1))) as [number, number, number],
    requires_freight: reasons.length > 0,
    freight_reasons: [...new Set(reasons)],
  };
}

export interface Service { carrier: string; service: string; days: (zone: number) => number; guaranteed: boolean; price: (lb: number, zone: number) => number }

const ground = (lb: number, zone: number): number => 1100 + 95 * lb * (1 + 0.12 * (zone - 2));
/** Parcel services offered and their table rates, cents. */
const PARCEL_SERVICES: readonly Service[] = [
  { carrier: 'ups', service: 'ground', guaranteed: false, days: (z) => [1, 1, 1, 2, 3, 3, 4, 5, 5, 7][z] ?? 5, price: ground },
  { carrier: 'ups', service: '2nd_day_air', guaranteed: true, days: () => 2, price: (lb, z) => 2 * ground(lb, z) + 1500 },
  { carrier: 'ups', service: 'next_day_air', guaranteed: true, days: () => 1, price: (lb, z) => 3.5 * ground(lb, z) + 2500 },
];

export interface RatedOption { carrier: string; service: string; amount_cents: number; delivery_days: number; delivery_date_guaranteed: boolean; requires_freight: boolean; estimated_delivery_date: string }

/** Rated options for a shipment leaving on shipDate (YYYY-MM-DD). */
export function rateShipment(s: Shipment, zone: number, shipDate: string): RatedOption[] {
  if (s.requires_freight) {
    return [{ carrier: 'freight', service: 'ltl', amount_cents: Math.round(FREIGHT_FLAT_CENTS + FREIGHT_PER_LB_CENTS * s.billable_lb), delivery_days: FREIGHT_TRANSIT_DAYS,
      delivery_date_guaranteed: false, requires_freight: true, estimated_delivery_date: addBusinessDays(`${shipDate}T12:00:00Z`, FREIGHT_TRANSIT_DAYS) }];
  }
  return PARCEL_SERVICES.map((sv) => {
    const days = sv.days(zone);
    return { carrier: sv.carrier, service: sv.service, amount_cents: Math.round(sv.price(s.billable_lb, zone)), delivery_days: days, delivery_date_guaranteed: sv.guaranteed,
      requires_freight: false, estimated_delivery_date: addBusinessDays(`${shipDate}T12:00:00Z`, days) };
  });
}
