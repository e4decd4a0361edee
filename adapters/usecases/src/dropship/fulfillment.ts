// Operator actions on dropship orders (docs/api.md "Operator actions"):
// factory release of held contract orders, in_review, in_production, shipped (tracking and the real
// shipping cost, charged to the same card: a failed charge emits order.payment_failed and the order
// still ships), delivered, cancelled (parts refunded). Each change records its event in the same write.
import { isStoreError, type DocumentRecord, type OutboxEvent } from '@kerf/store';
import {
  type Caller, UseCaseError, invalid, notFound, type Payment, AdminDropshipOrderUpdate, DropshipOrderInput, validateInput,
  newEvent,
} from '../core/index.ts';
import { processorOf, checkTransition, requireOperator, type CommerceContext } from '../commerce/index.ts';
import { releaseContract } from './items.ts';
import { dropshipOrders, dropshipOrderView, eventOrder, type DropshipCharge, type DropshipOrderDoc, type DropshipOrderStatus } from './orders.ts';

const NEXT: Record<DropshipOrderStatus, readonly DropshipOrderStatus[]> = {
  paid: ['in_review', 'in_production', 'shipped', 'cancelled'],
  in_review: ['in_production', 'shipped', 'cancelled'],
  in_production: ['shipped', 'cancelled'],
  shipped: ['delivered'],
  delivered: [],
  cancelled: [],
};

/** Statuses a held order may not reach before its factory release. */
const HELD_BACK: readonly DropshipOrderStatus[] = ['in_production', 'shipped', 'delivered'];

type Admin = DropshipOrderDoc & { account_id: string };

async function operatorOrder(ctx: Pick<CommerceContext, 'store'>, orderId: string): Promise<DocumentRecord<DropshipOrderDoc>> {
  const rec = await dropshipOrders(ctx).getUnscoped(orderId);
  if (!rec || rec.data.object !== 'dropship_order') throw notFound('dropship order', orderId, 'order_id');
  return rec;
}

export async function adminGetDropshipOrder(ctx: Pick<CommerceContext, 'store'>, caller: Caller, input: { order_id: string }): Promise<Admin> {
  requireOperator(caller);
  const { order_id } = validateInput(DropshipOrderInput, input, { location: 'params' });
  const rec = await operatorOrder(ctx, order_id);
  return { ...dropshipOrderView(rec.data), account_id: rec.accountId };
}

async function write(ctx: CommerceContext, rec: DocumentRecord<DropshipOrderDoc>, next: DropshipOrderDoc, events: OutboxEvent[]): Promise<Admin | null> {
  try {
    await dropshipOrders(ctx).update(rec.accountId, next.id, next, { expectedVersion: rec.version, events });
    if (events.length) ctx.notifyJobs();
    return { ...dropshipOrderView(next), account_id: rec.accountId };
  } catch (err) {
    if (!isStoreError(err, 'conflict')) throw err; // another operator action meanwhile: look again
    return null;
  }
}

/** Factory release of a contract order held for production: it moves to in_production. */
export async function adminReleaseDropshipOrder(ctx: CommerceContext, caller: Caller, input: { order_id: string }): Promise<Admin> {
  requireOperator(caller);
  const { order_id } = validateInput(DropshipOrderInput, input, { location: 'params' });
  for (;;) {
    const rec = await operatorOrder(ctx, order_id);
    const order = rec.data;
    if (!order.production_hold) return { ...dropshipOrderView(order), account_id: rec.accountId };
    const moves = order.status === 'paid' || order.status === 'in_review';
    const next: DropshipOrderDoc = { ...order, production_hold: false, status: moves ? 'in_production' : order.status };
    const done = await write(ctx, rec, next, moves ? [newEvent(ctx, 'order.in_production', { order: eventOrder(next) })] : []);
    if (done) return done;
  }
}

/** The shipping charge to the order's card, once per order (its processor key); a failure is an outcome, not an error. */
async function chargeShipping(ctx: CommerceContext, accountId: string, order: DropshipOrderDoc, amount: number): Promise<{ payment: Payment | null; error: string | null }> {
  const processor = processorOf(ctx, 'No payment processor is configured to charge shipping through.');
  const account = await ctx.store.accounts.get(accountId);
  try {
    const payment = await processor.charge({
      account: { id: accountId, email: account?.email ?? null, name: account?.name ?? null }, amount_cents: amount, currency: 'usd',
      idempotency_key: `${order.id}_shipping`, payment_method: null, description: `Kerf dropship ${order.external_ref} shipping`,
      metadata: { dropship_order_id: order.id, external_ref: order.external_ref, account_id: accountId, kind: 'shipping' },
    });
    if (payment.status === 'succeeded' || payment.status === 'processing') return { payment, error: null };
    return { payment, error: payment.decline_reason ?? payment.failure_code ?? 'declined' };
  } catch (err) {
    if (err instanceof UseCaseError && err.code === 'no_payment_method') return { payment: null, error: 'no_payment_method' };
    throw err;
  }
}

