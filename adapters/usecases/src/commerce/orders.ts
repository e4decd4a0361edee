// Orders (docs/api.md "Orders"): made once from a paid cart (unique per cart, so finishing a payment
// twice finds the first), read by their account, and moved through fulfilment by an operator. Every
// status change appends to `events` and records order.status_changed in the same write.
import type { OrderLineItem, OrderStatus } from '@kerf/contract';
import { isStoreError, type CartRecord, type DocumentRecord, type OrderRecord } from '@kerf/store';
import {
  requireScope, type Caller, type UseCaseContext, paged, publicView, type ListEnvelope, UseCaseError, invalid,
  notFound, type Payment, AdminOrderUpdate, ListOrdersInput, OrderInput, type ListOrdersInput as ListOrdersQuery, validateInput,
  newEvent,
} from '../core/index.ts';
import { processorOf } from './charge-once.ts';

/** What a store, a clock and the processor are enough for: the operator CLI runs these without the engine. */
export type CommerceContext = Pick<UseCaseContext, 'store' | 'links' | 'now' | 'newId' | 'payments' | 'notifyJobs'>;

/** What an order reads of a part's configuration in its item's DFM report (a JSON object to the quote record). */
type PartSelections = { part_id?: string; powder_coat_color_id?: string; finish_id?: string; [selection: string]: unknown };

/** The parts' names of the cart's designs (the file's own names: what the customer calls them), by part id. */
async function partNames(ctx: CommerceContext, accountId: string, cart: CartRecord): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  for (const designId of new Set(cart.quote.items.map((i) => i.design_id).filter((d): d is string => typeof d === 'string'))) {
    const rec = await ctx.store.designs.get(accountId, designId);
    for (const p of (rec?.result as { parts?: Array<{ id: string; name?: string | null }> } | null)?.parts ?? []) if (p.name) names.set(p.id, p.name);
  }
  return names;
}

/** The order's line items: each quoted part line (named as in the design), then shipping. */
function lineItems(ctx: CommerceContext, cart: CartRecord, names: ReadonlyMap<string, string>): OrderLineItem[] {
  const out: OrderLineItem[] = [];
  for (const item of cart.quote.items) {
    const parts = (item.dfm?.configuration as { parts?: PartSelections[] } | undefined)?.parts ?? [];
    for (const line of item.line_items ?? []) {
      const config: PartSelections = parts.find((p) => p.part_id === line.part_id) ?? {};
      const holeOps = ['taps', 'studs', 'nuts', 'standoffs', 'countersinks'].reduce((n, k) => n + (Array.isArray(config[k]) ? (config[k] as unknown[]).length : 0), 0);
      const type = line.process === 'assembly' ? 'assembly' : 'part';
      out.push({
        id: ctx.newId('oli'), type, part_id: line.part_id ?? null, design_id: item.design_id ?? null,
        name: type === 'assembly' ? `Assembly of design ${item.design_id}` : names.get(String(line.part_id)) ?? `Part ${String(line.part_id)} (${line.process ?? 'part'})`,
        quantity: line.quantity, unit_amount_cents: line.unit_amount_cents, amount_cents: line.amount_cents,
        material_id: line.material_id ?? null, tube_profile_id: line.tube_profile_id ?? null,
        // the priced line's own selections (the configuration's defaults resolved), else the part's entry
        powder_coat_color_id: line.powder_coat_color_id ?? config.powder_coat_color_id ?? null, finish_id: line.finish_id ?? config.finish_id ?? null,
        hole_operation_count: holeOps,
      });
    }
  }
  const option = cart.selected_shipping_option;
  if (option) {
    out.push({
      id: ctx.newId('oli'), type: 'shipping', part_id: null, design_id: null,
      name: `${option.carrier} ${option.service}`, quantity: 1,
      unit_amount_cents: option.amount_cents, amount_cents: option.amount_cents,
      material_id: null, tube_profile_id: null, powder_coat_color_id: null, finish_id: null, hole_operation_count: 0,
    });
  }
  return out;
}

/** The order a succeeded payment of a cart makes; exactly one per cart whoever calls it (its key is the cart id). */
export async function ensureOrder(ctx: CommerceContext, accountId: string, cart: CartRecord, payment: Payment): Promise<OrderRecord> {
  const existing = await ctx.store.orders.getByKey(accountId, cart.id);
  if (existing) return existing.data;
  const id = ctx.newId('ord');
  const now = ctx.now().toISOString();
  const option = cart.selected_shipping_option;
  const doc: OrderRecord = {
    id, object: 'order', status: 'received', status_url: ctx.links.order(id), created_at: now,
    cart_id: cart.id, quote_id: cart.quote.id,
    amount_subtotal_cents: cart.totals.amount_subtotal_cents, amount_discount_cents: 0,
    amount_production_surcharge_cents: cart.totals.amount_production_surcharge_cents,
    amount_tax_cents: cart.totals.amount_tax_cents, amount_shipping_cents: cart.totals.amount_shipping_cents,
    amount_total_cents: payment.amount_cents,
    expedited: option?.production_speed === 'expedited', production_hold: false,
    estimated_ship_date: option?.planned_ship_date ?? null,
    delivered_at: null, po_number: null, client_reference_id: cart.client_reference_id ?? null,
    ship_to: cart.ship_to, shipping_option_id: cart.shipping_option_id,
    payment_intent_id: payment.id,
    tracking: null, line_items: lineItems(ctx, cart, await partNames(ctx, accountId, cart)), events: [{ type: 'received', at: now }],
    _payment_intent_id: payment.id,
  };
  try {
    return (await ctx.store.orders.create(accountId, doc, { id, key: cart.id })).data;
  } catch (err) {
    if (!isStoreError(err, 'duplicate')) throw err;
    return (await ctx.store.orders.getByKey(accountId, cart.id))!.data; // another finisher made it first
  }
}

