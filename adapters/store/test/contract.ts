// The store contract: one suite that every Store implementation must pass. Run by sqlite.test.ts
// (always) and mongodb.test.ts (when MONGODB_URL is set). It speaks only the port.
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { describe, it, before, after } from 'node:test';
import { isStoreError, type Store, type StoreErrorCode } from '../src/port.ts';
import { cartRecord, fileQuoteRecord, orderRecord, pricedQuoteRecord } from './records.ts';

export interface StoreHarness {
  /** A fresh, empty database. `open` may be called several times: each call is another Store on it. */
  fresh(): Promise<{ open(opts?: { now?: () => Date }): Promise<Store>; cleanup(): Promise<void> }>;
}

/** A clock the tests move by hand, so leases and expiry are tested without sleeping. */
export class ManualClock {
  private t = Date.now();
  readonly now = (): Date => new Date(this.t);
  advance(ms: number): void { this.t += ms; }
}

const HOUR_MS = 60 * 60 * 1000;
const SHA = 'a'.repeat(64);

async function rejectsWith(p: Promise<unknown>, code: StoreErrorCode, param?: string): Promise<void> {
  await assert.rejects(p, (err: unknown) => {
    assert.ok(isStoreError(err, code), `expected StoreError ${code}, got ${String(err)}`);
    if (param !== undefined) assert.equal(err.param, param);
    return true;
  });
}

let emailSeq = 0;
async function newAccount(store: Store, extra: { operator?: boolean } = {}) {
  emailSeq += 1;
  return store.accounts.create({ email: `user${emailSeq}-${Date.now()}@example.com`, name: `User ${emailSeq}`, ...extra });
}

function newDesignInput(name = 'part.step') {
  return { name, sourceBlobKey: `uploads/${name}`, sourceSize: 123, sourceSha256: SHA, options: { k_factor: 0.44 } };
}

