// The dropship API's use cases (docs/commerce.md "Dropship"; issue #13).
export { requireDropship, adminSetDropshipStatus, type DropshipAccountView } from './access.ts';
export { listDropshipItems, adminCreateDropshipItem, adminApproveDropshipItem, type ItemDoc as DropshipItem } from './items.ts';
export { listDropshipOrders, getDropshipOrder, type DropshipOrderDoc, type DropshipOrderStatus, type DropshipCharge } from './orders.ts';
export { createDropshipOrder, DROPSHIP_RECONCILE_JOB, dropshipReconcileJob, type CreateResult as DropshipCreateResult } from './create.ts';
export { adminGetDropshipOrder, adminUpdateDropshipOrder, adminReleaseDropshipOrder } from './fulfillment.ts';
export { createDropshipEndpoint, listDropshipEndpoints, deleteDropshipEndpoint, type DropshipEndpointView } from './endpoints.ts';