export function orderView(doc: OrderRecord): OrderRecord {
  return publicView(doc);
}

/** GET /v1/orders: the caller's orders, newest first. */
export async function listOrders(ctx: CommerceContext, caller: Caller, input: ListOrdersQuery): Promise<ListEnvelope<OrderRecord>> {
  requireScope(caller, 'orders');
  const q = validateInput(ListOrdersInput, input, { location: 'querystring' });
  const page = await paged(() => ctx.store.orders.list(caller.accountId, { limit: q.limit ?? 20, cursor: q.cursor ?? null }));
  return { object: 'list', data: page.items.map((r) => orderView(r.data)), has_more: page.hasMore, next_cursor: page.nextCursor };
}

export async function getOrder(ctx: CommerceContext, caller: Caller, input: OrderInput): Promise<OrderRecord> {
  requireScope(caller, 'orders');
  const { order_id } = validateInput(OrderInput, input, { location: 'params' });
  const rec = await ctx.store.orders.get(caller.accountId, order_id);
  if (!rec) throw notFound('order', order_id, 'order_id');
  return orderView(rec.data);
}

// ---- operator actions (docs/api.md "Operator actions") ---------------------------------------

/** Where an order may go from each status. */
const NEXT: Record<OrderStatus, readonly OrderStatus[]> = {
  received: ['in_production', 'ready_for_pickup', 'shipped', 'cancelled', 'refunded'],
  in_production: ['ready_for_pickup', 'shipped', 'cancelled', 'refunded'],
  ready_for_pickup: ['shipped', 'delivered', 'cancelled', 'refunded'],
  shipped: ['delivered', 'refunded'],
  delivered: ['refunded'],
  cancelled: ['refunded'],
  refunded: [],
};

/** Refuses a move `next` does not allow from `from` (`what` names the order in the message). */
export function checkTransition<S extends string>(next: Record<S, readonly S[]>, what: string, from: S, to: S): void {
  if (next[from].includes(to)) return;
  throw new UseCaseError('conflict', 'invalid_request_error', 'invalid_order_transition',
    `${what} is ${from}; it can move to ${next[from].join(', ') || 'nothing'} only.`, { param: 'status' });
}

export function requireOperator(caller: Caller): void {
  if (!caller.operator) {
    throw new UseCaseError('forbidden', 'permission_error', 'operator_required', 'Only an operator key may call operator actions (kerf admin create-api-key --operator).');
  }
}

async function operatorOrder(ctx: CommerceContext, orderId: string): Promise<DocumentRecord<OrderRecord>> {
  const rec = await ctx.store.orders.getUnscoped(orderId);
  if (!rec || rec.data.object !== 'order') throw notFound('order', orderId, 'order_id');
  return rec;
}

/** An operator reads any account's order (with its account id). */
export async function adminGetOrder(ctx: CommerceContext, caller: Caller, input: OrderInput): Promise<OrderRecord & { account_id: string }> {
  requireOperator(caller);
  const { order_id } = validateInput(OrderInput, input, { location: 'params' });
  const rec = await operatorOrder(ctx, order_id);
  return { ...orderView(rec.data), account_id: rec.accountId };
}

/**
 * An operator moves an order on: in_production, ready_for_pickup, shipped (with tracking),
 * delivered, cancelled or refunded (both refund what was paid, through the processor, once).
 */
export async function adminUpdateOrder(ctx: CommerceContext, caller: Caller, input: AdminOrderUpdate): Promise<OrderRecord & { account_id: string }> {
  requireOperator(caller);
  const req = validateInput(AdminOrderUpdate, input);
  if (req.status === 'shipped' && !req.tracking) throw invalid('parameter_missing', "Shipping an order needs its tracking: 'tracking.carrier' and 'tracking.number' (service and url when known).", 'tracking');
  if (req.tracking && req.status !== 'shipped') throw invalid('parameter_unknown', "'tracking' is given only with status 'shipped'.", 'tracking');
  for (;;) {
    const rec = await operatorOrder(ctx, req.order_id);
    const order = rec.data;
    if (order.status === req.status) return { ...orderView(order), account_id: rec.accountId }; // asked again: already there
    checkTransition(NEXT, `Order '${order.id}'`, order.status, req.status);
    const now = ctx.now().toISOString();
    const next: OrderRecord = { ...order, status: req.status, events: [...order.events, { type: req.status, at: now, ...(req.reason ? { reason: req.reason } : {}) }] };
    if (req.status === 'shipped') {
      const t = req.tracking!;
      next.tracking = { carrier: t.carrier, service: t.service ?? null, number: t.number, url: t.url ?? null, shipped_at: now, delivered_at: null };
    }
    if (req.status === 'delivered') {
      next.delivered_at = now;
      if (next.tracking) next.tracking = { ...next.tracking, delivered_at: now };
    }
    if (req.status === 'cancelled' || req.status === 'refunded') {
      if (!order._refund_id) {
        const processor = processorOf(ctx, 'No payment processor is configured to refund through.');
        // one refund per order, whoever asks and however often (the processor's idempotency)
        const refund = await processor.refund({ payment_id: order._payment_intent_id, idempotency_key: `${order.id}_refund`, reason: req.reason ?? req.status });
        next._refund_id = refund.id;
      }
    }
    try {
      await ctx.store.orders.update(rec.accountId, order.id, next, { expectedVersion: rec.version, events: [newEvent(ctx, 'order.status_changed', orderView(next))] });
      ctx.notifyJobs();
      return { ...orderView(next), account_id: rec.accountId };
    } catch (err) {
      if (!isStoreError(err, 'conflict')) throw err; // another operator action meanwhile: look again
    }
  }
}
