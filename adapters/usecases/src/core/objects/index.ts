// The API's objects as the use cases serve them (docs/api.md "Objects"), written once as schemas:
// their TypeScript types (Static), the OpenAPI document's response shapes and its field
// descriptions. Response objects are open (fields may be added, never renamed or dropped); the
// request shapes are ../schemas.ts, strict. The objects the store keeps (quotes, carts, orders) and
// what they embed live below the store, in @kerf/contract; the rest are here.
export { ErrorEnvelope, listOf, type ListEnvelope, Health } from './common.ts';
export { DesignView, DfmReportView, DfmPartView, Requirement, ReviewLink, Quote, QuoteItem, Cart, CartPayment, CartTotals, ShipToView, Order, OrderLineItem, ORDER_STATUSES, type OrderStatus, Tracking, Account, withAccount } from '@kerf/contract';
export { WebhookEndpoint, WebhookDelivery, DropshipEndpoint, withSecret } from './webhooks.ts';
export { DropshipItem, DropshipOrder, DropshipAccount, DropshipOrderEnvelope, DropshipOrderPage, DropshipItemList, DropshipEndpointList } from './dropship.ts';
export { CATALOG_ENTRIES, PRESS_BRAKE_ENTRIES } from './catalogs.ts';
export { DfmNest, NestMaterial, OrderProductionFile, ORDER_FILE_KINDS } from './production-files.ts';
