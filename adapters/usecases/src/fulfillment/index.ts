// Fulfillment: production speeds on business days, shipping (packages, zones, rates) and US sales
// tax; what quotes and carts add to the engine's part prices. Imports only core.
export { addBusinessDays } from './calendar.ts';
export { type Fulfillment, fulfill, type QuoteFulfillment, type ShippingOption } from './fulfillment.ts';
export { productionSpeeds, type ProductionSpeed } from './production.ts';
export { DEFAULT_SHIPPING, planShipment, rateShipment, type Shipment, type ShippingConfig, shippingZone } from './shipping.ts';
export { type UsShipTo, usAddressProblem, usShipTo } from './ship-to.ts';
export { isUsState, type QuoteTax, quoteTax, salesTaxCents, STATE_TAX_RATE_PERCENT } from './tax.ts';
