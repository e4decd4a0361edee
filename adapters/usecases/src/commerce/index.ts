export { type AccountView, getAccount, removeSavedCard, startCardSetup } from './account.ts';
export { createCart, createCartFromQuote, getCart, getCartByToken, updateCart } from './carts.ts';
export { chargeIntent, type ChargeIntent, chargeKey, crashPoint, lookupIntent, newIntent, processorOf } from './charge-once.ts';
export { adminGetOrder, adminUpdateOrder, checkTransition, type CommerceContext, getOrder, listOrders, requireOperator } from './orders.ts';
export { getOrderNests, listOrderProductionFiles } from './order-files.ts';
export { DEFAULT_RECONCILE_AFTER_MS, payCart, PAYMENT_RECONCILE_JOB, paymentReconcileJob, paymentUpdated, type PayResult, settleCart } from './pay.ts';