export function runStoreContract(label: string, harness: StoreHarness): void {
  describe(`store contract: ${label}`, () => {
    let env: Awaited<ReturnType<StoreHarness['fresh']>>;
    let store: Store;
    const clock = new ManualClock();

    before(async () => {
      env = await harness.fresh();
      store = await env.open({ now: clock.now });
    });
    after(async () => {
      await store?.close();
      await env?.cleanup();
    });

    describe('accounts', () => {
      it('creates, normalises the email, reads back by id and by email', async () => {
        const a = await store.accounts.create({ email: '  Ada.Lovelace@Example.COM ', name: 'Ada' });
        assert.match(a.id, /^acct_/);
        assert.equal(a.email, 'ada.lovelace@example.com');
        assert.equal(a.operator, false);
        assert.equal(a.dropshipStatus, null);
        assert.deepEqual(await store.accounts.get(a.id), a);
        assert.deepEqual(await store.accounts.findByEmail('ADA.LOVELACE@example.com'), a);
        assert.equal(await store.accounts.findByEmail('nobody@example.com'), null);
        assert.equal(await store.accounts.findByEmail('not an email'), null);
        assert.equal(await store.accounts.get('acct_missing'), null);
      });

      it('refuses a second account with the same email, in any case', async () => {
        await store.accounts.create({ email: 'twice@example.com' });
        await rejectsWith(store.accounts.create({ email: 'TWICE@example.com' }), 'duplicate', 'email');
      });

      it('refuses a malformed email with a precise error', async () => {
        await rejectsWith(store.accounts.create({ email: 'no-at-sign' }), 'invalid_argument', 'email');
        await rejectsWith(store.accounts.create({ email: 42 as unknown as string }), 'invalid_argument', 'email');
      });

      it('updates name, operator flag and dropship status; counts accounts', async () => {
        const before = await store.accounts.count();
        const a = await newAccount(store);
        assert.equal(await store.accounts.count(), before + 1);
        const u = await store.accounts.update(a.id, { name: 'Renamed', operator: true, dropshipStatus: 'requested' });
        assert.equal(u?.name, 'Renamed');
        assert.equal(u?.operator, true);
        assert.equal(u?.dropshipStatus, 'requested');
        assert.deepEqual(await store.accounts.get(a.id), u);
        assert.equal(await store.accounts.update('acct_missing', { name: 'x' }), null);
        await rejectsWith(store.accounts.update(a.id, { dropshipStatus: 'bogus' as never }), 'invalid_argument', 'dropshipStatus');
      });
    });

    describe('api keys', () => {
      it('returns the plaintext once and authenticates it', async () => {
        const a = await newAccount(store);
        const k = await store.apiKeys.create(a.id, { label: 'ci' });
        assert.ok(k);
        assert.match(k.api_key, /^kerf_live_[0-9A-Za-z]{43}$/);
        assert.ok(k.api_key.startsWith(k.prefix));
        assert.deepEqual(await store.apiKeys.authenticate(k.api_key), { accountId: a.id, keyId: k.id, operator: false });
        const listed = await store.apiKeys.list(a.id);
        assert.equal(listed.length, 1);
        assert.equal(listed[0].label, 'ci');
        assert.ok(!JSON.stringify(listed).includes(k.api_key), 'a listed key must not carry its plaintext');
      });

      it('rejects unknown, malformed and near-miss keys without throwing', async () => {
        const a = await newAccount(store);
        const k = await store.apiKeys.create(a.id);
        assert.ok(k);
        const flipped = k.api_key.slice(0, -1) + (k.api_key.endsWith('A') ? 'B' : 'A');
        for (const bad of [flipped, '', 'kerf_live_', 'Bearer ' + k.api_key, k.api_key + ' ', 'x'.repeat(10000), null, 42]) {
          assert.equal(await store.apiKeys.authenticate(bad as string), null, `accepted ${String(bad).slice(0, 40)}`);
        }
      });

      it('revokes a key for its own account only', async () => {
        const a = await newAccount(store);
        const b = await newAccount(store);
        const k = await store.apiKeys.create(a.id);
        assert.ok(k);
        assert.equal(await store.apiKeys.revoke(b.id, k.id), false, 'another account cannot revoke it');
        assert.ok(await store.apiKeys.authenticate(k.api_key));
        assert.equal(await store.apiKeys.revoke(a.id, k.id), true);
        assert.equal(await store.apiKeys.authenticate(k.api_key), null);
        assert.equal(await store.apiKeys.revoke(a.id, k.id), false, 'already revoked');
        assert.ok((await store.apiKeys.list(a.id))[0].revokedAt);
      });

      it('grants operator only to an operator key of an operator account', async () => {
        const plain = await newAccount(store);
        const op = await newAccount(store, { operator: true });
        const k1 = await store.apiKeys.create(plain.id, { operator: true });
        const k2 = await store.apiKeys.create(op.id, { operator: true });
        const k3 = await store.apiKeys.create(op.id);
        assert.equal((await store.apiKeys.authenticate(k1!.api_key))?.operator, false);
        assert.equal((await store.apiKeys.authenticate(k2!.api_key))?.operator, true);
        assert.equal((await store.apiKeys.authenticate(k3!.api_key))?.operator, false);
      });

      it('returns null when the account does not exist', async () => {
        assert.equal(await store.apiKeys.create('acct_missing'), null);
      });
    });

    describe('designs', () => {
      it('creates queued, reads back, and hides it from other accounts', async () => {
        const a = await newAccount(store);
        const b = await newAccount(store);
        const d = await store.designs.create(a.id, newDesignInput());
        assert.match(d.id, /^des_/);
        assert.equal(d.status, 'queued');
        assert.deepEqual(d.options, { k_factor: 0.44 });
        assert.equal(d.result, null);
        assert.deepEqual(await store.designs.get(a.id, d.id), d);
        assert.equal(await store.designs.get(b.id, d.id), null);
        assert.equal(await store.designs.transition(b.id, d.id, 'queued', { status: 'processing' }), null);
        assert.equal((await store.designs.get(a.id, d.id))?.status, 'queued');
      });

      it('moves status only from the expected status (one of two racing writers wins)', async () => {
        const a = await newAccount(store);
        const d = await store.designs.create(a.id, newDesignInput());
        const [r1, r2] = await Promise.all([
          store.designs.transition(a.id, d.id, 'queued', { status: 'processing' }),
          store.designs.transition(a.id, d.id, 'queued', { status: 'processing' }),
        ]);
        assert.equal([r1, r2].filter(Boolean).length, 1);
        const result = { parts: [{ id: 'prt_1', bends: [1, 2] }] };
        const ready = await store.designs.transition(a.id, d.id, ['processing'], { status: 'ready', result, error: null });
        assert.equal(ready?.status, 'ready');
        assert.deepEqual(ready?.result, result);
        assert.equal(await store.designs.transition(a.id, d.id, 'processing', { status: 'failed' }), null);
        const read = await store.designs.get(a.id, d.id);
        assert.deepEqual(read?.result, result, 'the result is durable');
      });

      it('stores a failure with its error code', async () => {
        const a = await newAccount(store);
        const d = await store.designs.create(a.id, newDesignInput());
        const f = await store.designs.transition(a.id, d.id, 'queued', { status: 'failed', error: { code: 'step_parse_error', message: 'bad' } });
        assert.deepEqual(f?.error, { code: 'step_parse_error', message: 'bad' });
      });

      it('writes the design and its job together', async () => {
        const a = await newAccount(store);
        const d = await store.designs.create(a.id, { ...newDesignInput(), job: { kind: 'analyze', payload: { wait: true } } });
        const jobs = await store.jobs.listForResource(d.id);
        assert.equal(jobs.length, 1);
        assert.equal(jobs[0].kind, 'analyze');
        assert.equal(jobs[0].accountId, a.id);
        assert.deepEqual(jobs[0].payload, { wait: true });
      });

      it('refuses a design for an account that does not exist', async () => {
        await rejectsWith(store.designs.create('acct_missing', newDesignInput()), 'invalid_argument', 'accountId');
      });

      it('accepts a caller-chosen id once', async () => {
        const a = await newAccount(store);
        const id = `des_custom${Date.now()}`;
        const d = await store.designs.create(a.id, { ...newDesignInput(), id });
        assert.equal(d.id, id);
        await rejectsWith(store.designs.create(a.id, { ...newDesignInput(), id }), 'duplicate', 'id');
      });

      it('refuses malformed input precisely', async () => {
        const a = await newAccount(store);
        await rejectsWith(store.designs.create(a.id, { ...newDesignInput(), sourceSha256: 'xyz' }), 'invalid_argument', 'sourceSha256');
        await rejectsWith(store.designs.create(a.id, { ...newDesignInput(), sourceSize: -1 }), 'invalid_argument', 'sourceSize');
        await rejectsWith(store.designs.create(a.id, { ...newDesignInput(), sourceBlobKey: '../etc/passwd' }), 'invalid_argument', 'key');
        const d = await store.designs.create(a.id, newDesignInput());
        await rejectsWith(store.designs.transition(a.id, d.id, 'queued', { status: 'done' as never }), 'invalid_argument', 'status');
      });

      it('lists newest first with cursors, filtered by status', async () => {
        const a = await newAccount(store);
        const ids: string[] = [];
        for (let i = 0; i < 5; i++) {
          clock.advance(1);
          ids.push((await store.designs.create(a.id, newDesignInput(`p${i}.step`))).id);
        }
        await store.designs.transition(a.id, ids[0], 'queued', { status: 'ready' });
        const p1 = await store.designs.list(a.id, { limit: 3 });
        assert.deepEqual(p1.items.map((d) => d.id), [ids[4], ids[3], ids[2]]);
        assert.equal(p1.hasMore, true);
        const p2 = await store.designs.list(a.id, { limit: 3, cursor: p1.nextCursor });
        assert.deepEqual(p2.items.map((d) => d.id), [ids[1], ids[0]]);
        assert.equal(p2.hasMore, false);
        assert.equal(p2.nextCursor, null);
        const ready = await store.designs.list(a.id, { status: 'ready' });
        assert.deepEqual(ready.items.map((d) => d.id), [ids[0]]);
      });
    });

    describe('design existence (housekeeping)', () => {
      it('exists() finds a design of any account by id alone', async () => {
        const a = await newAccount(store);
        const d = await store.designs.create(a.id, { name: 'e.step', sourceBlobKey: 'designs/e/source.step', sourceSize: 1, sourceSha256: '0'.repeat(64) });
        assert.equal(await store.designs.exists(d.id), true);
        assert.equal(await store.designs.exists('des_nosuchdesign'), false);
      });
    });

    describe('jobs', () => {
      it('enqueue is idempotent per (kind, resource) while active', async () => {
        const a = await newAccount(store);
        const j1 = await store.jobs.enqueue({ kind: 'dfm', resourceId: 'dfm_x1', accountId: a.id, payload: { n: 1 } });
        const j2 = await store.jobs.enqueue({ kind: 'dfm', resourceId: 'dfm_x1', accountId: a.id, payload: { n: 2 } });
        assert.equal(j2.id, j1.id);
        assert.deepEqual(j2.payload, { n: 1 });
        const other = await store.jobs.enqueue({ kind: 'files', resourceId: 'dfm_x1', accountId: a.id });
        assert.notEqual(other.id, j1.id);
      });

      it('claims each job once, renews, completes; then a new job may be enqueued', async () => {
        const a = await newAccount(store);
        const kind = `k${Date.now()}a`;
        const j = await store.jobs.enqueue({ kind, resourceId: 'r1', accountId: a.id });
        const c1 = await store.jobs.claim('w1', 60_000, { kinds: [kind] });
        assert.equal(c1?.id, j.id);
        assert.equal(c1?.status, 'running');
        assert.equal(c1?.attempts, 1);
        assert.equal(c1?.workerId, 'w1');
        assert.equal(await store.jobs.claim('w2', 60_000, { kinds: [kind] }), null);
        assert.equal(await store.jobs.renewLease(j.id, 'w2', 60_000), false, 'only the holder renews');
        assert.equal(await store.jobs.renewLease(j.id, 'w1', 60_000), true);
        assert.equal(await store.jobs.complete(j.id, 'w2'), false);
        assert.equal(await store.jobs.complete(j.id, 'w1'), true);
        assert.equal((await store.jobs.get(j.id))?.status, 'done');
        assert.equal(await store.jobs.complete(j.id, 'w1'), false);
        const again = await store.jobs.enqueue({ kind, resourceId: 'r1', accountId: a.id });
        assert.notEqual(again.id, j.id);
      });

      it('a claim skips the accounts it excludes (a worker keeping a slot for other accounts)', async () => {
        const a = await newAccount(store);
        const b = await newAccount(store);
        const kind = `k${Date.now()}x`;
        const ja = await store.jobs.enqueue({ kind, resourceId: 'ra', accountId: a.id });
        clock.advance(5);
        const jb = await store.jobs.enqueue({ kind, resourceId: 'rb', accountId: b.id });
        // a's job is older and a has nothing running: without the exclusion it would go first
        const c = await store.jobs.claim('w1', 60_000, { kinds: [kind], excludeAccounts: [a.id] });
        assert.equal(c?.id, jb.id);
        assert.equal(await store.jobs.claim('w1', 60_000, { kinds: [kind], excludeAccounts: [a.id] }), null, 'only a\'s job is left');
        assert.equal((await store.jobs.claim('w1', 60_000, { kinds: [kind], excludeAccounts: [] }))?.id, ja.id);
      });

      it('reclaims a job whose lease expired (its process died), and the old holder loses it', async () => {
        const a = await newAccount(store);
        const kind = `k${Date.now()}b`;
        const j = await store.jobs.enqueue({ kind, resourceId: 'r1', accountId: a.id, maxAttempts: 2 });
        assert.ok(await store.jobs.claim('dead', 1000, { kinds: [kind] }));
        assert.equal(await store.jobs.claim('alive', 1000, { kinds: [kind] }), null, 'lease still held');
        clock.advance(1001);
        const c = await store.jobs.claim('alive', 1000, { kinds: [kind] });
        assert.equal(c?.id, j.id);
        assert.equal(c?.attempts, 2);
        assert.equal(c?.exhausted, false);
        assert.equal(await store.jobs.complete(j.id, 'dead'), false, 'the expired holder cannot complete');
        assert.equal(await store.jobs.renewLease(j.id, 'dead', 1000), false);
        // The second run dies too: the third claim is beyond maxAttempts and says so.
        clock.advance(1001);
        const last = await store.jobs.claim('third', 1000, { kinds: [kind] });
        assert.equal(last?.exhausted, true);
        const failed = await store.jobs.fail(j.id, 'third', { code: 'analysis_crashed', message: 'worker died twice' }, { retry: false });
        assert.equal(failed?.status, 'failed');
        assert.equal(await store.jobs.claim('fourth', 1000, { kinds: [kind] }), null);
      });

      it('fails a job whose exhausted run died too, instead of handing it out forever', async () => {
        const a = await newAccount(store);
        const kind = `k${Date.now()}f`;
        const j = await store.jobs.enqueue({ kind, resourceId: 'poison', accountId: a.id, maxAttempts: 1 });
        assert.equal((await store.jobs.claim('w1', 1000, { kinds: [kind] }))?.exhausted, false);
        clock.advance(1001);
        assert.equal((await store.jobs.claim('w2', 1000, { kinds: [kind] }))?.exhausted, true);
        clock.advance(1001);
        assert.equal(await store.jobs.claim('w3', 1000, { kinds: [kind] }), null);
        const dead = await store.jobs.get(j.id);
        assert.equal(dead?.status, 'failed');
        assert.equal(dead?.lastError?.code, 'lease_expired');
        const fresh = await store.jobs.enqueue({ kind, resourceId: 'poison', accountId: a.id });
        assert.notEqual(fresh.id, j.id, 'a failed job no longer blocks a new one');
      });

      it('retries a failed job after its delay until attempts run out', async () => {
        const a = await newAccount(store);
        const kind = `k${Date.now()}c`;
        const j = await store.jobs.enqueue({ kind, resourceId: 'r1', accountId: a.id, maxAttempts: 2 });
        await store.jobs.claim('w', 60_000, { kinds: [kind] });
        const retried = await store.jobs.fail(j.id, 'w', { code: 'transient', message: 'try again' }, { retryDelayMs: 5000 });
        assert.equal(retried?.status, 'queued');
        assert.deepEqual(retried?.lastError, { code: 'transient', message: 'try again' });
        assert.equal(await store.jobs.claim('w', 60_000, { kinds: [kind] }), null, 'not before its delay');
        clock.advance(5000);
        assert.equal((await store.jobs.claim('w', 60_000, { kinds: [kind] }))?.attempts, 2);
        const dead = await store.jobs.fail(j.id, 'w', { code: 'transient', message: 'again' });
        assert.equal(dead?.status, 'failed');
        assert.equal(await store.jobs.fail(j.id, 'w', { code: 'x', message: 'y' }), null, 'no longer running');
      });

      it('a limited enqueue counts and inserts in one step: of 30 parallel enqueues under max 5, five are queued; a slot frees when its job ends', async () => {
        const a = await newAccount(store);
        const b = await newAccount(store);
        const kind = `k${Date.now()}limit`;
        const limit = { kinds: [kind], max: 5 };
        const tries = await Promise.allSettled(Array.from({ length: 30 }, (_, i) => store.jobs.enqueue({ kind, resourceId: `r${i}`, accountId: a.id, limit })));
        const refused = tries.filter((t) => t.status === 'rejected');
        assert.equal(tries.length - refused.length, 5);
        for (const r of refused) assert.ok(isStoreError((r as PromiseRejectedResult).reason, 'limit_reached'), String((r as PromiseRejectedResult).reason));
        assert.equal(await store.jobs.countActive(a.id, { kinds: [kind] }), 5);
        // another account is not held by the first one's limit
        assert.ok(await store.jobs.enqueue({ kind, resourceId: 'b0', accountId: b.id, limit }));
        // the same (kind, resource) again returns its active job, over the limit or not
        const queued = (tries.find((t) => t.status === 'fulfilled') as PromiseFulfilledResult<{ id: string; resourceId: string }>).value;
        assert.equal((await store.jobs.enqueue({ kind, resourceId: queued.resourceId, accountId: a.id, limit })).id, queued.id);
        // a design whose job is over the limit is not created either
        await assert.rejects(store.designs.create(a.id, { name: 'x.step', sourceBlobKey: `k/${kind}`, sourceSize: 1, sourceSha256: 'a'.repeat(64), job: { kind, limit } }),
          (e: unknown) => isStoreError(e, 'limit_reached'));
        assert.equal((await store.designs.list(a.id, { limit: 100 })).items.length, 0);
        // finishing one frees its slot for one more
        // (a's job: b's own job would free a slot under b's limit, not a's)
        const running = await store.jobs.claim('w', 60_000, { kinds: [kind], excludeAccounts: [b.id] });
        assert.equal(running?.accountId, a.id);
        assert.equal(await store.jobs.complete(running.id, 'w'), true);
        const again = await Promise.allSettled([0, 1, 2].map((i) => store.jobs.enqueue({ kind, resourceId: `again${i}`, accountId: running.accountId, limit })));
        assert.equal(again.filter((t) => t.status === 'fulfilled').length, 1);
        await assert.rejects(store.jobs.enqueue({ kind, resourceId: 'r', accountId: a.id, limit: { kinds: [], max: 1 } }), (e: unknown) => isStoreError(e, 'invalid_argument'));
        // a service may set a very large limit (the bench sets 100000): it is a count, not a table of slots
        assert.ok(await store.jobs.enqueue({ kind, resourceId: 'big', accountId: b.id, limit: { kinds: [kind], max: 100_000 } }));
      });

      it('claims fairly across accounts: fewest running first, then round-robin; counts active jobs', async () => {
        const a = await newAccount(store);
        const b = await newAccount(store);
        const kind = `k${Date.now()}fair`;
        for (let i = 0; i < 4; i++) { await store.jobs.enqueue({ kind, resourceId: `a${i}`, accountId: a.id }); clock.advance(1); }
        await store.jobs.enqueue({ kind, resourceId: 'b0', accountId: b.id });
        clock.advance(1);
        await store.jobs.enqueue({ kind, resourceId: 'b1', accountId: b.id });
        assert.equal(await store.jobs.countActive(a.id, { kinds: [kind] }), 4);
        assert.equal(await store.jobs.countActive(b.id, { kinds: [kind] }), 2);
        assert.equal(await store.jobs.countActive(b.id, { kinds: ['other'] }), 0);
        // one worker slot: each job is finished before the next claim
        const order: string[] = [];
        for (let i = 0; i < 6; i++) {
          const j = await store.jobs.claim('w', 60_000, { kinds: [kind] });
          assert.ok(j);
          order.push(j.resourceId);
          clock.advance(1);
          assert.equal(await store.jobs.complete(j.id, 'w'), true);
        }
        assert.deepEqual(order, ['a0', 'b0', 'a1', 'b1', 'a2', 'a3']);
        assert.equal(await store.jobs.countActive(a.id, { kinds: [kind] }), 0);
        // two slots: the account with a job running waits behind one with none
        for (let i = 0; i < 3; i++) { await store.jobs.enqueue({ kind, resourceId: `a2-${i}`, accountId: a.id }); clock.advance(1); }
        await store.jobs.enqueue({ kind, resourceId: 'b2-0', accountId: b.id });
        const first = await store.jobs.claim('w1', 60_000, { kinds: [kind] });
        const second = await store.jobs.claim('w2', 60_000, { kinds: [kind] });
        assert.deepEqual([first?.accountId, second?.accountId].sort(), [a.id, b.id].sort());
      });

      it('defers a running job without using up an attempt', async () => {
        const a = await newAccount(store);
        const kind = `k${Date.now()}defer`;
        const j = await store.jobs.enqueue({ kind, resourceId: 'r1', accountId: a.id, maxAttempts: 1 });
        for (let i = 0; i < 3; i++) {
          assert.equal((await store.jobs.claim('w', 60_000, { kinds: [kind] }))?.attempts, 1);
          assert.equal(await store.jobs.defer(j.id, 'other', 0), false, 'only the holder defers');
          assert.equal(await store.jobs.defer(j.id, 'w', 2000), true);
          const back = await store.jobs.get(j.id);
          assert.equal(back?.status, 'queued');
          assert.equal(back?.attempts, 0);
          assert.equal(await store.jobs.claim('w', 60_000, { kinds: [kind] }), null, 'not before its delay');
          clock.advance(2000);
        }
        const last = await store.jobs.claim('w', 60_000, { kinds: [kind] });
        assert.equal(last?.exhausted, false, 'deferred runs are not counted as runs that died');
        assert.equal(await store.jobs.complete(j.id, 'w'), true);
        assert.equal(await store.jobs.defer(j.id, 'w', 0), false, 'no longer running');
      });

      it('honours a first-run delay and claims oldest first', async () => {
        const a = await newAccount(store);
        const kind = `k${Date.now()}d`;
        const later = await store.jobs.enqueue({ kind, resourceId: 'late', accountId: a.id, delayMs: 10_000 });
        clock.advance(1);
        const first = await store.jobs.enqueue({ kind, resourceId: 'r1', accountId: a.id });
        clock.advance(1);
        const second = await store.jobs.enqueue({ kind, resourceId: 'r2', accountId: a.id });
        assert.equal((await store.jobs.claim('w', 60_000, { kinds: [kind] }))?.id, first.id);
        assert.equal((await store.jobs.claim('w', 60_000, { kinds: [kind] }))?.id, second.id);
        assert.equal(await store.jobs.claim('w', 60_000, { kinds: [kind] }), null);
        clock.advance(10_000);
        assert.equal((await store.jobs.claim('w', 60_000, { kinds: [kind] }))?.id, later.id);
      });

      it('refuses a non-positive lease and unknown workers get nothing to renew', async () => {
        await rejectsWith(store.jobs.claim('w', 0), 'invalid_argument', 'leaseMs');
        await rejectsWith(store.jobs.enqueue({ kind: '', resourceId: 'r', accountId: 'a' }), 'invalid_argument', 'kind');
        assert.equal(await store.jobs.renewLease('job_missing', 'w', 1000), false);
        assert.equal(await store.jobs.get('job_missing'), null);
      });

      it('two stores on one database claim 20 jobs: each exactly once', async () => {
        const a = await newAccount(store);
        const kind = `k${Date.now()}e`;
        const other = await env.open({ now: clock.now });
        try {
          const enqueued = new Set<string>();
          for (let i = 0; i < 20; i++) enqueued.add((await store.jobs.enqueue({ kind, resourceId: `r${i}`, accountId: a.id })).id);
          const claimed: string[] = [];
          const worker = async (s: Store, name: string) => {
            for (;;) {
              const j = await s.jobs.claim(name, 60_000, { kinds: [kind] });
              if (!j) return;
              claimed.push(j.id);
              assert.equal(await s.jobs.complete(j.id, name), true);
            }
          };
          await Promise.all([worker(store, 'one'), worker(other, 'two'), worker(store, 'three'), worker(other, 'four')]);
          assert.equal(claimed.length, 20);
          assert.deepEqual(new Set(claimed), enqueued);
        } finally {
          await other.close();
        }
      });
    });

    describe('documents', () => {
      it('creates with the collection prefix, reads back, hides from other accounts', async () => {
        const a = await newAccount(store);
        const b = await newAccount(store);
        const quotes = store.documents<{ total: number }>('quotes');
        const q = await quotes.create(a.id, { total: 1250 });
        assert.match(q.id, /^quo_/);
        assert.equal(q.version, 1);
        assert.deepEqual(await quotes.get(a.id, q.id), q);
        assert.equal(await quotes.get(b.id, q.id), null);
        assert.equal(await quotes.update(b.id, q.id, { total: 0 }), null);
        assert.equal(await quotes.delete(b.id, q.id), false);
        assert.deepEqual(await quotes.getUnscoped(q.id), q);
        assert.equal(await store.documents('carts').get(a.id, q.id), null, 'collections are separate');
        assert.match((await store.documents('review_links').create(a.id, {})).id, /^rvl_/);
        assert.match((await store.documents('things', { idPrefix: 'thg' }).create(a.id, {})).id, /^thg_/);
      });

      it('keeps service-wide documents under a reserved owner id', async () => {
        const settings = store.documents<{ value: string }>('settings', { idPrefix: 'set' });
        const s = await settings.create('system', { value: 'secret' }, { key: 'url_signing_secret' });
        assert.deepEqual(await settings.getByKey('system', 'url_signing_secret'), s);
        await rejectsWith(settings.create('system', { value: 'other' }, { key: 'url_signing_secret' }), 'duplicate', 'key');
      });

      it('returns fresh copies: mutating a record does not change the store', async () => {
        const a = await newAccount(store);
        const c = store.documents<{ items: number[] }>('carts');
        const r = await c.create(a.id, { items: [1] });
        r.data.items.push(2);
        assert.deepEqual((await c.get(a.id, r.id))?.data, { items: [1] });
      });

      it('updates with versions and refuses a stale expectedVersion', async () => {
        const a = await newAccount(store);
        const c = store.documents<{ n: number }>('carts');
        const r = await c.create(a.id, { n: 1 });
        const u = await c.update(a.id, r.id, { n: 2 }, { expectedVersion: 1 });
        assert.equal(u?.version, 2);
        assert.deepEqual(u?.data, { n: 2 });
        await rejectsWith(c.update(a.id, r.id, { n: 3 }, { expectedVersion: 1 }), 'conflict', 'expectedVersion');
        assert.equal((await c.update(a.id, r.id, { n: 4 }))?.version, 3);
        assert.equal(await c.update(a.id, 'crt_missing', { n: 5 }, { expectedVersion: 1 }), null);
        assert.equal(await c.delete(a.id, r.id), true);
        assert.equal(await c.get(a.id, r.id), null);
      });

      it('enforces a unique key per account', async () => {
        const a = await newAccount(store);
        const b = await newAccount(store);
        const orders = store.documents<{ sku: string }>('orders');
        const o = await orders.create(a.id, { sku: 'S1' }, { key: 'ext-1' });
        await rejectsWith(orders.create(a.id, { sku: 'S2' }, { key: 'ext-1' }), 'duplicate', 'key');
        assert.deepEqual(await orders.getByKey(a.id, 'ext-1'), o);
        assert.equal(await orders.getByKey(b.id, 'ext-1'), null);
        const ob = await orders.create(b.id, { sku: 'S3' }, { key: 'ext-1' });
        assert.equal(ob.key, 'ext-1');
        const racing = await Promise.allSettled([1, 2, 3].map((i) => orders.create(a.id, { sku: `R${i}` }, { key: 'ext-race' })));
        assert.equal(racing.filter((r) => r.status === 'fulfilled').length, 1);
      });

      it('pages stably under inserts, in both orders, with filters', async () => {
        const a = await newAccount(store);
        const c = store.documents<{ design_id: string; i: number; flag?: boolean | null }>('dfm_reports');
        const made: string[] = [];
        for (let i = 0; i < 7; i++) {
          clock.advance(1);
          made.push((await c.create(a.id, { design_id: i % 2 ? 'des_odd' : 'des_even', i, flag: i === 3 ? true : i === 4 ? null : undefined })).id);
        }
        const seen: string[] = [];
        let cursor: string | null = null;
        let pages = 0;
        do {
          const page = await c.list(a.id, { limit: 3, cursor });
          seen.push(...page.items.map((r) => r.id));
          cursor = page.nextCursor;
          pages += 1;
          // Inserts between pages must neither repeat nor hide the items that existed before.
          clock.advance(1);
          await c.create(a.id, { design_id: 'des_new', i: 100 + pages });
        } while (cursor);
        assert.deepEqual(seen, [...made].reverse());
        const asc = await c.list(a.id, { limit: 4, order: 'asc' });
        assert.deepEqual(asc.items.map((r) => r.id), made.slice(0, 4));
        const asc2 = await c.list(a.id, { limit: 4, order: 'asc', cursor: asc.nextCursor });
        assert.deepEqual(asc2.items.slice(0, 3).map((r) => r.id), made.slice(4, 7));
        const odd = await c.list(a.id, { filter: { design_id: 'des_odd' }, order: 'asc' });
        assert.deepEqual(odd.items.map((r) => r.data.i), [1, 3, 5]);
        assert.deepEqual((await c.list(a.id, { filter: { i: 2 } })).items.map((r) => r.data.i), [2]);
        assert.deepEqual((await c.list(a.id, { filter: { i: '2' } })).items, [], 'a string does not equal a number');
        assert.deepEqual((await c.list(a.id, { filter: { flag: true } })).items.map((r) => r.data.i), [3]);
        const nulls = await c.list(a.id, { filter: { flag: null, design_id: 'des_even' }, order: 'asc' });
        assert.deepEqual(nulls.items.map((r) => r.data.i), [0, 2, 4, 6], 'null matches null and missing');
      });

      it('rejects foreign cursors, bad limits, bad filters and bad names', async () => {
        const a = await newAccount(store);
        const c = store.documents<{ n: number }>('quotes');
        for (let i = 0; i < 3; i++) await c.create(a.id, { n: i });
        const page = await c.list(a.id, { limit: 1 });
        assert.ok(page.nextCursor);
        await rejectsWith(store.documents('carts').list(a.id, { cursor: page.nextCursor }), 'invalid_cursor', 'cursor');
        await rejectsWith(c.list(a.id, { cursor: page.nextCursor, order: 'asc' }), 'invalid_cursor', 'cursor');
        await rejectsWith(c.list(a.id, { cursor: page.nextCursor, filter: { n: 1 } }), 'invalid_cursor', 'cursor');
        await rejectsWith(c.list(a.id, { cursor: 'garbage!' }), 'invalid_cursor', 'cursor');
        await rejectsWith(c.list(a.id, { limit: 0 }), 'invalid_argument', 'limit');
        await rejectsWith(c.list(a.id, { limit: 1001 }), 'invalid_argument', 'limit');
        await rejectsWith(c.list(a.id, { limit: 2.5 }), 'invalid_argument', 'limit');
        await rejectsWith(c.list(a.id, { filter: { 'a.b': 1 } }), 'invalid_argument', 'filter');
        await rejectsWith(c.list(a.id, { filter: { $where: 1 } }), 'invalid_argument', 'filter');
        await rejectsWith(c.list(a.id, { filter: { n: { $gt: 0 } as never } }), 'invalid_argument', 'filter');
        assert.throws(() => store.documents('Bad-Name'), (e: unknown) => isStoreError(e, 'invalid_argument'));
        await rejectsWith(c.create(a.id, { n: 1 }, { key: '' }), 'invalid_argument', 'key');
      });

      it('another account sees an empty list', async () => {
        const a = await newAccount(store);
        const b = await newAccount(store);
        const c = store.documents<{ n: number }>('review_links');
        await c.create(a.id, { n: 1 });
        const pb = await c.list(b.id);
        assert.deepEqual(pb, { items: [], hasMore: false, nextCursor: null });
      });
    });

    describe('typed records: quotes, carts, orders', () => {
      it('are the documents of their collections: what one writes the other reads, under the collection\'s id prefix', async () => {
        const a = await newAccount(store);
        const q = await store.quotes.create(a.id, fileQuoteRecord('quo_typed_1', 'des_1'), { id: 'quo_typed_1' });
        assert.deepEqual(await store.documents('quotes').get(a.id, q.id), q);
        assert.match((await store.quotes.create(a.id, pricedQuoteRecord('ignored', 'des_2'))).id, /^quo_/);
        const c = await store.carts.create(a.id, cartRecord('crt_typed_1', pricedQuoteRecord('quo_typed_2', 'des_2')));
        assert.match(c.id, /^crt_/);
        assert.deepEqual(await store.documents('carts').getUnscoped(c.id), c);
        const o = await store.orders.create(a.id, orderRecord('ord_typed_1', c.data), { key: c.id });
        assert.match(o.id, /^ord_/);
        assert.deepEqual(await store.documents('orders').getByKey(a.id, c.id), o);
        // a change through the untyped collection is the typed one's next version, and back
        const priced = pricedQuoteRecord(q.id, 'des_1');
        const updated = await store.documents('quotes').update(a.id, q.id, priced, { expectedVersion: 1 });
        assert.deepEqual(await store.quotes.get(a.id, q.id), updated);
        assert.deepEqual((await store.quotes.update(a.id, q.id, { ...priced, status: 'expired' }, { expectedVersion: 2 }))?.data.status, 'expired');
        assert.equal(await store.carts.get(a.id, q.id), null, 'collections are separate');
      });

      it('read records written as plain JSON documents, private keys and all, and filter on their fields', async () => {
        // what the service wrote before its collections were typed: the same JSON, through documents(name)
        const a = await newAccount(store);
        const quote = pricedQuoteRecord('quo_plain_1', 'des_3');
        const cart = cartRecord('crt_plain_1', quote);
        const order = orderRecord('ord_plain_1', cart);
        const json = <T>(v: T): unknown => JSON.parse(JSON.stringify(v));
        await store.documents<unknown>('quotes').create(a.id, json(quote), { id: quote.id });
        await store.documents<unknown>('carts').create(a.id, json(cart), { id: cart.id });
        await store.documents<unknown>('orders').create(a.id, json(order), { id: order.id, key: cart.id });
        const readQuote = (await store.quotes.get(a.id, quote.id))!.data;
        assert.deepEqual(readQuote, quote);
        assert.deepEqual(readQuote._settled_dfm, { 0: 'dfm_settled' });
        const readCart = (await store.carts.get(a.id, cart.id))!.data;
        assert.deepEqual(readCart, cart);
        assert.equal(readCart._intent?.key, 'crt_plain_1_r2_a0');
        assert.deepEqual((await store.orders.getByKey(a.id, cart.id))?.data, order);
        assert.deepEqual((await store.orders.list(a.id, { filter: { status: 'refunded', _refund_id: 're_1' } })).items.map((r) => r.id), [order.id]);
        assert.deepEqual((await store.carts.list(a.id, { filter: { _token: 'ctk_1', status: 'open' } })).items.map((r) => r.id), [cart.id]);
      });
    });

    describe('outbox', () => {
      const ev = (id: string, type = 'design.ready', payload: unknown = { n: id }) => ({ id, type, payload });
      const mine = async (accountIds: string[]) => (await store.outbox.pending({ limit: 1000 })).filter((e) => accountIds.includes(e.accountId)).map(({ position: _p, ...e }) => e);

      it('pages by position: a reader passes records it leaves behind', async () => {
        const a = await newAccount(store);
        const notes = store.documents<{ n: number }>('outbox_paging');
        for (let i = 0; i < 3; i++) { await notes.create(a.id, { n: i }, { events: [ev(`evt_page${i}`)] }); clock.advance(1); }
        const seen: string[] = [];
        for (let after: string | null = null; ;) {
          const [entry] = await store.outbox.pending({ limit: 1, after });
          if (!entry) break;
          if (entry.accountId === a.id) seen.push(entry.events[0].id);
          after = entry.position;
        }
        assert.deepEqual(seen, ['evt_page0', 'evt_page1', 'evt_page2'], 'each once, in order, none cleared');
        await rejectsWith(store.outbox.pending({ after: 'garbage' }), 'invalid_cursor', 'after');
      });

      it('records events in the same write as a design transition or a document change, only when it applies', async () => {
        const a = await newAccount(store);
        const d = await store.designs.create(a.id, newDesignInput());
        assert.equal(await store.designs.transition(a.id, d.id, 'ready', { status: 'failed', events: [ev('evt_lost')] }), null, 'not in from');
        assert.deepEqual(await mine([a.id]), [], 'a transition that does not apply records nothing');
        clock.advance(1);
        await store.designs.transition(a.id, d.id, 'queued', { status: 'ready', events: [ev('evt_1'), ev('evt_2', 'design.other')] });
        clock.advance(1);
        const quotes = store.documents<{ s: string }>('quotes');
        const q = await quotes.create(a.id, { s: 'ready' }, { events: [ev('evt_3', 'quote.ready')] });
        clock.advance(1);
        await quotes.update(a.id, q.id, { s: 'expired' }, { events: [ev('evt_4', 'quote.failed')] });
        await rejectsWith(quotes.update(a.id, q.id, { s: 'x' }, { expectedVersion: 1, events: [ev('evt_stale')] }), 'conflict', 'expectedVersion');
        assert.deepEqual((await quotes.get(a.id, q.id))?.data, { s: 'expired' }, 'data is untouched by the outbox');
        const pending = await mine([a.id]);
        assert.deepEqual(pending, [
          { source: 'designs', accountId: a.id, resourceId: d.id, events: [ev('evt_1'), ev('evt_2', 'design.other')] },
          { source: 'documents:quotes', accountId: a.id, resourceId: q.id, events: [ev('evt_3', 'quote.ready'), ev('evt_4', 'quote.failed')] },
        ]);
        assert.equal((await store.designs.get(a.id, d.id))?.status, 'ready');
      });

      it('records an event with an audience only for an account holding a document of that collection, checked in the write', async () => {
        const a = await newAccount(store);
        const b = await newAccount(store);
        const heard = (id: string) => ({ ...ev(id), audience: 'outbox_listeners' });
        const notes = store.documents<{ n: number }>('outbox_audience');
        await store.documents<{ n: number }>('outbox_listeners').create(b.id, { n: 0 });
        const n = await notes.create(a.id, { n: 1 }, { events: [heard('evt_au1'), ev('evt_au2')] });
        const d = await store.designs.create(a.id, newDesignInput());
        await store.designs.transition(a.id, d.id, 'queued', { status: 'processing', events: [heard('evt_au3')] });
        assert.deepEqual((await mine([a.id])).map((e) => e.events), [[ev('evt_au2')]], 'another account\'s listener does not count; the event without an audience is recorded');
        clock.advance(1);
        await store.documents<{ n: number }>('outbox_listeners').create(a.id, { n: 1 });
        await notes.update(a.id, n.id, { n: 2 }, { events: [heard('evt_au4')] });
        clock.advance(1);
        await store.designs.transition(a.id, d.id, 'processing', { status: 'ready', events: [heard('evt_au5')] });
        assert.deepEqual((await mine([a.id])).map((e) => e.events), [[ev('evt_au2'), ev('evt_au4')], [ev('evt_au5')]], 'recorded once the account holds one, stored without the audience');
        await rejectsWith(notes.create(a.id, { n: 3 }, { events: [{ ...ev('evt_au6'), audience: 'Bad Name' }] }), 'invalid_argument', 'events.audience');
      });

      it('builds a payload given as a function only for an event it records', async () => {
        const a = await newAccount(store);
        const built: string[] = [];
        const lazy = (id: string) => ({ id, type: 'quote.ready', payload: () => { built.push(id); return ev(id).payload; }, audience: 'lazy_listeners' });
        const notes = store.documents<{ n: number }>('lazy_events');
        await notes.create(a.id, { n: 1 }, { events: [lazy('evt_lz1')] });
        assert.deepEqual(built, [], 'no listener: never built');
        await store.documents<{ n: number }>('lazy_listeners').create(a.id, { n: 0 });
        const n = await notes.create(a.id, { n: 2 }, { events: [lazy('evt_lz2')] });
        assert.deepEqual(built, ['evt_lz2']);
        assert.deepEqual((await mine([a.id])).filter((e) => e.resourceId === n.id).map((e) => e.events), [[{ ...ev('evt_lz2'), type: 'quote.ready' }]], 'stored as the value it returned');
      });

      it('clears only the events handed on; events recorded meanwhile stay; survives reopen', async () => {
        const a = await newAccount(store);
        const d = await store.designs.create(a.id, newDesignInput());
        await store.designs.transition(a.id, d.id, 'queued', { status: 'processing', events: [ev('evt_p1')] });
        const [entry] = await mine([a.id]);
        await store.designs.transition(a.id, d.id, 'processing', { status: 'ready', events: [ev('evt_p2')] });
        await store.outbox.clear(entry, entry.events.map((e) => e.id));
        assert.deepEqual((await mine([a.id])).map((e) => e.events.map((x) => x.id)), [['evt_p2']]);
        const again = await env.open({ now: clock.now });
        try {
          assert.deepEqual((await again.outbox.pending({ limit: 1000 })).filter((e) => e.accountId === a.id).map((e) => e.events.map((x) => x.id)), [['evt_p2']], 'durable');
        } finally {
          await again.close();
        }
        await store.outbox.clear(entry, ['evt_p2']);
        await store.outbox.clear(entry, ['evt_p2']);
        assert.deepEqual(await mine([a.id]), []);
        const c = store.documents<{ n: number }>('orders');
        const o = await c.create(a.id, { n: 1 }, { events: [ev('evt_o1', 'order.status_changed')] });
        await store.outbox.clear({ source: 'documents:orders', accountId: a.id, resourceId: o.id }, ['evt_o1']);
        assert.deepEqual(await mine([a.id]), []);
        await c.update(a.id, o.id, { n: 2 }, { events: [ev('evt_o2', 'order.status_changed')] });
        assert.deepEqual((await mine([a.id])).map((e) => e.events.map((x) => x.id)), [['evt_o2']], 'a cleared record takes new events');
      });

      it('heads: the pending events without their payloads, in the order and positions of pending', async () => {
        const a = await newAccount(store);
        const d = await store.designs.create(a.id, newDesignInput());
        await store.designs.transition(a.id, d.id, 'queued', { status: 'processing', events: [ev('evt_h1'), ev('evt_h2', 'design.other')] });
        clock.advance(1);
        await store.designs.transition(a.id, d.id, 'processing', { status: 'ready', events: [ev('evt_h3', 'design.third')] });
        const all = (await store.outbox.pending({ limit: 1000 })).filter((e) => e.accountId === a.id);
        const heads = (await store.outbox.heads({ limit: 1000 })).filter((e) => e.accountId === a.id);
        assert.deepEqual(heads, all.map((e) => ({ ...e, events: e.events.map(({ id, type }) => ({ id, type })) })));
        assert.deepEqual(heads[0].events, [{ id: 'evt_h1', type: 'design.ready' }, { id: 'evt_h2', type: 'design.other' }, { id: 'evt_h3', type: 'design.third' }]);
        await store.outbox.clear(heads[0], ['evt_h2']);
        assert.deepEqual((await store.outbox.heads({ limit: 1000 })).filter((e) => e.accountId === a.id).map((e) => e.events),
          [[{ id: 'evt_h1', type: 'design.ready' }, { id: 'evt_h3', type: 'design.third' }]], 'ids and types stay side by side after a partial clear');
        await rejectsWith(store.outbox.heads({ limit: 1001 }), 'invalid_argument', 'limit');
      });

      it('keep copies pending payloads into documents, once, for the record\'s account', async () => {
        const a = await newAccount(store);
        const b = await newAccount(store);
        const quotes = store.documents<{ s: string }>('quotes');
        const payload = { id: 'evt_k1', nested: { text: 'é\u2028"\\/', n: [1e-7, -1.5, 0, 123456789.125], none: null, yes: true } };
        const q = await quotes.create(a.id, { s: 'ready' }, { events: [ev('evt_k1', 'quote.ready', payload), ev('evt_k2', 'quote.other', 'a string'), ev('evt_k3')] });
        const [entry] = (await store.outbox.heads({ limit: 1000 })).filter((e) => e.accountId === a.id);
        const kept = store.documents<unknown>('events');
        await store.outbox.keep(entry, ['evt_k1', 'evt_k2', 'evt_nope'], 'events');
        const k1 = await kept.get(a.id, 'evt_k1');
        assert.deepEqual(k1?.data, payload);
        assert.equal(k1?.version, 1);
        assert.deepEqual((await kept.get(a.id, 'evt_k2'))?.data, 'a string');
        assert.equal(await kept.get(a.id, 'evt_k3'), null, 'only the ids given');
        assert.equal(await kept.get(b.id, 'evt_k1'), null, 'the record\'s account owns it');
        assert.equal(await kept.get(a.id, 'evt_nope'), null);
        await kept.update(a.id, 'evt_k1', { changed: true });
        await store.outbox.keep(entry, ['evt_k1'], 'events');
        assert.deepEqual((await kept.get(a.id, 'evt_k1'))?.data, { changed: true }, 'a kept event stays as it is');
        assert.equal((await mine([a.id])).length, 1, 'keep does not clear');
        await store.outbox.clear(entry, ['evt_k1', 'evt_k2', 'evt_k3']);
        await store.outbox.keep(entry, ['evt_k3'], 'events');
        assert.equal(await kept.get(a.id, 'evt_k3'), null, 'a cleared event is not pending any more');
        assert.deepEqual((await quotes.get(a.id, q.id))?.data, { s: 'ready' });
        await rejectsWith(store.outbox.keep(entry, ['evt_k1'], 'Bad Name'), 'invalid_argument', 'collection');
        await rejectsWith(store.outbox.keep({ ...entry, source: 'elsewhere' }, ['evt_k1'], 'events'), 'invalid_argument', 'source');
      });

      it('onRecorded: told after each write of this store object that recorded events', async () => {
        const a = await newAccount(store);
        let told = 0;
        const off = store.outbox.onRecorded(() => { told++; });
        try {
          const notes = store.documents<{ n: number }>('outbox_told');
          const n = await notes.create(a.id, { n: 1 });
          assert.equal(told, 0, 'no events, not told');
          await notes.create(a.id, { n: 2 }, { events: [ev('evt_t1')] });
          assert.equal(told, 1, 'told by the time the write resolves');
          await notes.update(a.id, n.id, { n: 3 }, { events: [ev('evt_t2')] });
          assert.equal(told, 2);
          await rejectsWith(notes.update(a.id, n.id, { n: 4 }, { expectedVersion: 1, events: [ev('evt_t3')] }), 'conflict', 'expectedVersion');
          const d = await store.designs.create(a.id, newDesignInput());
          assert.equal(await store.designs.transition(a.id, d.id, 'ready', { status: 'failed', events: [ev('evt_t4')] }), null);
          assert.equal(told, 2, 'writes that did not apply recorded nothing');
          await store.designs.transition(a.id, d.id, 'queued', { status: 'ready', events: [ev('evt_t5')] });
          assert.equal(told, 3);
          const other = await env.open({ now: clock.now });
          try {
            await other.documents<{ n: number }>('outbox_told').create(a.id, { n: 5 }, { events: [ev('evt_t6')] });
          } finally {
            await other.close();
          }
          assert.equal(told, 3, 'another store object\'s writes are not seen');
        } finally {
          off();
        }
        await store.documents<{ n: number }>('outbox_told').create(a.id, { n: 6 }, { events: [ev('evt_t7')] });
        assert.equal(told, 3, 'removed');
      });

      it('refuses malformed events and sources', async () => {
        const a = await newAccount(store);
        const c = store.documents<{ n: number }>('carts');
        await rejectsWith(c.create(a.id, { n: 1 }, { events: [{ id: '', type: 'x', payload: null }] }), 'invalid_argument', 'events.id');
        await rejectsWith(store.outbox.clear({ source: 'elsewhere', accountId: a.id, resourceId: 'x' }, []), 'invalid_argument', 'source');
        await rejectsWith(store.outbox.pending({ limit: 0 }), 'invalid_argument', 'limit');
        assert.equal((await c.list(a.id)).items.length, 0, 'nothing written');
      });
    });

    describe('leases', () => {
      it('one holder at a time: renewed by its holder, taken over once ended, released at once', async () => {
        const name = `relay_${Math.random().toString(36).slice(2)}`;
        assert.equal(await store.leases.acquire(name, 'p1', 1000), true, 'free');
        assert.equal(await store.leases.acquire(name, 'p2', 1000), false, 'held by p1');
        clock.advance(600);
        assert.equal(await store.leases.acquire(name, 'p1', 1000), true, 'renewed');
        clock.advance(600);
        assert.equal(await store.leases.acquire(name, 'p2', 1000), false, 'the renewal counts from when it was made');
        clock.advance(400);
        assert.equal(await store.leases.acquire(name, 'p2', 1000), true, 'p1 stopped renewing: ended');
        assert.equal(await store.leases.acquire(name, 'p1', 1000), false, 'p1 lost it');
        assert.equal(await store.leases.release(name, 'p1'), false, 'not p1\'s to release');
        assert.equal(await store.leases.release(name, 'p2'), true);
        assert.equal(await store.leases.acquire(name, 'p1', 1000), true, 'free again at once');
        assert.equal(await store.leases.acquire(`${name}_other`, 'p2', 1000), true, 'each name is its own lease');
      });

      it('two taking a free lease at once: exactly one holds it', async () => {
        const name = `race_${Math.random().toString(36).slice(2)}`;
        const got = await Promise.all(['p1', 'p2', 'p3'].map((h) => store.leases.acquire(name, h, 1000)));
        assert.equal(got.filter(Boolean).length, 1);
        const other = await env.open({ now: clock.now });
        try {
          const holder = ['p1', 'p2', 'p3'][got.indexOf(true)];
          assert.equal(await other.leases.acquire(name, 'p4', 1000), false, 'another connection sees it held');
          assert.equal(await other.leases.acquire(name, holder, 1000), true);
        } finally {
          await other.close();
        }
      });

      it('refuses malformed names, holders and durations', async () => {
        await rejectsWith(store.leases.acquire('', 'p1', 1000), 'invalid_argument', 'name');
        await rejectsWith(store.leases.acquire('x'.repeat(101), 'p1', 1000), 'invalid_argument', 'name');
        await rejectsWith(store.leases.acquire('n', '', 1000), 'invalid_argument', 'holder');
        await rejectsWith(store.leases.acquire('n', 'p1', 0), 'invalid_argument', 'ttlMs');
        await rejectsWith(store.leases.release('n', ''), 'invalid_argument', 'holder');
      });
    });

    describe('idempotency', () => {
      it('starts, reports in progress, detects mismatch, replays', async () => {
        const a = await newAccount(store);
        assert.equal((await store.idempotency.begin(a.id, 'key-1', 'fp-1')).state, 'started');
        assert.deepEqual(await store.idempotency.begin(a.id, 'key-1', 'fp-1'), { state: 'in_progress' });
        assert.deepEqual(await store.idempotency.begin(a.id, 'key-1', 'fp-2'), { state: 'mismatch' });
        const body = { id: 'quo_1', items: [{ amount_cents: 100 }] };
        assert.equal(await store.idempotency.finish(a.id, 'key-1', { status: 201, body, headers: { location: '/v1/quotes/quo_1' } }), true);
        assert.deepEqual(await store.idempotency.begin(a.id, 'key-1', 'fp-1'), { state: 'replay', status: 201, body, headers: { location: '/v1/quotes/quo_1' } });
        assert.deepEqual(await store.idempotency.begin(a.id, 'key-1', 'fp-2'), { state: 'mismatch' });
        assert.equal(await store.idempotency.finish(a.id, 'key-1', { status: 200, body: {} }), false, 'finished once');
      });

      it('keeps keys per account', async () => {
        const a = await newAccount(store);
        const b = await newAccount(store);
        assert.equal((await store.idempotency.begin(a.id, 'shared', 'fp-a')).state, 'started');
        assert.equal((await store.idempotency.begin(b.id, 'shared', 'fp-b')).state, 'started');
      });

      it('lets a retry run again after abandon', async () => {
        const a = await newAccount(store);
        await store.idempotency.begin(a.id, 'k-abandon', 'fp');
        assert.equal(await store.idempotency.abandon(a.id, 'k-abandon'), true);
        assert.equal((await store.idempotency.begin(a.id, 'k-abandon', 'fp-other')).state, 'started');
        await store.idempotency.finish(a.id, 'k-abandon', { status: 200, body: null });
        assert.equal(await store.idempotency.abandon(a.id, 'k-abandon'), false, 'a finished record is kept');
      });

      it('forgets keys after 24 hours and takes over a stale in-flight record', async () => {
        const a = await newAccount(store);
        await store.idempotency.begin(a.id, 'k-exp', 'fp-1');
        await store.idempotency.finish(a.id, 'k-exp', { status: 201, body: { n: 1 } });
        clock.advance(24 * HOUR_MS + 1);
        assert.equal((await store.idempotency.begin(a.id, 'k-exp', 'fp-2')).state, 'started');
        assert.equal((await store.idempotency.begin(a.id, 'k-stale', 'fp')).state, 'started');
        assert.deepEqual(await store.idempotency.begin(a.id, 'k-stale', 'fp', { staleAfterMs: 60_000 }), { state: 'in_progress' });
        clock.advance(60_000);
        assert.equal((await store.idempotency.begin(a.id, 'k-stale', 'fp', { staleAfterMs: 60_000 })).state, 'started');
      });

      it('resumes a stale or released run of the same request with its seed; renewal keeps it running', async () => {
        const a = await newAccount(store);
        const first = await store.idempotency.begin(a.id, 'k-seed', 'fp', { staleAfterMs: 60_000 });
        assert.ok(first.state === 'started' && /^[0-9a-f]{32}$/.test(first.seed) && !first.resumed);
        clock.advance(50_000);
        assert.equal(await store.idempotency.renew(a.id, 'k-seed'), true);
        clock.advance(50_000);
        assert.deepEqual(await store.idempotency.begin(a.id, 'k-seed', 'fp', { staleAfterMs: 60_000 }), { state: 'in_progress' }, 'renewed 50 s ago');
        clock.advance(10_000);
        assert.deepEqual(await store.idempotency.begin(a.id, 'k-seed', 'fp', { staleAfterMs: 60_000 }), { state: 'started', seed: first.seed, resumed: true });
        assert.equal(await store.idempotency.release(a.id, 'k-seed'), true);
        assert.deepEqual(await store.idempotency.begin(a.id, 'k-seed', 'fp', { staleAfterMs: 60_000 }), { state: 'started', seed: first.seed, resumed: true });
        assert.deepEqual(await store.idempotency.begin(a.id, 'k-seed', 'fp-other', { staleAfterMs: 60_000 }), { state: 'mismatch' });
        await store.idempotency.finish(a.id, 'k-seed', { status: 201, body: null });
        assert.equal(await store.idempotency.renew(a.id, 'k-seed'), false, 'finished');
        assert.equal(await store.idempotency.release(a.id, 'k-seed'), false, 'finished');
        await store.idempotency.begin(a.id, 'k-other', 'fp');
        assert.equal(await store.idempotency.abandon(a.id, 'k-other'), true);
        const again = await store.idempotency.begin(a.id, 'k-other', 'fp');
        assert.ok(again.state === 'started' && !again.resumed && again.seed !== first.seed, 'an abandoned record starts afresh');
      });

      it('gives exactly one of several concurrent identical requests the start', async () => {
        const a = await newAccount(store);
        const results = await Promise.all(Array.from({ length: 8 }, () => store.idempotency.begin(a.id, 'k-race', 'fp')));
        assert.equal(results.filter((r) => r.state === 'started').length, 1);
        assert.equal(results.filter((r) => r.state === 'in_progress').length, 7);
      });

      it('refuses a malformed key or response', async () => {
        const a = await newAccount(store);
        await rejectsWith(store.idempotency.begin(a.id, '', 'fp'), 'invalid_argument', 'key');
        await rejectsWith(store.idempotency.begin(a.id, 'x'.repeat(256), 'fp'), 'invalid_argument', 'key');
        await rejectsWith(store.idempotency.begin(a.id, 'has space', 'fp'), 'invalid_argument', 'key');
        await store.idempotency.begin(a.id, 'k-resp', 'fp');
        await rejectsWith(store.idempotency.finish(a.id, 'k-resp', { status: 42, body: null }), 'invalid_argument', 'status');
      });
    });

    describe('blobs', () => {
      it('lists old blobs by prefix and suffix', async () => {
        await store.blobs.put('olderlist/d1/source.step', Buffer.from('a'));
        await store.blobs.put('olderlist/d1/files/model.glb', Buffer.from('b'));
        clock.advance(2 * HOUR_MS);
        await store.blobs.put('olderlist/d2/source.step', Buffer.from('c'));
        assert.deepEqual(await store.blobs.listOlder({ prefix: 'olderlist/', suffix: '/source.step', olderThanMs: HOUR_MS, limit: 10 }), ['olderlist/d1/source.step']);
        assert.deepEqual(await store.blobs.listOlder({ prefix: 'olderlist/', olderThanMs: HOUR_MS, limit: 1 }), ['olderlist/d1/files/model.glb']);
        await rejectsWith(store.blobs.listOlder({ prefix: 'x', olderThanMs: 0, limit: 0 }), 'invalid_argument', 'limit');
      });

      it('sweep keeps every recorded blob, however old', async () => {
        await store.blobs.put('sweep/kept.bin', Buffer.from('kept'));
        clock.advance(2 * HOUR_MS);
        const swept = await store.blobs.sweep(HOUR_MS);
        assert.equal(typeof swept.partial, 'number');
        assert.equal(typeof swept.unrecorded, 'number');
        assert.deepEqual(await store.blobs.get('sweep/kept.bin'), Buffer.from('kept'));
      });

      it('puts, reads, streams, stats and deletes', async () => {
        const bytes = Buffer.from('ISO-10303-21;\nHEADER;\n');
        const info = await store.blobs.put('uploads/acct_1/part.step', bytes, { contentType: 'model/step' });
        assert.equal(info.size, bytes.length);
        assert.match(info.sha256, /^[0-9a-f]{64}$/);
        assert.deepEqual(await store.blobs.get('uploads/acct_1/part.step'), bytes);
        assert.deepEqual(await store.blobs.stat('uploads/acct_1/part.step'), { key: 'uploads/acct_1/part.step', size: bytes.length, sha256: info.sha256, contentType: 'model/step' });
        assert.equal(await store.blobs.exists('uploads/acct_1/part.step'), true);
        const s = await store.blobs.stream('uploads/acct_1/part.step');
        assert.ok(s);
        const chunks: Buffer[] = [];
        for await (const c of s) chunks.push(Buffer.from(c as Uint8Array));
        assert.deepEqual(Buffer.concat(chunks), bytes);
        assert.equal(await store.blobs.delete('uploads/acct_1/part.step'), true);
        assert.equal(await store.blobs.delete('uploads/acct_1/part.step'), false);
        assert.equal(await store.blobs.get('uploads/acct_1/part.step'), null);
        assert.equal(await store.blobs.stream('uploads/acct_1/part.step'), null);
        assert.equal(await store.blobs.stat('uploads/acct_1/part.step'), null);
        assert.equal(await store.blobs.exists('uploads/acct_1/part.step'), false);
      });

      it('accepts a stream, replaces on a second put', async () => {
        const big = Buffer.alloc(3 * 1024 * 1024 + 17, 7);
        const info = await store.blobs.put('files/big.bin', Readable.from([big.subarray(0, 1000), big.subarray(1000)]));
        assert.equal(info.size, big.length);
        assert.deepEqual(await store.blobs.get('files/big.bin'), big);
        await store.blobs.put('files/big.bin', Buffer.from('small'));
        assert.deepEqual(await store.blobs.get('files/big.bin'), Buffer.from('small'));
        assert.equal((await store.blobs.stat('files/big.bin'))?.size, 5);
      });

      it('refuses more than maxBytes and keeps the previous content', async () => {
        await store.blobs.put('files/limited.bin', Buffer.from('old'));
        await rejectsWith(store.blobs.put('files/limited.bin', Buffer.alloc(11), { maxBytes: 10 }), 'invalid_argument', 'size');
        assert.deepEqual(await store.blobs.get('files/limited.bin'), Buffer.from('old'));
        await rejectsWith(store.blobs.put('files/never.bin', Readable.from([Buffer.alloc(8), Buffer.alloc(8)]), { maxBytes: 10 }), 'invalid_argument', 'size');
        assert.equal(await store.blobs.exists('files/never.bin'), false);
      });

      it('keeps nothing of a put whose source fails midway', async () => {
        async function* failing() {
          yield Buffer.from('partial');
          throw new Error('client went away');
        }
        await assert.rejects(store.blobs.put('files/broken.bin', failing()), /client went away/);
        assert.equal(await store.blobs.exists('files/broken.bin'), false);
      });

      it('refuses keys that could escape the blob area', async () => {
        for (const key of ['', '../x', 'a/../../x', '/abs', 'a//b', 'a/./b', 'back\\slash', 'sp ace', 'a/', 'x'.repeat(513)]) {
          await rejectsWith(store.blobs.put(key, Buffer.from('x')), 'invalid_argument', 'key');
          await rejectsWith(store.blobs.get(key), 'invalid_argument', 'key');
        }
      });
    });

    describe('rate counters', () => {
      it('counts a key within its window, apart from other keys, and starts again once it ended', async () => {
        const counts = [];
        for (let i = 0; i < 3; i++) counts.push((await store.rateCounters.hit('rc:a', 60_000)).count);
        assert.deepEqual(counts, [1, 2, 3]);
        assert.equal((await store.rateCounters.hit('rc:b', 60_000)).count, 1, 'another key');
        clock.advance(20_000);
        const later = await store.rateCounters.hit('rc:a', 60_000);
        assert.equal(later.count, 4);
        assert.ok(later.ttlMs > 39_000 && later.ttlMs <= 40_000, `the window ends 60 s after its first request (ttl ${later.ttlMs})`);
        clock.advance(40_000);
        const fresh = await store.rateCounters.hit('rc:a', 60_000);
        assert.equal(fresh.count, 1, 'a new window');
        assert.equal(fresh.ttlMs, 60_000);
      });

      it('shares the counts with another store open on the same database, without losing any to a race', async () => {
        const other = await env.open({ now: clock.now });
        try {
          const all = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? other : store).rateCounters.hit('rc:shared', 60_000)));
          assert.deepEqual(all.map((r) => r.count).sort((x, y) => x - y), Array.from({ length: 20 }, (_, i) => i + 1));
        } finally {
          await other.close();
        }
      });

      it('refuses an empty or overlong key and a window that is not positive', async () => {
        await rejectsWith(store.rateCounters.hit('', 1000), 'invalid_argument', 'key');
        await rejectsWith(store.rateCounters.hit('k'.repeat(201), 1000), 'invalid_argument', 'key');
        await rejectsWith(store.rateCounters.hit('rc:c', 0), 'invalid_argument', 'windowMs');
      });
    });

    describe('durability and lifecycle', () => {
      it('keeps everything across close and reopen', async () => {
        const a = await newAccount(store);
        const k = await store.apiKeys.create(a.id);
        const d = await store.designs.create(a.id, { ...newDesignInput(), job: { kind: 'analyze' } });
        const q = await store.documents<{ total: number }>('quotes').create(a.id, { total: 5 });
        await store.idempotency.begin(a.id, 'k-dur', 'fp');
        await store.idempotency.finish(a.id, 'k-dur', { status: 201, body: { id: q.id } });
        await store.blobs.put('uploads/durable.step', Buffer.from('durable'));
        await store.close();
        assert.equal((await store.health()).ok, false);
        await store.close(); // idempotent
        store = await env.open({ now: clock.now });
        assert.equal((await store.health()).ok, true);
        assert.deepEqual(await store.accounts.get(a.id), a);
        assert.equal((await store.apiKeys.authenticate(k!.api_key))?.accountId, a.id);
        assert.deepEqual((await store.designs.get(a.id, d.id))?.id, d.id);
        assert.equal((await store.jobs.listForResource(d.id)).length, 1);
        assert.deepEqual((await store.documents<{ total: number }>('quotes').get(a.id, q.id))?.data, { total: 5 });
        assert.deepEqual(await store.idempotency.begin(a.id, 'k-dur', 'fp'), { state: 'replay', status: 201, body: { id: q.id }, headers: {} });
        assert.deepEqual(await store.blobs.get('uploads/durable.step'), Buffer.from('durable'));
      });
    });
  });
}
