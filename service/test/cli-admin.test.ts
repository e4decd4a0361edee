// `kerf admin ...` spawned as a user would run it, against a temporary embedded store. The CLI is
// the service's (moved here from adapters/store/test/admin-cli.test.ts); the store's own tests call
// its functions.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { kerf } from './support/kerf.ts';
import { openStore } from '@kerf/store';
// The wire fake is the store's test support (it needs the store's devDependency mingo, which only
// adapters/store/node_modules has); reached by relative path until @kerf/store offers it as an entry.
import { startMongoWireFake } from '@kerf/store/testing';

describe('kerf admin', () => {
  let dataDir: string;
  before(async () => { dataDir = await mkdtemp(join(tmpdir(), 'kerf-admin-')); });
  after(async () => { await rm(dataDir, { recursive: true, force: true }); });

  it('create-api-key prints {account_id, api_key} that authenticates against the configured store', async () => {
    const r = await kerf(['admin', 'create-api-key', '--email', 'Buyer@Example.com', '--name', 'Buyer Co'], { KERF_DATA_DIR: dataDir });
    assert.equal(r.code, 0, r.stderr);
    const out = JSON.parse(r.stdout) as { account_id: string; api_key: string };
    assert.deepEqual(Object.keys(out).sort(), ['account_id', 'api_key']);
    assert.match(out.api_key, /^kerf_live_/);
    const store = await openStore({ dataDir });
    try {
      assert.deepEqual(await store.apiKeys.authenticate(out.api_key), { accountId: out.account_id, keyId: (await store.apiKeys.list(out.account_id))[0].id, operator: false });
      const account = await store.accounts.get(out.account_id);
      assert.equal(account?.email, 'buyer@example.com');
      assert.equal(account?.name, 'Buyer Co');
    } finally {
      await store.close();
    }
  });

  it('a second key for the same email reuses the account; --operator makes an operator key', async () => {
    const first = JSON.parse((await kerf(['admin', 'create-api-key', '--email', 'ops@example.com'], { KERF_DATA_DIR: dataDir })).stdout);
    const r = await kerf(['admin', 'create-api-key', '--email=OPS@example.com', '--operator'], { KERF_DATA_DIR: dataDir });
    assert.equal(r.code, 0, r.stderr);
    const second = JSON.parse(r.stdout);
    assert.equal(second.account_id, first.account_id);
    assert.notEqual(second.api_key, first.api_key);
    const store = await openStore({ dataDir });
    try {
      assert.equal((await store.apiKeys.authenticate(second.api_key))?.operator, true);
      assert.equal((await store.apiKeys.authenticate(first.api_key))?.operator, false, 'the earlier key keeps its rights');
    } finally {
      await store.close();
    }
  });

  it('lists and revokes keys without ever printing a plaintext again', async () => {
    const created = JSON.parse((await kerf(['admin', 'create-api-key', '--email', 'rev@example.com', '--label', 'ci'], { KERF_DATA_DIR: dataDir })).stdout);
    const list = await kerf(['admin', 'list-api-keys', '--email', 'rev@example.com'], { KERF_DATA_DIR: dataDir });
    assert.equal(list.code, 0, list.stderr);
    assert.ok(!list.stdout.includes(created.api_key));
    const keys = JSON.parse(list.stdout).api_keys as { id: string; label: string }[];
    assert.equal(keys[0].label, 'ci');
    const revoke = await kerf(['admin', 'revoke-api-key', '--email', 'rev@example.com', '--key-id', keys[0].id], { KERF_DATA_DIR: dataDir });
    assert.equal(revoke.code, 0, revoke.stderr);
    const again = await kerf(['admin', 'revoke-api-key', '--email', 'rev@example.com', '--key-id', keys[0].id], { KERF_DATA_DIR: dataDir });
    assert.equal(again.code, 1);
    assert.equal(JSON.parse(again.stderr).error.code, 'api_key_not_found');
  });

  it('answers bad usage with a JSON error and exit 2, a bad email with exit 1', async () => {
    const missing = await kerf(['admin', 'create-api-key'], { KERF_DATA_DIR: dataDir });
    assert.equal(missing.code, 2);
    assert.equal(JSON.parse(missing.stderr.split('\n')[0]).error.code, 'invalid_arguments');
    const unknown = await kerf(['admin', 'create-api-key', '--email', 'a@b.c', '--bogus'], { KERF_DATA_DIR: dataDir });
    assert.equal(unknown.code, 2);
    const sub = await kerf(['admin', 'drop-everything'], { KERF_DATA_DIR: dataDir });
    assert.equal(sub.code, 2);
    assert.equal(JSON.parse(sub.stderr.split('\n')[0]).error.code, 'unknown_command');
    const bad = await kerf(['admin', 'create-api-key', '--email', 'not-an-email'], { KERF_DATA_DIR: dataDir });
    assert.equal(bad.code, 1);
    assert.deepEqual(JSON.parse(bad.stderr).error, { code: 'invalid_argument', message: "'not-an-email' is not an email address" });
    assert.equal(bad.stdout, '');
  });

  it('uses MongoDB when MONGODB_URL is set (here the in-process wire fake)', async () => {
    const fake = await startMongoWireFake();
    try {
      const r = await kerf(['admin', 'create-api-key', '--email', 'mongo@example.com'], { KERF_DATA_DIR: dataDir, MONGODB_URL: fake.url });
      assert.equal(r.code, 0, r.stderr);
      const out = JSON.parse(r.stdout) as { account_id: string; api_key: string };
      const store = await openStore({ mongodbUrl: fake.url });
      try {
        assert.equal(store.kind, 'mongodb');
        assert.equal((await store.apiKeys.authenticate(out.api_key))?.accountId, out.account_id);
      } finally {
        await store.close();
      }
      const embedded = await openStore({ dataDir });
      try {
        assert.equal(await embedded.accounts.findByEmail('mongo@example.com'), null, 'nothing written to the embedded store');
      } finally {
        await embedded.close();
      }
    } finally {
      await fake.close();
    }
  });

  it('fails with store_unavailable when MONGODB_URL points at nothing', async () => {
    const r = await kerf(['admin', 'create-api-key', '--email', 'x@example.com'], { KERF_DATA_DIR: dataDir, MONGODB_URL: 'mongodb://127.0.0.1:1/kerf?serverSelectionTimeoutMS=300' });
    assert.equal(r.code, 1);
    assert.equal(JSON.parse(r.stderr).error.code, 'store_unavailable');
  });
});
