// The store contract on the embedded SQLite store, plus what only the embedded store has: files
// on disk, migrations, and separate OS processes sharing one database file.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { isStoreError, openStore } from '../src/index.ts';
import { DATABASE_FILE } from '../src/sqlite/store.ts';
import { RATE_COUNTERS_FILE } from '../src/sqlite/rateCounters.ts';
import { MIGRATIONS } from '../src/sqlite/migrations.ts';
import { runStoreContract } from './contract.ts';

async function tempDir(): Promise<string> {
  return mkdtemp(join(tmpdir(), 'kerf-store-'));
}

runStoreContract('sqlite', {
  async fresh() {
    const dataDir = await tempDir();
    return {
      open: (opts = {}) => openStore({ dataDir, ...opts }),
      cleanup: () => rm(dataDir, { recursive: true, force: true }),
    };
  },
});

const CLAIMER = fileURLToPath(new URL('./fixtures/claim-jobs.ts', import.meta.url));

interface Claimer { ready: Promise<void>; done: Promise<string[]> }

function startClaimer(dataDir: string, worker: string, kind: string, goFile: string): Claimer {
  const child = spawn(process.execPath, ['--import', 'tsx', CLAIMER, dataDir, worker, kind, goFile], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  let markReady: () => void = () => {};
  const ready = new Promise<void>((r) => { markReady = r; });
  child.stdout.on('data', (d) => { out += d; if (out.startsWith('ready\n')) markReady(); });
  child.stderr.on('data', (d) => { err += d; });
  const done = new Promise<string[]>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => {
      markReady();
      if (code !== 0) reject(new Error(`claimer ${worker} exited ${code}: ${err}`));
      else resolve(JSON.parse(out.trim().split('\n').pop() ?? '[]') as string[]);
    });
  });
  return { ready, done };
}

const CRASHER = fileURLToPath(new URL('./fixtures/crash-worker.ts', import.meta.url));

/** Starts the crash worker, waits for its first output line, kills it with SIGKILL, returns the line. */
function runAndKill(args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', CRASHER, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    let line: string | null = null;
    child.stdout.on('data', (d) => {
      out += d;
      const nl = out.indexOf('\n');
      if (nl >= 0 && line === null) { line = out.slice(0, nl); child.kill('SIGKILL'); }
    });
    child.stderr.on('data', (d) => { err += d; });
    child.on('error', reject);
    child.on('close', (_code, signal) => {
      if (line !== null && signal === 'SIGKILL') resolve(line);
      else reject(new Error(`crash worker ended on its own (${signal}): ${err}`));
    });
  });
}

/** Polls `attempt` until it returns non-null; the bound only keeps a broken store from hanging the run. */
async function eventually<T>(attempt: () => Promise<T | null>, tries = 400, pauseMs = 25): Promise<T | null> {
  for (let i = 0; i < tries; i++) {
    const v = await attempt();
    if (v !== null) return v;
    await new Promise((r) => setTimeout(r, pauseMs));
  }
  return null;
}

