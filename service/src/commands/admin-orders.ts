// `kerf admin order ...`: the operator's order actions (contract.md "Operator surface") from the
// command line, through the same use cases as /v1/admin/orders, against the configured store and
// payment processor (a refund goes through it). The status change's order.status_changed event waits
// in the store's outbox until a running service relays it.
import { parseArgs } from 'node:util';
import { stderr, stdout } from 'node:process';
import { paymentProcessorFromEnv } from '@kerf/payments';
import { restLinks } from '@kerf/rest/links';
import { openStore, storeConfigFromEnv } from '@kerf/store';
import { adminGetOrder, adminUpdateOrder, listOrders, localCaller, newId, UseCaseError, type CommerceContext, type Caller } from '@kerf/usecases';
import { configFromEnv } from '../config.ts';

export const ORDER_USAGE = `  kerf admin order list --email EMAIL [--limit N] [--cursor C]
      the account's orders, newest first ({object:"list",data,has_more,next_cursor})
  kerf admin order show ORDER_ID
  kerf admin order set-status ORDER_ID --status in_production|ready_for_pickup|shipped|delivered|cancelled|refunded
      [--carrier C --number N [--service S] [--url U]] (shipped)  [--reason TEXT]
      cancelled and refunded refund the payment through the processor; prints the order as JSON.
`;

/** The machine's operator: whoever can run the CLI against the store. */
const OPERATOR: Caller = { ...localCaller(), operator: true };

function fail(code: string, message: string, exit: number): number {
  stderr.write(JSON.stringify({ error: { code, message } }) + '\n');
  return exit;
}

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
  const config = configFromEnv();
  const store = await openStore(storeConfigFromEnv());
  const payments = paymentProcessorFromEnv({ store, baseUrl: config.baseUrl });
  const ctx: CommerceContext = { store, links: restLinks(config.baseUrl), now: () => new Date(), newId, payments, notifyJobs: () => {} };
  try {
    if (listing) {
      const account = await store.accounts.findByEmail(o.email!);
      if (!account) return fail('account_not_found', `no account with email ${o.email}`, 1);
      const limit = o.limit === undefined ? undefined : Number(o.limit);
      const page = await listOrders(ctx, { ...OPERATOR, accountId: account.id }, { ...(limit !== undefined ? { limit } : {}), ...(o.cursor ? { cursor: o.cursor } : {}) });
      stdout.write(JSON.stringify(page) + '\n');
      return 0;
    }
    const order = action === 'show'
      ? await adminGetOrder(ctx, OPERATOR, { order_id: orderId! })
      : await adminUpdateOrder(ctx, OPERATOR, {
        order_id: orderId!, status: o.status as never,
        ...(o.carrier !== undefined || o.number !== undefined ? { tracking: { carrier: o.carrier ?? '', number: o.number ?? '', ...(o.service ? { service: o.service } : {}), ...(o.url ? { url: o.url } : {}) } } : {}),
        ...(o.reason ? { reason: o.reason } : {}),
      });
    stdout.write(JSON.stringify(order) + '\n');
    return 0;
  } catch (err) {
    if (err instanceof UseCaseError) return fail(err.code, err.param ? `${err.param}: ${err.message}` : err.message, err.kind === 'invalid' ? 2 : 1);
    throw err;
  } finally {
    await payments.close();
    await store.close();
  }
}
