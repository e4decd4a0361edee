// The quote record ('quotes'): a quote of docs/api.md "Quotes" as the use cases keep it, and what
// only they read under `_` keys. The store keeps it as given; these types are what a reader of the
// collection may rely on. Parts that come whole from elsewhere (a DFM report, a requirement, a
// quote item's configuration, its tax and production) are JSON objects here: the store names no
// field of them (`object` where the use cases only pass them on).

/** A JSON object the record holds whole, without the store naming its fields. */
export type JsonObject = { [key: string]: unknown };

export type QuoteStatus = 'processing' | 'requires_input' | 'ready' | 'blocked' | 'expired' | 'failed';

/** A destination as the API takes one; a cart's is checked to be a whole US address (docs/api.md "Carts and payment"). */
export interface ShippingAddress {
  name?: string;
  company?: string;
  street1?: string;
  street2?: string | null;
  city?: string;
  state?: string;
  postal_code?: string;
  country?: string;
  phone?: string;
  email?: string;
}

/** A quote item as a request asks for it: a cart's items, a file quote's kept request. */
export interface QuoteItemRequestRecord {
  design_id: string;
  quantity: number;
  configuration?: JsonObject;
  client_reference_id?: string;
  quantity_options?: number[];
}

/** A file quote's request (the file is the design), kept until its design is analyzed. */
export type FileQuoteRequestRecord = Omit<QuoteItemRequestRecord, 'design_id'> & { ship_to?: ShippingAddress };

/** The price of an item at another quantity. */
export interface QuantityOptionRecord { quantity: number; unit_amount_cents: number; amount_cents: number }

/** One priced line of an item: a part's process, or the item's assembly. */
export interface QuoteLineItem {
  part_id: string | null;
  process: string;
  quantity: number;
  unit_amount_cents: number;
  amount_cents: number;
  material_id: string | null;
  tube_profile_id: string | null;
  finish_id: string | null;
  powder_coat_color_id: string | null;
  /** how the line was priced (the engine's breakdown); the store names no field of it */
  breakdown: object[];
}

export interface QuoteItemRecord {
  design_id: string;
  quantity: number;
  /** the item's DFM status; a file quote's item is processing until priced, failed with its analysis */
  status: Exclude<QuoteStatus, 'expired'>;
  client_reference_id: string | null;
  unit_amount_cents: number | null;
  amount_cents: number | null;
  /** absent on a file quote's item until it is priced */
  assembly_operations_amount_cents?: number | null;
  quantity_options: QuantityOptionRecord[];
  /** what the customer must still decide (a DFM requirement); the store names no field of it */
  requirements: object[];
  /** the item's DFM report; null in a record whose `_settled_dfm` names it instead; absent until the design is checked */
  dfm?: JsonObject | null;
  /** absent until the item is priced */
  line_items?: QuoteLineItem[];
}

export interface ShippingOption {
  id: string;
  production_speed: 'standard' | 'expedited';
  carrier: string;
  service: string;
  amount_cents: number;
  production_surcharge_cents: number;
  planned_ship_date: string;
  estimated_delivery_date: string;
  delivery_days: number;
  delivery_date_guaranteed: boolean;
  requires_freight: boolean;
  rate_source: string;
}

export interface QuoteFulfillment {
  production: object[];
  shipping_status: 'destination_required' | 'rated';
  /** rated for the quote's ship_to; empty without one */
  shipping_options: ShippingOption[];
  requires_freight: boolean;
  freight_reasons: string[];
  shipping_zone: number | null;
  package: object;
}

export interface QuoteRecord {
  id: string;
  object: 'quote';
  status: QuoteStatus;
  status_url: string;
  /** the first item's design */
  design_id: string;
  currency: 'usd';
  amount_subtotal_cents: number | null;
  amount_shipping_cents: number | null;
  amount_tax_cents: number | null;
  amount_total_cents: number | null;
  /** how the tax was worked out; absent until the quote is priced */
  tax?: object;
  items: QuoteItemRecord[];
  requirements: object[];
  /** null until the quote is priced */
  fulfillment: QuoteFulfillment | null;
  manufacturing_warnings: object[];
  production_files: { review_warning: { design_id: string; code: string; message: string } | null };
  error: { code: string; message: string } | null;
  /** the catalog that priced the quote; absent until it is priced */
  catalog_version?: string;
  created_at: string;
  expires_at: string;
  /** a file quote's request, kept until its design is analyzed */
  _file_request?: FileQuoteRequestRecord;
  /** a file quote's design, whose analysis the quote waits for */
  _design_id?: string;
  /**
   * item index -> id of the settled DFM report that item embeds: the record keeps the id, the item's
   * `dfm` null (a settled report never changes, and is most of a quote's size)
   */
  _settled_dfm?: Record<string, string>;
}

/** A quote as callers see it (no `_` fields): what a cart keeps of its quote, every DFM report in place. */
export type QuoteView = Omit<QuoteRecord, '_file_request' | '_design_id' | '_settled_dfm'>;
