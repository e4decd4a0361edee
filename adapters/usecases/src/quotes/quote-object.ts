// The quote object (docs/api.md "Quotes"): the engine's part prices of the items with the
// fulfillment, shipping and tax of the destination, under the quote's id and clock. The fields
// are in the contract's order: clients and stored records see the same JSON, byte for byte.
import type { DfmRequirement, ManufacturingWarning, MaterialNest, PartPrices, PricedItem } from '@kerf/engine';
import { type Links, type PresentedDfmReport, type PresentedRequirement, presentDfmReport, presentRequirement } from '../core/index.ts';
import type { Fulfillment, QuoteFulfillment, QuoteTax } from '../fulfillment/index.ts';

const MS_PER_DAY = 86_400_000;

/** A quote as composed: its items' reports and requirements still the engine's (presentQuote makes their URLs). */
export interface QuoteOutcome<Item = PricedItem, Requirement = DfmRequirement> {
  id: string;
  object: 'quote';
  status: PartPrices['status'];
  /** null until presented: the id is the reference, the serving transport makes the URL */
  status_url: string | null;
  /** the first item's design */
  design_id: string;
  currency: 'usd';
  amount_subtotal_cents: number;
  amount_shipping_cents: number;
  amount_tax_cents: number;
  amount_total_cents: number;
  tax: QuoteTax;
  items: Item[];
  requirements: Requirement[];
  fulfillment: Fulfillment;
  manufacturing_warnings: ManufacturingWarning[];
  production_files: { review_warning: { design_id: string; code: string; message: string } | null };
  /** null: a quote that cannot be made is an error thrown, never a quote */
  error: null;
  catalog_version: string;
  created_at: string;
  expires_at: string;
  /** the nests the sheet material is priced from (internal: the quote page draws them, the order's files are written from them) */
  _nests?: MaterialNest[];
}

/** A quote's item as the contract shows it. */
export type PresentedQuoteItem = Omit<PricedItem, 'dfm' | 'requirements'> & { dfm: PresentedDfmReport; requirements: PresentedRequirement[] };
/** A quote as the contract shows it. */
export type Quote = QuoteOutcome<PresentedQuoteItem, PresentedRequirement>;

/** The quote `id` made at `now` of the items' part prices and their fulfillment; good for the prices' validity. */
export function composeQuote(id: string, now: string, prices: PartPrices, shipped: QuoteFulfillment): QuoteOutcome {
  const subtotal = prices.amount_subtotal_cents;
  return {
    id, object: 'quote', status: prices.status, status_url: null, design_id: prices.items[0].design_id, currency: 'usd',
    amount_subtotal_cents: subtotal, amount_shipping_cents: shipped.amount_shipping_cents, amount_tax_cents: shipped.amount_tax_cents,
    amount_total_cents: subtotal + shipped.amount_shipping_cents + shipped.amount_tax_cents,
    tax: shipped.tax, items: prices.items, requirements: prices.requirements, fulfillment: shipped.fulfillment,
    manufacturing_warnings: prices.manufacturing_warnings, production_files: { review_warning: null }, error: null, catalog_version: prices.catalog_version,
    created_at: now, expires_at: new Date(Date.parse(now) + prices.terms.valid_for_days * MS_PER_DAY).toISOString(),
    ...(prices.nests?.length ? { _nests: prices.nests } : {}),
  };
}

/** A quote as the contract shows it: its status_url, and each item's requirements and DFM report presented. */
export function presentQuote(links: Links, quote: QuoteOutcome): Quote {
  const items = quote.items.map((item) => ({
    ...item,
    requirements: item.requirements.map((r) => presentRequirement(links, r)),
    dfm: presentDfmReport(links, item.dfm),
  }));
  return { ...quote, status_url: links.quote(quote.id), items, requirements: quote.requirements.map((r) => presentRequirement(links, r)) };
}
