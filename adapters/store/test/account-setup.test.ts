// ensureDemoAccount and createApiKeyForEmail on a real embedded store.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { createApiKeyForEmail, DEMO_ACCOUNT_EMAIL, ensureDemoAccount, openStore } from '../src/index.ts';

async function withStore(fn: (dataDir: string) => Promise<void>): Promise<void> {
  const dataDir = await mkdtemp(join(tmpdir(), 'kerf-setup-'));
  try {
    await fn(dataDir);
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}

describe('account setup', () => {
  it('creates the demo account once, on an empty store only', () => withStore(async (dataDir) => {
    const store = await openStore({ dataDir });
    const demo = await ensureDemoAccount(store);
    assert.ok(demo);
    assert.equal((await store.apiKeys.authenticate(demo.api_key))?.accountId, demo.account_id);
    assert.equal((await store.accounts.get(demo.account_id))?.email, DEMO_ACCOUNT_EMAIL);
    assert.equal(await ensureDemoAccount(store), null);
    await store.close();
    const reopened = await openStore({ dataDir });
    assert.equal(await ensureDemoAccount(reopened), null, 'not again after a restart');
    await reopened.close();
  }));

  it('makes no demo account on a store that already has accounts', () => withStore(async (dataDir) => {
    const store = await openStore({ dataDir });
    await store.accounts.create({ email: 'real@example.com' });
    assert.equal(await ensureDemoAccount(store), null);
    assert.equal(await store.accounts.findByEmail(DEMO_ACCOUNT_EMAIL), null);
    await store.close();
  }));

  it('of two processes starting together on an empty store, exactly one creates the demo account', () => withStore(async (dataDir) => {
    const [s1, s2] = [await openStore({ dataDir }), await openStore({ dataDir })];
    const results = await Promise.all([ensureDemoAccount(s1), ensureDemoAccount(s2)]);
    assert.equal(results.filter(Boolean).length, 1);
    assert.equal(await s1.accounts.count(), 1);
    await s1.close();
    await s2.close();
  }));

  it('issues keys per email, creating the account once', () => withStore(async (dataDir) => {
    const store = await openStore({ dataDir });
    const a = await createApiKeyForEmail(store, { email: 'New@Example.com', name: 'New' });
    assert.equal(a.created_account, true);
    const b = await createApiKeyForEmail(store, { email: 'new@example.com', operator: true, label: 'ops' });
    assert.equal(b.created_account, false);
    assert.equal(b.account_id, a.account_id);
    assert.equal((await store.accounts.get(a.account_id))?.operator, true);
    assert.equal((await store.apiKeys.authenticate(b.api_key))?.operator, true);
    await store.close();
  }));
});
