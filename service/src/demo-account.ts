// The first start on an empty store creates a demo account and shows its key once.
import { isStoreError, type Store } from '@kerf/store';

export const DEMO_EMAIL = 'demo@kerf.local';

/** The new demo key, or null when the store already had accounts (or another process made it). */
export async function ensureDemoAccount(store: Store): Promise<{ account_id: string; api_key: string } | null> {
  if ((await store.accounts.count()) > 0) return null;
  try {
    const account = await store.accounts.create({ email: DEMO_EMAIL, name: 'Demo' });
    const key = await store.apiKeys.create(account.id, { label: 'demo' });
    return key ? { account_id: account.id, api_key: key.api_key } : null;
  } catch (err) {
    if (isStoreError(err, 'duplicate')) return null;
    throw err;
  }
}
