// A quote's fulfillment (docs/api.md "Quotes"): production speeds, the package, and the shipping
// options for each speed once there is a destination; with the shipping and tax amounts its totals
// take. Worked out from the engine's part prices: the work the parts need, their masses and sizes.
import type { ShippingOption } from '@kerf/contract';
import type { PartPrices } from '@kerf/engine';
import { productionSpeeds, type ProductionSpeed } from './production.ts';
import { DEFAULT_SHIPPING, planShipment, rateShipment, shippingZone, type ShippingConfig } from './shipping.ts';
import { quoteTax, type QuoteTax } from './tax.ts';
import type { UsShipTo } from './ship-to.ts';

export type { ShippingOption };
export interface Fulfillment {
  production: ProductionSpeed[];
  shipping_status: 'destination_required' | 'rated';
  shipping_options: ShippingOption[];
  requires_freight: boolean;
  freight_reasons: string[];
  shipping_zone: number | null;
  package: { weight_lb: number; billable_lb: number; box_in: [number, number, number] };
}

/** What a quote adds to its part prices: fulfillment, and shipping and tax for its totals. */
export interface QuoteFulfillment {
  fulfillment: Fulfillment;
  /** the cheapest standard-speed option's (0 until there is a destination) */
  amount_shipping_cents: number;
  amount_tax_cents: number;
  tax: QuoteTax;
}

/** Fulfillment of the priced parts, quoted at `now` (ship dates are business days after its UTC day), shipped to `shipTo`. */
export function fulfill(prices: PartPrices, shipTo: UsShipTo | null, now: string, shipping: ShippingConfig = DEFAULT_SHIPPING): QuoteFulfillment {
  const production = productionSpeeds(prices, now);
  const shipment = planShipment(prices.shipment);
  const zone = shipTo ? shippingZone(shipping.origin_state, shipTo.state) : null;
  const shipping_options: ShippingOption[] = [];
  if (zone !== null && prices.shipment.length) {
    for (const p of production) {
      for (const o of rateShipment(shipment, zone, p.estimated_ship_date)) {
        shipping_options.push({
          id: `shp_${p.speed}_${o.carrier}_${o.service}`, production_speed: p.speed, carrier: o.carrier, service: o.service, amount_cents: o.amount_cents,
          production_surcharge_cents: p.surcharge_cents, planned_ship_date: p.estimated_ship_date, estimated_delivery_date: o.estimated_delivery_date,
          delivery_days: o.delivery_days, delivery_date_guaranteed: o.delivery_date_guaranteed, requires_freight: o.requires_freight, rate_source: `kerf_table_${prices.catalog_version}`,
        });
      }
    }
  }
  const cheapestStandard = shipping_options.filter((o) => o.production_speed === 'standard').sort((a, b) => a.amount_cents - b.amount_cents)[0] ?? null;
  const { tax, amount_tax_cents } = quoteTax(shipTo?.state ?? null, prices.amount_subtotal_cents);
  return {
    fulfillment: {
      production, shipping_status: zone === null ? 'destination_required' : 'rated', shipping_options,
      requires_freight: shipment.requires_freight, freight_reasons: shipment.freight_reasons, shipping_zone: zone,
      package: { weight_lb: shipment.weight_lb, billable_lb: shipment.billable_lb, box_in: shipment.box_in },
    },
    amount_shipping_cents: cheapestStandard?.amount_cents ?? 0,
    amount_tax_cents,
    tax,
  };
}
