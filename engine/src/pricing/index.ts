// Pricing: part breakdowns, quantity options, what a design's items cost under a configuration.
export { partPrices, priceItems, parsePriceRequest, MAX_QUANTITY, MAX_QUANTITY_OPTIONS } from './part-prices.ts';
export type {
  PartPrices, PriceContext, PriceItemRequest, PriceRequest, PriceTerms, PricedItem, PricingInput, LineItem, QuantityOption,
  ManufacturingWarning, ProductionWork, ShipmentPart,
} from './part-prices.ts';
export { pricePart, partMassKg, volumeMultiplier } from './part-price.ts';
export type { BreakdownEntry, BreakdownType } from './part-price.ts';
export { nestMaterials, chargedArea, NEST_MAX_PIECES } from './nest-material.ts';
export type { LineNest, MaterialNest, NestMemo, NestPiece, NestedMaterial } from './nest-material.ts';