describe('sqlite store after a process is killed', () => {
  it('a job held by a killed process is claimed again once its lease expires', async () => {
    const dataDir = await tempDir();
    try {
      const store = await openStore({ dataDir });
      const account = await store.accounts.create({ email: 'crash@example.com' });
      const job = await store.jobs.enqueue({ kind: 'analyze', resourceId: 'des_crash', accountId: account.id });
      const claimedBy = await runAndKill(['claim', dataDir, 'analyze', '300']);
      assert.equal(claimedBy, job.id);
      assert.equal((await store.jobs.get(job.id))?.workerId, 'doomed');
      const again = await eventually(() => store.jobs.claim('survivor', 60_000, { kinds: ['analyze'] }));
      assert.equal(again?.id, job.id);
      assert.equal(again?.attempts, 2);
      assert.equal(await store.jobs.complete(job.id, 'survivor'), true);
      await store.close();
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('a blob put killed midway leaves the previous content and no readable half file', async () => {
    const dataDir = await tempDir();
    try {
      const store = await openStore({ dataDir });
      await store.blobs.put('uploads/part.step', Buffer.from('previous'));
      assert.equal(await runAndKill(['put', dataDir, 'uploads/part.step']), 'writing');
      assert.deepEqual(await store.blobs.get('uploads/part.step'), Buffer.from('previous'));
      assert.equal((await store.blobs.stat('uploads/part.step'))?.size, 8);
      const leftovers = await readdir(join(dataDir, 'tmp'));
      assert.equal(leftovers.length, 1, 'the partial write stays in tmp/ (swept once old), never under the key');
      await store.close();
      // A fresh open keeps young temp files (another process may be writing them).
      await (await openStore({ dataDir })).close();
      assert.deepEqual(await readdir(join(dataDir, 'tmp')), leftovers);
      // Once older than an hour it is a crash's leftover and the next open removes it.
      const twoHoursAgo = new Date(Date.now() - 2 * 60 * 60 * 1000);
      await utimes(join(dataDir, 'tmp', leftovers[0]), twoHoursAgo, twoHoursAgo);
      await (await openStore({ dataDir })).close();
      assert.deepEqual(await readdir(join(dataDir, 'tmp')), []);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});

describe('sqlite store specifics', () => {
  it('two OS processes on one database file claim 20 jobs: each exactly once', async () => {
    const dataDir = await tempDir();
    try {
      const store = await openStore({ dataDir });
      const account = await store.accounts.create({ email: 'jobs@example.com' });
      const ids = new Set<string>();
      for (let i = 0; i < 20; i++) ids.add((await store.jobs.enqueue({ kind: 'analyze', resourceId: `des_${i}`, accountId: account.id })).id);
      await store.close();
      const goFile = join(dataDir, 'go');
      const claimers = [startClaimer(dataDir, 'proc-a', 'analyze', goFile), startClaimer(dataDir, 'proc-b', 'analyze', goFile)];
      await Promise.all(claimers.map((c) => c.ready));
      await writeFile(goFile, '');
      const [a, b] = await Promise.all(claimers.map((c) => c.done));
      const all = [...a, ...b];
      assert.equal(all.length, 20, `claimed ${a.length} + ${b.length}`);
      assert.ok(a.length > 0 && b.length > 0, `both processes took part (${a.length} + ${b.length})`);
      assert.deepEqual(new Set(all), ids);
      const reopened = await openStore({ dataDir });
      for (const id of ids) assert.equal((await reopened.jobs.get(id))?.status, 'done');
      await reopened.close();
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('remembers a good API key until a key or an account changes, by this store, another connection or plain SQL', async () => {
    const dataDir = await tempDir();
    const store = await openStore({ dataDir });
    const other = await openStore({ dataDir });
    try {
      const account = await store.accounts.create({ email: 'keys@example.com' });
      const [k1, k2] = [(await store.apiKeys.create(account.id))!, (await store.apiKeys.create(account.id))!];
      // white box: count the lookups by hash the store makes
      const byHash = (store.apiKeys as unknown as { byHash: { get: (...a: unknown[]) => unknown } }).byHash;
      const get = byHash.get.bind(byHash);
      let lookups = 0;
      byHash.get = (...a: unknown[]) => { lookups++; return get(...a); };
      for (let i = 0; i < 5; i++) assert.equal((await store.apiKeys.authenticate(k1.api_key))?.keyId, k1.id);
      await store.documents<{ n: number }>('notes').create(account.id, { n: 1 });
      await other.documents<{ n: number }>('notes').create(account.id, { n: 2 });
      await other.apiKeys.authenticate(k2.api_key); // its last-used time, written by another connection
      assert.equal((await store.apiKeys.authenticate(k1.api_key))?.keyId, k1.id);
      assert.equal(lookups, 1, 'looked up once; other writes, this store\'s or another connection\'s, change nothing it remembers');
      assert.equal(await other.apiKeys.revoke(account.id, k1.id), true);
      assert.equal(await store.apiKeys.authenticate(k1.api_key), null, 'revoked by another connection: refused at once');
      assert.equal((await store.apiKeys.authenticate(k2.api_key))?.operator, false);
      await store.accounts.update(account.id, { operator: true });
      await store.apiKeys.authenticate(k2.api_key);
      assert.equal(await store.apiKeys.revoke(account.id, k2.id), true);
      assert.equal(await store.apiKeys.authenticate(k2.api_key), null, 'revoked by this store: refused at once');
      assert.equal(lookups, 5);
      // an operator's tool changing the database directly is seen too (the count moves by trigger)
      const k3 = (await store.apiKeys.create(account.id))!;
      assert.equal((await store.apiKeys.authenticate(k3.api_key))?.keyId, k3.id);
      const raw = new Database(join(dataDir, DATABASE_FILE));
      raw.prepare('UPDATE api_keys SET revoked_at = ? WHERE id = ?').run(new Date().toISOString(), k3.id);
      raw.close();
      assert.equal(await store.apiKeys.authenticate(k3.api_key), null, 'revoked by plain SQL: refused at once');
    } finally {
      await other.close();
      await store.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('keeps a long text named apart once per account: rows name it, every read gives the whole document back', async () => {
    const dataDir = await tempDir();
    try {
      const store = await openStore({ dataDir });
      const [a, b] = [await store.accounts.create({ email: 'apart-a@example.com' }), await store.accounts.create({ email: 'apart-b@example.com' })];
      const lines = Object.freeze([{ part_id: 'prt_1', note: 'x'.repeat(2000) }]);
      const fulfillment = Object.freeze({ speed: 'standard', note: 'y'.repeat(1000) });
      const apart = [lines, fulfillment];
      type Quote = { n: number; status: string; items: Array<{ line_items: unknown }>; fulfillment: unknown };
      const quote = (n: number): Quote => ({ n, status: 'ready', items: [{ line_items: lines }], fulfillment });
      const plain = (n: number): Quote => JSON.parse(JSON.stringify(quote(n))) as Quote;
      const quotes = store.documents<Quote>('quotes');
      const created = [];
      for (let n = 0; n < 3; n++) created.push(await quotes.create(a.id, quote(n), { key: `k${n}`, apart }));
      await quotes.create(b.id, quote(9), { apart });
      await quotes.create(b.id, quote(8));
      assert.deepEqual(created[0].data, plain(0), 'the created record reads whole');
      assert.deepEqual((await quotes.get(a.id, created[1].id))?.data, plain(1));
      assert.deepEqual((await quotes.getByKey(a.id, 'k2'))?.data, plain(2));
      assert.deepEqual((await quotes.list(a.id, { filter: { status: 'ready' } })).items.map((r) => r.data).sort((x, y) => x.n - y.n), [0, 1, 2].map(plain));
      assert.deepEqual((await quotes.list(a.id, { filter: { fulfillment: null } })).items, [], 'a field kept apart is an object to a filter, not null');
      assert.deepEqual((await quotes.update(a.id, created[0].id, { ...quote(0), status: 'expired' }, { apart }))?.data, { ...plain(0), status: 'expired' });
      await store.close();
      const db = new Database(join(dataDir, DATABASE_FILE), { readonly: true });
      const texts = db.prepare('SELECT account_id FROM texts_apart ORDER BY account_id').pluck().all();
      assert.deepEqual(texts, [a.id, a.id, b.id, b.id].sort(), 'each text once per account, none across accounts');
      const lengths = db.prepare("SELECT length(data) FROM documents WHERE collection = 'quotes'").pluck().all() as number[];
      assert.deepEqual(lengths.map((len) => len < 200).sort(), [false, true, true, true, true], 'each row names its texts apart; the one written without `apart` holds them');
      db.close();
      const reopened = await openStore({ dataDir });
      assert.deepEqual((await reopened.documents<Quote>('quotes').get(a.id, created[1].id))?.data, plain(1), 'read from the database, not a process\'s memory');
      await reopened.close();
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('creates the database in WAL mode with every migration recorded', async () => {
    const dataDir = await tempDir();
    try {
      const store = await openStore({ dataDir });
      await store.close();
      const db = new Database(join(dataDir, DATABASE_FILE), { readonly: true });
      assert.equal(db.pragma('journal_mode', { simple: true }), 'wal');
      const versions = (db.prepare('SELECT version FROM schema_migrations ORDER BY version').all() as { version: number }[]).map((r) => r.version);
      assert.deepEqual(versions, MIGRATIONS.map((m) => m.version));
      db.close();
      // A second open applies nothing twice.
      const again = await openStore({ dataDir });
      await again.close();
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('keeps rate counts in a WAL file of its own and deletes ended windows a batch at a time', async () => {
    const dataDir = await tempDir();
    let t = Date.now();
    const store = await openStore({ dataDir, now: () => new Date(t) });
    try {
      for (let i = 0; i < 1500; i++) await store.rateCounters.hit(`flood:${i}`, 60_000);
      const db = new Database(join(dataDir, RATE_COUNTERS_FILE), { readonly: true });
      const rows = (): number => (db.prepare('SELECT count(*) AS n FROM rate_counters').get() as { n: number }).n;
      assert.equal(rows(), 1500);
      t += 61_000;
      await store.rateCounters.hit('live', 60_000);
      assert.equal(rows(), 501, 'one batch of ended windows, plus the new key');
      await store.rateCounters.hit('live', 60_000);
      assert.equal(rows(), 1, 'a full batch: the next request deletes the rest');
      db.close();
      const own = new Database(join(dataDir, RATE_COUNTERS_FILE));
      assert.equal(own.pragma('journal_mode', { simple: true }), 'wal');
      own.close();
    } finally {
      await store.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('refuses a database written by a newer build', async () => {
    const dataDir = await tempDir();
    try {
      await (await openStore({ dataDir })).close();
      const db = new Database(join(dataDir, DATABASE_FILE));
      db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (999, ?, ?)').run('future', new Date().toISOString());
      db.close();
      await assert.rejects(openStore({ dataDir }), (e: unknown) => isStoreError(e, 'store_unavailable') && /newer/.test(e.message));
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('keeps only the hash of an API key on disk', async () => {
    const dataDir = await tempDir();
    try {
      const store = await openStore({ dataDir });
      const account = await store.accounts.create({ email: 'hash@example.com' });
      const key = await store.apiKeys.create(account.id);
      await store.close();
      const secret = key!.api_key.slice('kerf_live_'.length);
      for (const name of await readdir(dataDir)) {
        if (!name.startsWith(DATABASE_FILE)) continue;
        const bytes = await readFile(join(dataDir, name));
        assert.equal(bytes.includes(Buffer.from(secret)), false, `${name} holds the plaintext key`);
      }
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('stores blobs as files under the data dir and leaves no temp file after a failed put', async () => {
    const dataDir = await tempDir();
    try {
      const store = await openStore({ dataDir });
      await store.blobs.put('uploads/a/b.step', Buffer.from('abc'));
      assert.equal(await readFile(join(dataDir, 'blobs', 'uploads', 'a', 'b.step'), 'utf8'), 'abc');
      async function* failing() { yield Buffer.from('x'); throw new Error('boom'); }
      await assert.rejects(store.blobs.put('uploads/a/c.step', failing()));
      assert.deepEqual(await readdir(join(dataDir, 'tmp')), []);
      await store.close();
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('fails with store_unavailable when the data dir cannot be used', async () => {
    const dir = await tempDir();
    try {
      const file = join(dir, 'not-a-dir');
      await writeFile(file, 'x');
      await assert.rejects(openStore({ dataDir: join(file, 'data') }), (e: unknown) => isStoreError(e, 'store_unavailable'));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
