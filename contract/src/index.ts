// The API's public objects as the service serves them (docs/api.md "Objects"), written once as
// TypeBox schemas: their TypeScript types (Static), the store's records of quotes, carts and
// orders (@kerf/store derives them from these), the OpenAPI document's response shapes and its
// field descriptions. Response objects are open (fields may be added, never renamed or dropped);
// request shapes (requests.ts) are strict.
export { Code, createdAt, described, enumOf, id, Message, nullable, objectName, orNull, timeOrNull } from './fields.ts';
export { DesignView, DfmReportView, DfmPartView, Requirement, ReviewLink } from './designs.ts';
export { Quote, QuoteFulfillment, QuoteItem, QuoteLineItem, QUOTE_STATUSES, type QuoteStatus, QuoteTax, ShippingOption } from './quotes.ts';
export { Account, Cart, CART_STATUSES, type CartStatus, CartPayment, CartTotals, Order, OrderEvent, OrderLineItem, ORDER_STATUSES, type OrderStatus, ShipToView, Tracking, withAccount } from './commerce.ts';
export { ACCEPTABLE_RISKS, ADDRESS, ClientReference, Configuration, FileQuoteRequest, Id, QuoteItemRequest, RequestDesignId, ShipTo, strict } from './requests.ts';
