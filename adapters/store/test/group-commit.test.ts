// Group commit on the embedded store: writes made together share one transaction, yet each caller
// hears "done" only once its write is committed, and a write that fails takes no other write with it.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { isStoreError, openStore, type Store } from '../src/index.ts';
import { DATABASE_FILE } from '../src/sqlite/store.ts';
import { GroupCommit } from '../src/sqlite/group-commit.ts';

async function withStore(run: (store: Store, dataDir: string) => Promise<void>): Promise<void> {
  const dataDir = await mkdtemp(join(tmpdir(), 'kerf-group-'));
  const store = await openStore({ dataDir });
  try {
    await run(store, dataDir);
  } finally {
    await store.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

/** A second connection sees only what was committed. */
function otherConnection(dataDir: string): Database.Database {
  return new Database(join(dataDir, DATABASE_FILE), { timeout: 5000 });
}

describe('sqlite group commit', () => {
  it('many concurrent writes: each is committed by the time its promise resolves', async () => {
    await withStore(async (store, dataDir) => {
      const account = await store.accounts.create({ email: 'group@example.com' });
      const other = otherConnection(dataDir);
      try {
        const seen = other.prepare(`SELECT count(*) AS n FROM documents WHERE collection = 'notes' AND id = ?`);
        const notes = store.documents<{ n: number }>('notes');
        const visibleAtResolve = await Promise.all(Array.from({ length: 200 }, (_, i) =>
          notes.create(account.id, { n: i }, { id: `note_${i}` }).then((rec) => (seen.get(rec.id) as { n: number }).n)));
        assert.deepEqual(visibleAtResolve, Array(200).fill(1));
        const total = other.prepare(`SELECT count(*) AS n FROM documents WHERE collection = 'notes'`).get() as { n: number };
        assert.equal(total.n, 200);
      } finally {
        other.close();
      }
    });
  });

  it('a write that fails in a group fails alone: the writes beside it are kept', async () => {
    await withStore(async (store, dataDir) => {
      const account = await store.accounts.create({ email: 'fail@example.com' });
      const notes = store.documents<{ n: number }>('notes');
      await notes.create(account.id, { n: 0 }, { id: 'taken' });
      const results = await Promise.allSettled([
        notes.create(account.id, { n: 1 }, { id: 'first' }),
        notes.create(account.id, { n: 2 }, { id: 'taken' }),
        store.designs.create('acct_missing', { name: 'x.step', sourceBlobKey: 'k', sourceSize: 1, sourceSha256: 'a'.repeat(64), options: {}, job: { kind: 'analyze' } }),
        notes.create(account.id, { n: 3 }, { id: 'third' }),
      ]);
      assert.equal(results[0].status, 'fulfilled');
      assert.ok(results[1].status === 'rejected' && isStoreError(results[1].reason, 'duplicate'));
      assert.ok(results[2].status === 'rejected' && isStoreError(results[2].reason, 'invalid_argument'));
      assert.equal(results[3].status, 'fulfilled');
      const other = otherConnection(dataDir);
      try {
        const ids = (other.prepare(`SELECT id FROM documents WHERE collection = 'notes' ORDER BY id`).all() as Array<{ id: string }>).map((r) => r.id);
        assert.deepEqual(ids, ['first', 'taken', 'third']);
        assert.equal((other.prepare('SELECT count(*) AS n FROM jobs').get() as { n: number }).n, 0, 'the failed design left no job behind');
      } finally {
        other.close();
      }
    });
  });

  it('a failing write is undone entirely, its earlier statements too', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'kerf-group-'));
    const db = new Database(join(dataDir, 'g.sqlite'));
    try {
      db.pragma('journal_mode = WAL');
      db.exec('CREATE TABLE t (v TEXT PRIMARY KEY)');
      const group = new GroupCommit(db, 5000);
      const insert = db.prepare('INSERT INTO t (v) VALUES (?)');
      const results = await Promise.allSettled([
        group.write(() => insert.run('a')),
        group.write(() => { insert.run('half'); insert.run('a'); }),
        group.write(() => insert.run('b')),
      ]);
      assert.deepEqual(results.map((r) => r.status), ['fulfilled', 'rejected', 'fulfilled']);
      assert.deepEqual((db.prepare('SELECT v FROM t ORDER BY v').all() as Array<{ v: string }>).map((r) => r.v), ['a', 'b']);
      assert.equal(db.inTransaction, false);
    } finally {
      db.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('a group whose writes all succeed runs them without savepoints; one that fails runs again with them, once', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'kerf-group-'));
    const statements: string[] = [];
    const db = new Database(join(dataDir, 'g.sqlite'), { verbose: (sql) => statements.push(String(sql)) });
    try {
      db.pragma('journal_mode = WAL');
      db.exec('CREATE TABLE t (v TEXT PRIMARY KEY)');
      const group = new GroupCommit(db, 5000);
      const insert = db.prepare('INSERT INTO t (v) VALUES (?)');
      statements.length = 0;
      await Promise.all(['a', 'b', 'c'].map((v) => group.write(() => insert.run(v))));
      assert.equal(statements.filter((q) => q.startsWith('SAVEPOINT')).length, 0, statements.join('; '));
      assert.equal(statements.filter((q) => q === 'COMMIT').length, 1, 'one group');
      statements.length = 0;
      const results = await Promise.allSettled(['d', 'a', 'e'].map((v) => group.write(() => insert.run(v))));
      assert.deepEqual(results.map((r) => r.status), ['fulfilled', 'rejected', 'fulfilled']);
      assert.equal(statements.filter((q) => q.startsWith('SAVEPOINT')).length, 3, 'the group again, each write in a savepoint');
      statements.length = 0;
      await group.write(() => insert.run('f'));
      assert.equal(statements.filter((q) => q.startsWith('SAVEPOINT')).length, 0, 'the next group runs plainly again');
      assert.deepEqual((db.prepare('SELECT v FROM t ORDER BY v').all() as Array<{ v: string }>).map((r) => r.v), ['a', 'b', 'c', 'd', 'e', 'f']);
    } finally {
      db.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('while another process holds the write lock, writes wait without blocking the event loop, then commit', async () => {
    await withStore(async (store, dataDir) => {
      const account = await store.accounts.create({ email: 'lock@example.com' });
      const other = otherConnection(dataDir);
      try {
        other.exec('BEGIN IMMEDIATE');
        let settled = false;
        const write = store.documents('notes').create(account.id, { n: 1 }, { id: 'waited' }).finally(() => { settled = true; });
        // a blocked event loop would run this timer only after SQLite's busy timeout, with the write failed
        await new Promise((r) => setTimeout(r, 50));
        assert.equal(settled, false, 'the write waits for the lock');
        assert.equal(await store.documents('notes').get(account.id, 'waited'), null, 'and nothing of it is visible yet');
        other.exec('COMMIT');
        assert.equal((await write).id, 'waited');
        assert.equal((other.prepare(`SELECT count(*) AS n FROM documents WHERE id = 'waited'`).get() as { n: number }).n, 1);
      } finally {
        if (other.inTransaction) other.exec('ROLLBACK');
        other.close();
      }
    });
  });

  it('close commits the writes already asked for', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'kerf-group-'));
    try {
      const store = await openStore({ dataDir });
      const account = await store.accounts.create({ email: 'close@example.com' });
      const pending = store.documents('notes').create(account.id, { n: 1 }, { id: 'last' });
      await store.close();
      await pending;
      const again = await openStore({ dataDir });
      assert.equal((await again.documents('notes').get(account.id, 'last'))?.id, 'last');
      await again.close();
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});

const CRASHER = fileURLToPath(new URL('./fixtures/crash-worker.ts', import.meta.url));

describe('sqlite group commit when the process is killed', () => {
  it('every write a killed process was told had succeeded is there after the restart', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'kerf-group-'));
    try {
      const store = await openStore({ dataDir });
      const account = await store.accounts.create({ email: 'killed@example.com' });
      await store.close();
      const acked = await new Promise<string[]>((resolve, reject) => {
        const child = spawn(process.execPath, ['--import', 'tsx', CRASHER, 'notes', dataDir, account.id], { stdio: ['ignore', 'pipe', 'pipe'] });
        let out = '';
        let err = '';
        child.stdout.on('data', (d) => {
          out += d;
          if (out.split('\n').length > 300 && !child.killed) child.kill('SIGKILL');
        });
        child.stderr.on('data', (d) => { err += d; });
        child.on('error', reject);
        child.on('close', (_code, signal) => {
          if (signal !== 'SIGKILL') reject(new Error(`the writer ended on its own: ${err}`));
          else resolve(out.split('\n').slice(0, -1)); // the last line may be cut
        });
      });
      assert.ok(acked.length >= 300);
      const again = await openStore({ dataDir });
      try {
        const missing = [];
        for (const id of acked) if (!(await again.documents('notes').get(account.id, id))) missing.push(id);
        assert.deepEqual(missing, []);
      } finally {
        await again.close();
      }
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
