// The store contract on MongoDB, run when MONGODB_URL points at a server:
//   MONGODB_URL=mongodb://localhost:27017 node --import tsx --test adapters/store/test/mongodb.test.ts
// Each run uses a fresh database (kerf_test_<random>) and drops it afterwards. Without a server,
// the contract still runs through the real driver against test/support/mongoWireFake.ts, an
// in-process wire-protocol stand-in (mingo evaluates the queries): that checks how the store uses
// the driver, not how a MongoDB server behaves.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { describe, it } from 'node:test';
import { MongoClient } from 'mongodb';
import { isStoreError, openStore } from '../src/index.ts';
import { databaseFromUrl, redactMongoUrl } from '../src/mongodb/store.ts';
import { dataFilter } from '../src/mongodb/documents.ts';
import { INDEXES } from '../src/mongodb/indexes.ts';
import { runStoreContract } from './contract.ts';
import { startMongoWireFake, type MongoWireFake } from './support/mongoWireFake.ts';

const MONGODB_URL = process.env.MONGODB_URL;

/** The contract through the real driver against the in-process wire fake (not a MongoDB server). */
function runOnFake(label: string, replicaSet?: string): void {
  let fake: MongoWireFake | undefined;
  runStoreContract(label, {
    async fresh() {
      fake ??= await startMongoWireFake({ replicaSet });
      const mongodbUrl = fake.url;
      const mongodbDbName = `kerf_test_${randomBytes(6).toString('hex')}`;
      return {
        open: (opts = {}) => openStore({ mongodbUrl, mongodbDbName, serverSelectionTimeoutMS: 2000, ...opts }),
        async cleanup() {
          await fake?.close();
          fake = undefined;
        },
      };
    },
  });
}

runOnFake('mongodb driver on the wire fake, standalone (write-ordering path)');
runOnFake('mongodb driver on the wire fake, replica set (transaction path)', 'rs0');

if (MONGODB_URL) {
  runStoreContract('mongodb', {
    async fresh() {
      const mongodbDbName = `kerf_test_${randomBytes(6).toString('hex')}`;
      return {
        open: (opts = {}) => openStore({ mongodbUrl: MONGODB_URL, mongodbDbName, ...opts }),
        async cleanup() {
          const client = new MongoClient(MONGODB_URL);
          try {
            await client.db(mongodbDbName).dropDatabase();
          } finally {
            await client.close();
          }
        },
      };
    },
  });
} else {
  describe('store contract: mongodb', () => {
    it('runs when MONGODB_URL is set', { skip: 'MONGODB_URL is not set: no MongoDB server to run the contract against' }, () => {});
  });
}

describe('mongodb store: which path writes a design and its job', () => {
  for (const replicaSet of [undefined, 'rs0']) {
    it(replicaSet ? 'uses a transaction on a replica set' : 'orders the writes on a standalone server and releases the held job', async () => {
      const fake = await startMongoWireFake({ replicaSet });
      // A stopped clock: the held job's release is then visible as runAfter == the design's creation.
      const frozen = new Date();
      const store = await openStore({ mongodbUrl: fake.url, serverSelectionTimeoutMS: 2000, now: () => frozen });
      try {
        const account = await store.accounts.create({ email: 'path@example.com' });
        const design = await store.designs.create(account.id, { name: 'a.step', sourceBlobKey: 'u/a.step', sourceSize: 1, sourceSha256: 'b'.repeat(64), job: { kind: 'analyze' } });
        const [job] = await store.jobs.listForResource(design.id);
        assert.equal(job.runAfter, design.createdAt, 'the job is due at once');
        assert.equal(fake.commandCounts.get('commitTransaction') ?? 0, replicaSet ? 1 : 0);
        assert.equal((await store.health()).detail, replicaSet ? 'kerf (transactions)' : 'kerf');
      } finally {
        await store.close();
        await fake.close();
      }
    });
  }
});

describe('mongodb store without a server', () => {
  it('fails fast with store_unavailable and no password in the message when nothing listens', async () => {
    // A port that was just free: connections to it are refused.
    const probe: Server = createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', () => r()));
    const port = (probe.address() as AddressInfo).port;
    await new Promise<void>((r) => probe.close(() => r()));
    const url = `mongodb://kerf:s3cret@127.0.0.1:${port}/kerf?directConnection=true`;
    await assert.rejects(openStore({ mongodbUrl: url, serverSelectionTimeoutMS: 300 }), (err: unknown) => {
      assert.ok(isStoreError(err, 'store_unavailable'), String(err));
      assert.equal(err.param, 'mongodbUrl');
      assert.match(err.message, new RegExp(`127\\.0\\.0\\.1:${port}`));
      assert.doesNotMatch(err.message, /s3cret/);
      return true;
    });
  });

  it('refuses a malformed connection string with store_unavailable', async () => {
    for (const url of ['http://localhost:27017', 'mongodb://', 'mongodb://host:notaport']) {
      await assert.rejects(openStore({ mongodbUrl: url, serverSelectionTimeoutMS: 300 }), (err: unknown) => isStoreError(err, 'store_unavailable') && err.param === 'mongodbUrl', url);
    }
  });

  it('takes the database name from the URL and hides passwords', () => {
    assert.equal(databaseFromUrl('mongodb://h1:1,h2:2/kerf_prod?replicaSet=rs0'), 'kerf_prod');
    assert.equal(databaseFromUrl('mongodb+srv://u:p@cluster.example.net/shop'), 'shop');
    assert.equal(databaseFromUrl('mongodb://localhost:27017'), null);
    assert.equal(databaseFromUrl('mongodb://localhost:27017/?w=1'), null);
    assert.equal(redactMongoUrl('mongodb://kerf:pa:ss@h/db'), 'mongodb://kerf:***@h/db');
    assert.equal(redactMongoUrl('mongodb://h/db'), 'mongodb://h/db');
  });

  it('declares the unique indexes the port relies on', () => {
    const unique = (col: string) => INDEXES[col].filter((i) => i.unique).map((i) => Object.keys(i.key).join(','));
    assert.deepEqual(unique('accounts'), ['email']);
    assert.deepEqual(unique('api_keys'), ['hash']);
    assert.deepEqual(unique('jobs'), ['kind,resourceId', 'accountId,admissionSlot']);
    assert.deepEqual(unique('documents'), ['collection,id', 'collection,accountId,key']);
    assert.deepEqual(unique('idempotency_keys'), ['accountId,key']);
    assert.ok(INDEXES.idempotency_keys.some((i) => i.expireAfterSeconds === 0), 'idempotency records expire');
  });

  it('filters on document data fields only', () => {
    assert.deepEqual(dataFilter([['design_id', 'des_1'], ['flag', null]]), { 'data.design_id': 'des_1', 'data.flag': null });
  });
});
