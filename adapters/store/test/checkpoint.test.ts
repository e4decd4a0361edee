// Checkpoints on a thread of their own: what is committed reaches the database file without a
// COMMIT on the event loop copying it there (SQLite's automatic checkpoint only starts past 1000
// WAL pages, and runs inside the commit that crosses them).
import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { openStore } from '../src/index.ts';
import { DATABASE_FILE } from '../src/sqlite/store.ts';

/** Documents of the collection that the database file itself holds (its WAL left out): a copy of the file alone. */
function inDatabaseFile(dataDir: string, collection: string): number {
  const dir = mkdtempSync(join(tmpdir(), 'kerf-ckpt-copy-'));
  try {
    copyFileSync(join(dataDir, DATABASE_FILE), join(dir, DATABASE_FILE));
    const db = new Database(join(dir, DATABASE_FILE), { readonly: true, fileMustExist: true });
    try {
      // before the first checkpoint even the tables (made at open) are only in the WAL
      const made = db.prepare(`SELECT count(*) AS n FROM sqlite_master WHERE name = 'documents'`).get() as { n: number };
      return made.n === 0 ? 0 : (db.prepare('SELECT count(*) AS n FROM documents WHERE collection = ?').get(collection) as { n: number }).n;
    } finally { db.close(); }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('sqlite checkpoints', () => {
  it('copies committed writes into the database file well before the WAL reaches 1000 pages', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'kerf-ckpt-'));
    const store = await openStore({ dataDir });
    try {
      const account = await store.accounts.create({ email: 'ckpt@example.com' });
      const notes = store.documents<{ text: string }>('notes');
      // about 100 KB: some 30 pages of WAL, far under the automatic checkpoint's 1000
      await Promise.all(Array.from({ length: 50 }, (_, i) => notes.create(account.id, { text: `${i} ${'x'.repeat(2000)}` })));
      const deadline = Date.now() + 10_000;
      let n = inDatabaseFile(dataDir, 'notes');
      while (n < 50 && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 100));
        // a later write: the checkpoint thread is told after commits
        await notes.create(account.id, { text: 'later' });
        n = inDatabaseFile(dataDir, 'notes');
      }
      assert.ok(n >= 50, `the database file holds ${n} of the 50 notes: nothing checkpointed them out of the WAL`);
    } finally {
      await store.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('still reads, writes and closes cleanly with the checkpoint thread (no WAL left behind)', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'kerf-ckpt-'));
    const store = await openStore({ dataDir });
    const account = await store.accounts.create({ email: 'ckpt2@example.com' });
    const rec = await store.documents<{ v: number }>('notes').create(account.id, { v: 1 });
    assert.deepEqual((await store.documents<{ v: number }>('notes').get(account.id, rec.id))?.data, { v: 1 });
    await store.close();
    // every connection closed: the last one checkpointed and removed the WAL; the data is in the file
    assert.equal(inDatabaseFile(dataDir, 'notes'), 1);
    rmSync(dataDir, { recursive: true, force: true });
  });
});
