// GET /v1/account (docs/api.md "Account"): who the caller is and whether a card is on file; with no
// card, where to save one (the processor's hosted page). Readable with any scope.
import {
  requireAccountOwner, type Caller, type UseCaseContext, notFound, CardSetupInput, RemoveCardInput,
  validateInput, type objects,
} from '../core/index.ts';
import { processorOf } from './charge-once.ts';
import { isStoreError, type Account } from '@kerf/store';

/** How long one setup page link is handed out again (Stripe's Checkout sessions live 24 h). */
const SETUP_LINK_REUSE_MS = 3_600_000;
const SETUP_LINKS = 'payment_setup_links';

/**
 * The account's setup page link: a recent one again, so that polling GET /v1/account does not open
 * a processor session (a Stripe API call) every time.
 */
async function setupUrlOf(ctx: UseCaseContext, account: Account): Promise<string> {
  const links = ctx.store.documents<{ url: string; created_at: string }>(SETUP_LINKS);
  const rec = await links.getByKey(account.id, 'current');
  const now = ctx.now();
  if (rec && now.getTime() - Date.parse(rec.data.created_at) < SETUP_LINK_REUSE_MS) return rec.data.url;
  const url = await processorOf(ctx).paymentMethodSetupUrl({ id: account.id, email: account.email, name: account.name });
  const data = { url, created_at: now.toISOString() };
  if (rec) await links.update(account.id, rec.id, data);
  else {
    await links.create(account.id, data, { key: 'current' }).catch((err: unknown) => {
      if (!isStoreError(err, 'duplicate')) throw err; // a concurrent GET stored its own: either link works
    });
  }
  return url;
}

/** GET /v1/account (its schema: objects.Account). */
export type AccountView = objects.Account;

export async function getAccount(ctx: UseCaseContext, caller: Caller): Promise<AccountView> {
  const account = await ctx.store.accounts.get(caller.accountId);
  if (!account) throw notFound('account', caller.accountId);
  const processor = processorOf(ctx);
  const saved = await processor.savedCard(account.id);
  // the setup page saves a card on the person's account, which agent credentials may not do
  // (requireAccountOwner): an agent sees whether a card is saved, never the page that saves one
  const setupUrl = saved.has_saved_card || caller.via === 'oauth' ? null : await setupUrlOf(ctx, account);
  return {
    id: account.id, object: 'account', email: account.email, name: account.name,
    has_saved_card: saved.has_saved_card, card: saved.card, payment_method_setup_url: setupUrl,
    dropship: account.dropshipStatus ? { status: account.dropshipStatus } : null,
  };
}

// ---- the saved card on the account page: replace (a new one from the processor's page) and remove.
// Only the person, never an agent (requireAccountOwner); the newest saved card is the one charged.

/** A fresh setup page of the processor (a replacement card becomes the saved card), sending the person back to return_url. */
export async function startCardSetup(ctx: UseCaseContext, caller: Caller, input: unknown): Promise<{ url: string }> {
  requireAccountOwner(caller);
  const q = validateInput(CardSetupInput, input ?? {});
  const account = await ctx.store.accounts.get(caller.accountId);
  if (!account) throw notFound('account', caller.accountId);
  const url = await processorOf(ctx).paymentMethodSetupUrl({ id: account.id, email: account.email, name: account.name }, q.return_url ? { return_url: q.return_url } : {});
  return { url };
}

/** Detaches every saved card: later payments need a new one (no_payment_method until then). */
export async function removeSavedCard(ctx: UseCaseContext, caller: Caller, input: unknown): Promise<void> {
  requireAccountOwner(caller);
  validateInput(RemoveCardInput, input ?? {});
  await processorOf(ctx).detachPaymentMethods(caller.accountId);
}
