export { type AccountView, getAccount, removeSavedCard, startCardSetup } from './account.ts';
export { type CartDoc, type CartPayment, carts, type CartTotals, createCart, createCartFromQuote, getCart, getCartByToken, updateCart } from './carts.ts';
export { chargeIntent, type ChargeIntent, chargeKey, crashPoint, lookupIntent, newIntent, processorOf } from './charge-once.ts';
export { adminGetOrder, adminUpdateOrder, checkTransition, type CommerceContext, getOrder, listOrders, type OrderDoc, orders, type OrderStatus, requireOperator } from './orders.ts';
export { DEFAULT_RECONCILE_AFTER_MS, payCart, PAYMENT_RECONCILE_JOB, paymentReconcileJob, paymentUpdated, type PayResult, settleCart } from './pay.ts';
