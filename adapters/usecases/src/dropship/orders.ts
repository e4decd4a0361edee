// Dropship orders: the record, what callers and webhooks see of it, and the
// account's reads. Creation is ./create.ts, fulfilment ./fulfillment.ts.
import type { DocumentCollection } from '@kerf/store';
import {
  type Caller, paged, publicView, notFound, DropshipOrderInput, DropshipOrdersQuery, type objects, validateInput,
} from '../core/index.ts';
import type { CommerceContext } from '../commerce/index.ts';
import { requireDropship } from './access.ts';

type DropshipOrder = objects.DropshipOrder;
/** A dropship order as stored: the public object (core/objects/dropship.ts) and the keys only the use cases read. */
export type DropshipOrderDoc = DropshipOrder & {
  /** a shipping charge under way (its processor key), so a retried ship finds the same payment */
  _shipping_key?: string | null;
};
export type DropshipOrderStatus = DropshipOrder['status'];
export type DropshipCharge = DropshipOrder['charges'][number];

export const dropshipOrders = (ctx: Pick<CommerceContext, 'store'>): DocumentCollection<DropshipOrderDoc> => ctx.store.documents<DropshipOrderDoc>('dropship_orders');

export const dropshipOrderView = (doc: DropshipOrderDoc): DropshipOrderDoc => publicView(doc);

/** The order as a dropship event's `data.order` carries it (docs/commerce.md "Dropship"). */
export function eventOrder(doc: DropshipOrderDoc): Record<string, unknown> {
  return {
    id: doc.id, external_ref: doc.external_ref, status: doc.status, sku: doc.sku, quantity: doc.quantity,
    tracking: doc.status === 'shipped' || doc.status === 'delivered' ? doc.tracking : null,
    shipping_cost_cents: doc.shipping.status === 'charged_at_fulfillment' ? null : doc.shipping.amount_cents,
  };
}

/** GET /v1/dropship/orders: the account's orders, newest first; `external_ref` finds one. */
export async function listDropshipOrders(ctx: Pick<CommerceContext, 'store'>, caller: Caller, input: DropshipOrdersQuery): Promise<{ orders: DropshipOrderDoc[]; has_more: boolean; next_cursor: string | null }> {
  await requireDropship(ctx, caller);
  const q = validateInput(DropshipOrdersQuery, input ?? {}, { location: 'querystring' });
  if (q.external_ref !== undefined) {
    const rec = await dropshipOrders(ctx).getByKey(caller.accountId, q.external_ref);
    return { orders: rec ? [dropshipOrderView(rec.data)] : [], has_more: false, next_cursor: null };
  }
  const page = await paged(() => dropshipOrders(ctx).list(caller.accountId, { limit: q.limit ?? 20, cursor: q.cursor ?? null }));
  return { orders: page.items.map((r) => dropshipOrderView(r.data)), has_more: page.hasMore, next_cursor: page.nextCursor };
}

export async function getDropshipOrder(ctx: Pick<CommerceContext, 'store'>, caller: Caller, input: DropshipOrderInput): Promise<{ order: DropshipOrderDoc }> {
  await requireDropship(ctx, caller);
  const { order_id } = validateInput(DropshipOrderInput, input, { location: 'params' });
  const rec = await dropshipOrders(ctx).get(caller.accountId, order_id);
  if (!rec) throw notFound('dropship order', order_id, 'order_id');
  return { order: dropshipOrderView(rec.data) };
}
