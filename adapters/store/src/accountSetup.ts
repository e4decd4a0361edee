// Account provisioning shared by the admin CLI and the service's first start.
import { DEMO_ACCOUNT_EMAIL } from './common/constants.ts';
import { isStoreError, type Account, type Store } from './port.ts';

export { DEMO_ACCOUNT_EMAIL };

export interface IssuedKey {
  account_id: string;
  api_key: string;
}

/**
 * On an empty store, creates the demo account with one key and returns the plaintext (shown once).
 * null when the store already has accounts, or when another process starting at the same time
 * created the demo account first (the unique email decides).
 */
export async function ensureDemoAccount(store: Store): Promise<IssuedKey | null> {
  if ((await store.accounts.count()) > 0) return null;
  let account: Account;
  try {
    account = await store.accounts.create({ email: DEMO_ACCOUNT_EMAIL, name: 'Demo' });
  } catch (err) {
    if (isStoreError(err, 'duplicate')) return null;
    throw err;
  }
  const key = await store.apiKeys.create(account.id, { label: 'demo' });
  return key ? { account_id: account.id, api_key: key.api_key } : null;
}

export interface KeyForEmail extends IssuedKey {
  key_id: string;
  created_account: boolean;
}

/**
 * A new API key for the account with `email`, creating the account when there is none. With
 * `operator`, the account and the key both become operator (an operator key needs both).
 */
export async function createApiKeyForEmail(
  store: Store,
  opts: { email: string; name?: string; operator?: boolean; label?: string },
): Promise<KeyForEmail> {
  let account = await store.accounts.findByEmail(opts.email);
  let created = false;
  if (!account) {
    try {
      account = await store.accounts.create({ email: opts.email, name: opts.name, operator: opts.operator });
      created = true;
    } catch (err) {
      if (!isStoreError(err, 'duplicate')) throw err;
      account = await store.accounts.findByEmail(opts.email);
      if (!account) throw err;
    }
  }
  if (opts.operator && !account.operator) account = (await store.accounts.update(account.id, { operator: true })) ?? account;
  const key = await store.apiKeys.create(account.id, { label: opts.label, operator: opts.operator });
  if (!key) throw new Error(`account ${account.id} vanished while its key was being created`);
  return { account_id: account.id, api_key: key.api_key, key_id: key.id, created_account: created };
}
