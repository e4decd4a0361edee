// @kerf/store: the store port and its two implementations. Callers depend on the port (./port.ts)
// and get a Store from openStore(); which database backs it is configuration, not code.
import type { Store, StoreConfig } from './port.ts';

export * from './port.ts';

/**
 * Opens the configured store: MongoDB when `mongodbUrl` is set, else the embedded SQLite store
 * under `dataDir` (default './data'), created and migrated on first open.
 * Fails with StoreError 'store_unavailable' when the database cannot be reached or opened.
 */
export async function openStore(config: StoreConfig = {}): Promise<Store> {
  // Loaded on demand so that the embedded store never loads the MongoDB driver and vice versa.
  if (config.mongodbUrl) return (await import('./mongodb/store.ts')).open(config);
  return (await import('./sqlite/store.ts')).open(config);
}

/** Store configuration from the environment: KERF_DATA_DIR and MONGODB_URL. */
export function storeConfigFromEnv(env: NodeJS.ProcessEnv = process.env): StoreConfig {
  const config: StoreConfig = { dataDir: env.KERF_DATA_DIR || './data' };
  if (env.MONGODB_URL) config.mongodbUrl = env.MONGODB_URL;
  return config;
}

export { createApiKeyForEmail, ensureDemoAccount, DEMO_ACCOUNT_EMAIL, type IssuedKey, type KeyForEmail } from './accountSetup.ts';
