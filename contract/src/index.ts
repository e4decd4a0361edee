// The API's public objects as the service serves them (docs/api.md "Objects"), written once as
// TypeBox schemas: their TypeScript types (Static), the store's records of quotes, carts and
// orders (@kerf/store derives them from these), the OpenAPI document's response shapes and its
// field descriptions. Response objects are open (fields may be added, never renamed or dropped).
export { Code, createdAt, described, enumOf, id, Message, nullable, objectName, orNull, timeOrNull } from './fields.ts';
export { DesignView, DfmReportView, DfmPartView, Requirement, ReviewLink } from './designs.ts';
export { Quote, QuoteItem } from './quotes.ts';
export { Cart, CartPayment, CartTotals, ShipToView, Order, OrderLineItem, ORDER_STATUSES, type OrderStatus, Tracking, Account, withAccount } from './commerce.ts';
