// The oidc-provider storage Adapter over the store port: one contract, run on the embedded SQLite
// store and on the MongoDB store (the real driver against the store's wire stand-in).
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { openStore, type Store } from '@kerf/store';
import { startMongoWireFake } from '@kerf/store/testing';
import { oauthCollection, oauthCaller, oauthDocId } from '@kerf/usecases';
import { StoreAdapter } from '../src/adapter.ts';

const epoch = () => Math.floor(Date.now() / 1000);

function adapterContract(label: string, open: () => Promise<{ store: Store; done(): Promise<void> }>): void {
  describe(`oidc-provider Adapter contract: ${label}`, () => {
    let store: Store;
    let done: () => Promise<void>;
    let accountId: string;
    before(async () => {
      ({ store, done } = await open());
      accountId = (await store.accounts.create({ email: `adapter-${randomBytes(4).toString('hex')}@test.local` })).id;
    });
    after(async () => { await done(); });

    const grantFor = async (scope = 'designs quotes') => {
      const grants = new StoreAdapter(store, 'Grant');
      const grantId = randomBytes(12).toString('base64url');
      await grants.upsert(grantId, { jti: grantId, kind: 'Grant', accountId, clientId: 'c1', resources: { 'https://api': scope }, exp: epoch() + 3600 }, 3600);
      return grantId;
    };

    it('upsert then find returns the payload; the stored id is a digest, never the token', async () => {
      const tokens = new StoreAdapter(store, 'AccessToken');
      const grantId = await grantFor();
      const id = randomBytes(32).toString('base64url');
      await tokens.upsert(id, { jti: id, kind: 'AccessToken', accountId, grantId, scope: 'designs', exp: epoch() + 900 }, 900);
      assert.deepEqual(await tokens.find(id), { jti: id, kind: 'AccessToken', accountId, grantId, scope: 'designs', exp: (await tokens.find(id))!.exp });
      assert.equal(await store.documents('oauth_accesstoken').getUnscoped(id), null);
      assert.ok(await store.documents('oauth_accesstoken').getUnscoped(oauthDocId(id)));
      assert.equal(await tokens.find('unknown'), undefined);
      // a second upsert replaces the payload
      await tokens.upsert(id, { jti: id, kind: 'AccessToken', accountId, grantId, scope: 'designs dfm' }, 900);
      assert.equal((await tokens.find(id))!.scope, 'designs dfm');
    });

    it('expired records are gone', async () => {
      const codes = new StoreAdapter(store, 'AuthorizationCode', () => new Date(Date.now() + 120_000));
      await new StoreAdapter(store, 'AuthorizationCode').upsert('code-1', { jti: 'code-1', kind: 'AuthorizationCode' }, 60);
      assert.equal(await codes.find('code-1'), undefined);
      assert.ok(await new StoreAdapter(store, 'AuthorizationCode').find('code-1'));
    });

    it('findByUserCode and findByUid', async () => {
      const devices = new StoreAdapter(store, 'DeviceCode');
      await devices.upsert('dc-1', { jti: 'dc-1', kind: 'DeviceCode', userCode: 'ABCDEFGH' }, 600);
      assert.equal((await devices.findByUserCode('ABCDEFGH'))!.jti, 'dc-1');
      assert.equal(await devices.findByUserCode('ZZZZZZZZ'), undefined);
      const sessions = new StoreAdapter(store, 'Session');
      await sessions.upsert('s-1', { jti: 's-1', kind: 'Session', uid: 'uid-1' }, 600);
      assert.equal((await sessions.findByUid('uid-1'))!.jti, 's-1');
      await sessions.destroy('s-1');
      assert.equal(await sessions.find('s-1'), undefined);
      assert.equal(await sessions.findByUid('uid-1'), undefined);
    });

    it('consume marks once; a second consume is a reuse that revokes the grant', async () => {
      const grantId = await grantFor();
      const refresh = new StoreAdapter(store, 'RefreshToken');
      const access = new StoreAdapter(store, 'AccessToken');
      await refresh.upsert('rt-1', { jti: 'rt-1', kind: 'RefreshToken', accountId, grantId }, 3600);
      await access.upsert('at-1', { jti: 'at-1', kind: 'AccessToken', accountId, grantId, scope: 'designs' }, 900);
      assert.ok(await oauthCaller(store, 'at-1', new Date()));
      await refresh.consume('rt-1');
      assert.ok((await refresh.find('rt-1'))!.consumed);
      await assert.rejects(refresh.consume('rt-1'), (e: Error & { error?: string }) => e.error === 'invalid_grant');
      assert.equal(await refresh.find('rt-1'), undefined);
      assert.equal(await access.find('at-1'), undefined);
      assert.equal(await new StoreAdapter(store, 'Grant').find(grantId), undefined);
      assert.equal(await oauthCaller(store, 'at-1', new Date()), null);
    });

    it('concurrent consumes of one token: exactly one wins', async () => {
      const grantId = await grantFor();
      const refresh = new StoreAdapter(store, 'RefreshToken');
      await refresh.upsert('rt-2', { jti: 'rt-2', kind: 'RefreshToken', accountId, grantId }, 3600);
      const results = await Promise.allSettled([refresh.consume('rt-2'), new StoreAdapter(store, 'RefreshToken').consume('rt-2')]);
      assert.equal(results.filter((r) => r.status === 'fulfilled').length, 1, JSON.stringify(results.map((r) => r.status)));
    });

    it('revokeByGrantId removes every token of the grant and the grant, and only those', async () => {
      const a = await grantFor();
      const b = await grantFor();
      for (const [model, id, grantId] of [['AccessToken', 'at-a', a], ['RefreshToken', 'rt-a', a], ['AuthorizationCode', 'ac-a', a], ['AccessToken', 'at-b', b]] as const) {
        await new StoreAdapter(store, model).upsert(id, { jti: id, kind: model, accountId, grantId }, 600);
      }
      await new StoreAdapter(store, 'AccessToken').revokeByGrantId(a);
      for (const [model, id] of [['AccessToken', 'at-a'], ['RefreshToken', 'rt-a'], ['AuthorizationCode', 'ac-a'], ['Grant', a]] as const) {
        assert.equal(await new StoreAdapter(store, model).find(id), undefined, `${model} ${id}`);
      }
      assert.ok(await new StoreAdapter(store, 'AccessToken').find('at-b'));
      assert.ok(await new StoreAdapter(store, 'Grant').find(b));
    });

    it("a connection's expired tokens are deleted when it gets a new one", async () => {
      const grantId = await grantFor();
      const later = () => new Date(Date.now() + 2 * 60 * 60 * 1000);
      await new StoreAdapter(store, 'AccessToken').upsert('at-old', { jti: 'at-old', kind: 'AccessToken', accountId, grantId }, 60);
      await new StoreAdapter(store, 'AccessToken').upsert('at-live', { jti: 'at-live', kind: 'AccessToken', accountId, grantId }, 6 * 60 * 60);
      await new StoreAdapter(store, 'AccessToken', later).upsert('at-new', { jti: 'at-new', kind: 'AccessToken', accountId, grantId }, 900);
      const left = (await store.documents('oauth_accesstoken').list(`grant:${grantId}`)).items.map((d) => d.id).sort();
      assert.deepEqual(left, [oauthDocId('at-live'), oauthDocId('at-new')].sort());
    });

    it('a grant is listed under its account and keeps its last use across rewrites', async () => {
      const grantId = await grantFor('designs');
      const grants = oauthCollection(store, 'Grant');
      const doc = (await grants.get(accountId, oauthDocId(grantId)))!;
      await grants.update(accountId, doc.id, { ...doc.data, lastUsedAt: '2026-11-24T00:00:00.000Z' });
      await new StoreAdapter(store, 'Grant').upsert(grantId, { ...doc.data.payload, resources: { 'https://api': 'designs dfm' } }, 3600);
      const again = (await grants.get(accountId, oauthDocId(grantId)))!;
      assert.equal(again.data.lastUsedAt, '2026-11-24T00:00:00.000Z');
      assert.deepEqual(again.data.payload.resources, { 'https://api': 'designs dfm' });
    });
  });
}

adapterContract('embedded SQLite store', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'kerf-oauth-'));
  const store = await openStore({ dataDir: dir });
  return { store, async done() { await store.close(); await rm(dir, { recursive: true, force: true }); } };
});

adapterContract('MongoDB store (driver against the wire stand-in)', async () => {
  const wire = await startMongoWireFake({ replicaSet: 'rs0' });
  const store = await openStore({ mongodbUrl: wire.url, mongodbDbName: `kerf_oauth_${randomBytes(6).toString('hex')}`, serverSelectionTimeoutMS: 2000 });
  return { store, async done() { await store.close(); await wire.close(); } };
});
