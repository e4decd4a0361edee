// GET /v1/account (contract.md "Account"): who the caller is and whether a card is on file; with no
// card, where to save one (the processor's hosted page). Readable with any scope (interface.md 5.6).
import type { Caller } from './caller.ts';
import { processorOf } from './charge-once.ts';
import type { UseCaseContext } from './context.ts';
import { notFound } from './errors.ts';
import type { SavedCard } from './payments.ts';

export interface AccountView {
  id: string;
  object: 'account';
  email: string;
  name: string;
  has_saved_card: boolean;
  card: SavedCard | null;
  /** only when no card is saved; null otherwise */
  payment_method_setup_url: string | null;
  dropship: { status: string } | null;
}

export async function getAccount(ctx: UseCaseContext, caller: Caller): Promise<AccountView> {
  const account = await ctx.store.accounts.get(caller.accountId);
  if (!account) throw notFound('account', caller.accountId);
  const processor = processorOf(ctx);
  const saved = await processor.savedCard(account.id);
  const setupUrl = saved.has_saved_card ? null : await processor.paymentMethodSetupUrl({ id: account.id, email: account.email, name: account.name });
  return {
    id: account.id, object: 'account', email: account.email, name: account.name,
    has_saved_card: saved.has_saved_card, card: saved.card, payment_method_setup_url: setupUrl,
    dropship: account.dropshipStatus ? { status: account.dropshipStatus } : null,
  };
}
