// Pricing: part breakdowns, quantity options, production speeds, shipping, tax, the quote.
export { quote, priceItems, parseQuoteRequest, MAX_QUANTITY, MAX_QUANTITY_OPTIONS } from './quote.ts';
export type { PricingInput, PricingOutcome, PricingOptions, Quote, QuoteItem, QuoteRequest, QuoteItemRequest, QuoteContext, LineItem, QuantityOption, Fulfillment, ShippingOption, ProductionSpeed, ShipTo } from './quote.ts';
export { pricePart, partMassKg, volumeMultiplier } from './part-price.ts';
export type { BreakdownEntry, BreakdownType } from './part-price.ts';
export { planShipment, rateShipment, shippingZone, DEFAULT_SHIPPING } from './shipping.ts';
export type { ShippingConfig, Shipment } from './shipping.ts';
export { salesTaxCents, isUsState, STATE_TAX_RATE_PERCENT } from './tax.ts';
export { addBusinessDays } from './calendar.ts';
