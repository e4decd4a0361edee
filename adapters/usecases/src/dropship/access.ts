// Who may use /v1/dropship: an account whose dropship status is approved. The
// operator moves accounts between requested, approved, suspended and denied.
import type { Account } from '@kerf/store';
import { requireScope, type Caller, UseCaseError, notFound, AdminDropshipAccountUpdate, validateInput, type objects } from '../core/index.ts';
import { type CommerceContext, requireOperator } from '../commerce/index.ts';
import { setContactPhone } from './contacts.ts';

/** The caller's account when it may use the dropship API; 403 dropship_account_not_approved otherwise. */
export async function requireDropship(ctx: Pick<CommerceContext, 'store'>, caller: Caller): Promise<Account> {
  // the dropship API takes the account's API key, not an agent's OAuth token
  if (caller.via === 'oauth') {
    throw new UseCaseError('forbidden', 'permission_error', 'api_key_required', 'The dropship API takes the account\'s API key (Authorization: Bearer <API key> or svc_key), not an OAuth access token.');
  }
  requireScope(caller, 'orders');
  const account = await ctx.store.accounts.get(caller.accountId);
  if (!account) throw notFound('account', caller.accountId);
  if (account.dropshipStatus !== 'approved') {
    const status = account.dropshipStatus ?? 'not requested';
    throw new UseCaseError('forbidden', 'permission_error', 'dropship_account_not_approved',
      `This account's dropship access is ${status}; only approved accounts may use /v1/dropship.`, { details: { dropship_status: account.dropshipStatus } });
  }
  return account;
}

/** The account as an operator's dropship action answers it (its schema: objects.DropshipAccount). */
export type DropshipAccountView = objects.DropshipAccount;

/** Operator: request, approve, suspend or deny an account's dropship access. */
export async function adminSetDropshipStatus(ctx: Pick<CommerceContext, 'store' | 'newId'>, caller: Caller, input: AdminDropshipAccountUpdate): Promise<DropshipAccountView> {
  requireOperator(caller);
  const req = validateInput(AdminDropshipAccountUpdate, input);
  const account = await ctx.store.accounts.update(req.account_id, { dropshipStatus: req.status });
  if (!account) throw notFound('account', req.account_id, 'account_id');
  if (req.phone) await setContactPhone(ctx, account.id, req.phone);
  return { id: account.id, object: 'account', email: account.email, name: account.name, dropship: account.dropshipStatus ? { status: account.dropshipStatus } : null };
}
