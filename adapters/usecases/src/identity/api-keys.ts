// API keys on the account page: list, create (the plaintext shown once) and revoke. Only the person
// manages keys (an API key or their web session), never an agent (requireAccountOwner).
import { requireAccountOwner, type Caller, type UseCaseContext, notFound, ApiKeyCreate, ApiKeyInput, validateInput } from '../core/index.ts';

export interface ApiKeyView { id: string; object: 'api_key'; label: string | null; prefix: string; created_at: string; last_used_at: string | null }

const view = (k: { id: string; label: string | null; prefix: string; createdAt: string; lastUsedAt: string | null }): ApiKeyView =>
  ({ id: k.id, object: 'api_key', label: k.label, prefix: k.prefix, created_at: k.createdAt, last_used_at: k.lastUsedAt });

/** The account's live keys (revoked ones are gone for good), newest first. */
export async function listApiKeys(ctx: UseCaseContext, caller: Caller): Promise<ApiKeyView[]> {
  requireAccountOwner(caller);
  const keys = await ctx.store.apiKeys.list(caller.accountId);
  return keys.filter((k) => !k.revokedAt).map(view).sort((a, b) => b.created_at.localeCompare(a.created_at));
}

/** A new (non-operator) key; `api_key` is the plaintext, which cannot be read back later. */
export async function createApiKey(ctx: UseCaseContext, caller: Caller, input: unknown): Promise<ApiKeyView & { api_key: string }> {
  requireAccountOwner(caller);
  const q = validateInput(ApiKeyCreate, input ?? {});
  const key = await ctx.store.apiKeys.create(caller.accountId, { label: q.label?.trim() || undefined });
  if (!key) throw notFound('account', caller.accountId);
  return { ...view(key), api_key: key.api_key };
}

export async function revokeApiKey(ctx: UseCaseContext, caller: Caller, input: unknown): Promise<void> {
  requireAccountOwner(caller);
  const q = validateInput(ApiKeyInput, input);
  if (!(await ctx.store.apiKeys.revoke(caller.accountId, q.api_key_id))) throw notFound('api_key', q.api_key_id, 'api_key_id');
}
