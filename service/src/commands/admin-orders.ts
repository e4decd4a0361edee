// `kerf admin order ...`: the operator's order actions (docs/api.md "Operator actions") from the
// command line, through the same use cases as /v1/admin/orders, against the configured store and
// payment processor (a refund goes through it). The status change's order.status_changed event waits
// in the store's outbox until a running service relays it.
import { parseArgs } from 'node:util';
import { stderr } from 'node:process';
import { adminGetOrder, adminUpdateOrder, listOrders } from '@kerf/usecases';
import { fail, OPERATOR, runOperatorAction } from './operator-cli.ts';

export const ORDER_USAGE = `  kerf admin order list --email EMAIL [--limit N] [--cursor C]
      the account's orders, newest first ({object:"list",data,has_more,next_cursor})
  kerf admin order show ORDER_ID
  kerf admin order set-status ORDER_ID --status in_production|ready_for_pickup|shipped|delivered|cancelled|refunded
      [--carrier C --number N [--service S] [--url U]] (shipped)  [--reason TEXT]
      cancelled and refunded refund the payment through the processor; prints the order as JSON.
`;

export async function runOrder(args: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args, allowPositionals: true, strict: true,
      options: { email: { type: 'string' }, limit: { type: 'string' }, cursor: { type: 'string' }, status: { type: 'string' }, carrier: { type: 'string' }, service: { type: 'string' }, number: { type: 'string' }, url: { type: 'string' }, reason: { type: 'string' } },
    });
  } catch (err) {
    return fail('invalid_arguments', (err as Error).message, 2);
  }
  const [action, orderId, ...extra] = parsed.positionals as [string?, string?, ...string[]];
  const listing = action === 'list' && !orderId && parsed.values.email !== undefined;
  if (!listing && (!orderId || extra.length || (action !== 'show' && action !== 'set-status'))) {
    stderr.write(`usage:\n${ORDER_USAGE}`);
    return 2;
  }
  const o = parsed.values;
  return runOperatorAction(async (ctx, store) => {
    if (listing) {
      const account = await store.accounts.findByEmail(o.email!);
      if (!account) return fail('account_not_found', `no account with email ${o.email}`, 1);
      const limit = o.limit === undefined ? undefined : Number(o.limit);
      return listOrders(ctx, { ...OPERATOR, accountId: account.id }, { ...(limit !== undefined ? { limit } : {}), ...(o.cursor ? { cursor: o.cursor } : {}) });
    }
    return action === 'show'
      ? adminGetOrder(ctx, OPERATOR, { order_id: orderId! })
      : adminUpdateOrder(ctx, OPERATOR, {
        order_id: orderId!, status: o.status as never,
        ...(o.carrier !== undefined || o.number !== undefined ? { tracking: { carrier: o.carrier ?? '', number: o.number ?? '', ...(o.service ? { service: o.service } : {}), ...(o.url ? { url: o.url } : {}) } } : {}),
        ...(o.reason ? { reason: o.reason } : {}),
      });
  });
}
