// `kerf admin dropship ...`: the operator's dropship actions (docs/api.md "Operator actions") from
// the command line, through the same use cases as /v1/admin/dropship, against the configured store
// and payment processor (shipping charges and refunds go through it). Events wait in the store's
// outbox until a running service relays them. Making an item from a sample order needs the
// engine's material catalog: that one is POST /v1/admin/dropship/items.
import { parseArgs } from 'node:util';
import { stderr } from 'node:process';
import {
  adminApproveDropshipItem, adminGetDropshipOrder, adminReleaseDropshipOrder, adminSetDropshipStatus, adminUpdateDropshipOrder, UseCaseError,
} from '@kerf/usecases';
import { fail, OPERATOR, runOperatorAction } from './operator-cli.ts';

export const DROPSHIP_USAGE = `  kerf admin dropship account --email EMAIL --status requested|approved|suspended|denied [--phone PHONE]
      the account's dropship status (and contact phone, used for a ship_to without one)
  kerf admin dropship approve-item ITEM_ID --price CENTS [--committed QUANTITY]
      locks the unit price; --committed makes a contract item of that many prepaid units
  kerf admin dropship show ORDER_ID
  kerf admin dropship release ORDER_ID
      factory release of a held contract order (it moves to in_production)
  kerf admin dropship set-status ORDER_ID --status in_review|in_production|shipped|delivered|cancelled
      [--carrier C --number N [--url U] --shipping-cost CENTS] (shipped: the shipping cost is charged to the order's card)
      [--reason TEXT] (cancelled refunds the parts charge); prints the order as JSON.
`;

const ACTIONS = ['account', 'approve-item', 'show', 'release', 'set-status'];

function cents(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) throw new UseCaseError('invalid', 'invalid_request_error', 'parameter_invalid', `${flag} takes a whole number of cents or units.`, { param: flag });
  return Number(value);
}

export async function runDropship(args: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args, allowPositionals: true, strict: true,
      options: {
        email: { type: 'string' }, status: { type: 'string' }, phone: { type: 'string' }, price: { type: 'string' }, committed: { type: 'string' },
        carrier: { type: 'string' }, number: { type: 'string' }, url: { type: 'string' }, 'shipping-cost': { type: 'string' }, reason: { type: 'string' },
      },
    });
  } catch (err) {
    return fail('invalid_arguments', (err as Error).message, 2);
  }
  const [action, id, ...extra] = parsed.positionals as [string?, string?, ...string[]];
  const needsId = action !== 'account';
  if (!action || !ACTIONS.includes(action) || extra.length || (needsId ? !id : id !== undefined || parsed.values.email === undefined)) {
    stderr.write(`usage:\n${DROPSHIP_USAGE}`);
    return 2;
  }
  const o = parsed.values;
  return runOperatorAction(async (ctx, store) => {
    if (action === 'account') {
      const account = await store.accounts.findByEmail(o.email!);
      if (!account) return fail('account_not_found', `no account with email ${o.email}`, 1);
      return adminSetDropshipStatus(ctx, OPERATOR, { account_id: account.id, status: o.status as never, ...(o.phone ? { phone: o.phone } : {}) });
    }
    if (action === 'approve-item') {
      const committed = cents(o.committed, '--committed');
      return adminApproveDropshipItem(ctx, OPERATOR, { item_id: id!, unit_price_cents: cents(o.price, '--price') as number, ...(committed !== undefined ? { committed_quantity: committed } : {}) });
    }
    if (action === 'show') return adminGetDropshipOrder(ctx, OPERATOR, { order_id: id! });
    if (action === 'release') return adminReleaseDropshipOrder(ctx, OPERATOR, { order_id: id! });
    const cost = cents(o['shipping-cost'], '--shipping-cost');
    return adminUpdateDropshipOrder(ctx, OPERATOR, {
      order_id: id!, status: o.status as never,
      ...(o.carrier !== undefined || o.number !== undefined ? { tracking: { carrier: o.carrier ?? '', number: o.number ?? '', ...(o.url ? { url: o.url } : {}) } } : {}),
      ...(cost !== undefined ? { shipping_cost_cents: cost } : {}),
      ...(o.reason ? { reason: o.reason } : {}),
    });
  });
}