/** An operator moves a dropship order on; asking again for the status it has answers it unchanged. */
export async function adminUpdateDropshipOrder(ctx: CommerceContext, caller: Caller, input: AdminDropshipOrderUpdate): Promise<Admin> {
  requireOperator(caller);
  const req = validateInput(AdminDropshipOrderUpdate, input);
  if (req.status === 'shipped' && !req.tracking) throw invalid('parameter_missing', "Shipping needs the parcel's tracking: 'tracking.carrier' and 'tracking.number' (url when known).", 'tracking');
  if (req.status === 'shipped' && req.shipping_cost_cents === undefined) throw invalid('parameter_missing', "Shipping needs the real parcel and label cost: 'shipping_cost_cents', charged to the order's card.", 'shipping_cost_cents');
  if (req.status !== 'shipped' && (req.tracking || req.shipping_cost_cents !== undefined)) throw invalid('parameter_unknown', "'tracking' and 'shipping_cost_cents' are given only with status 'shipped'.", req.tracking ? 'tracking' : 'shipping_cost_cents');
  for (;;) {
    const rec = await operatorOrder(ctx, req.order_id);
    const order = rec.data;
    if (order.status === req.status) return { ...dropshipOrderView(order), account_id: rec.accountId };
    checkTransition(NEXT, `Dropship order '${order.id}'`, order.status, req.status);
    if (order.production_hold && HELD_BACK.includes(req.status)) {
      throw new UseCaseError('conflict', 'invalid_request_error', 'order_on_production_hold',
        `Dropship order '${order.id}' is on production hold (a contract order); release it for the factory first.`, { param: 'status' });
    }
    const now = ctx.now().toISOString();
    const next: DropshipOrderDoc = { ...order, status: req.status };
    const events: OutboxEvent[] = [];
    if (req.status === 'shipped') {
      const t = req.tracking!;
      const amount = req.shipping_cost_cents!;
      next.tracking = { carrier: t.carrier, number: t.number, url: t.url ?? null };
      next.shipped_at = now;
      if (amount === 0) next.shipping = { status: 'charged', amount_cents: 0 };
      else {
        const { payment, error } = await chargeShipping(ctx, rec.accountId, order, amount);
        const charge: DropshipCharge | null = payment
          ? { kind: 'shipping', amount_cents: amount, status: error ? 'failed' : payment.status === 'succeeded' ? 'succeeded' : 'processing', processor_payment_intent_id: payment.id, created_at: payment.created_at }
          : null;
        next.charges = [...order.charges.filter((c) => c.kind !== 'shipping'), ...(charge ? [charge] : [])];
        next.shipping = { status: error ? 'failed' : 'charged', amount_cents: amount };
        events.push(newEvent(ctx, 'order.shipped', { order: eventOrder(next) }));
        if (error) events.push(newEvent(ctx, 'order.payment_failed', { order: { id: next.id, external_ref: next.external_ref, status: next.status }, charge: { kind: 'shipping', amount_cents: amount, error } }));
      }
      if (!events.length) events.push(newEvent(ctx, 'order.shipped', { order: eventOrder(next) }));
    } else if (req.status === 'delivered') {
      next.delivered_at = now;
      events.push(newEvent(ctx, 'order.delivered', { order: eventOrder(next) }));
    } else if (req.status === 'cancelled') {
      next.cancelled_at = now;
      next.production_hold = false;
      next.charges = await refundParts(ctx, order, req.reason ?? null);
      if (order.contract) await releaseContract(ctx, rec.accountId, order.item_id, order.external_ref);
      events.push(newEvent(ctx, 'order.cancelled', { order: eventOrder(next) }));
    } else {
      events.push(newEvent(ctx, req.status === 'in_review' ? 'order.in_review' : 'order.in_production', { order: eventOrder(next) }));
    }
    const done = await write(ctx, rec, next, events);
    if (done) return done;
  }
}

/** A cancelled order's parts charge is refunded in full, once (the processor's idempotency by order). */
async function refundParts(ctx: CommerceContext, order: DropshipOrderDoc, reason: string | null): Promise<DropshipCharge[]> {
  const out: DropshipCharge[] = [];
  for (const charge of order.charges) {
    if (charge.kind !== 'parts' || charge.status !== 'succeeded') { out.push(charge); continue; }
    await processorOf(ctx, 'No payment processor is configured to refund through.').refund({ payment_id: charge.processor_payment_intent_id, idempotency_key: `${order.id}_refund`, reason: reason ?? 'cancelled' });
    out.push({ ...charge, status: 'refunded' });
  }
  return out;
}
