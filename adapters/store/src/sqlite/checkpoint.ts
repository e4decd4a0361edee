// Checkpoints off the event loop. SQLite's automatic checkpoint runs inside the COMMIT that takes
// the WAL past 1000 pages, on the committing thread: it copies the WAL into the database file and
// fsyncs both, so every few MB written the event loop stood still for those fsyncs, and a quote's
// 20 KB insert cost about three times its own work (a grouped 20 KB insert: ~250 us with the
// automatic checkpoint, ~80 us without, measured with better-sqlite3 on this VM). The store's
// connection has it off; a worker thread with a connection of its own runs PASSIVE checkpoints,
// which never block a reader or a writer, at most every CHECKPOINT_INTERVAL_MS while writes go on.
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type Database from 'better-sqlite3';

/** Longest a written page waits before a checkpoint starts copying it, ms (while writes go on). */
const CHECKPOINT_INTERVAL_MS = 250;
/** SQLite's own default, put back if the checkpoint thread is lost. */
const AUTOCHECKPOINT_PAGES = 1000;

// A script, not a module file: it runs the same from the TypeScript sources (tsx) and the build.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.sqlite);
const db = new Database(workerData.file, { timeout: workerData.busyTimeoutMs });
parentPort.on('message', (m) => {
  if (m === 'close') { db.close(); parentPort.close(); return; }
  db.pragma('wal_checkpoint(PASSIVE)');
});
`;

export class Checkpointer {
  private readonly worker: Worker;
  private lastPost = 0;
  private lost = false;
  private readonly exited: Promise<void>;

  constructor(private readonly db: Database.Database, file: string, busyTimeoutMs: number) {
    db.pragma('wal_autocheckpoint = 0');
    const sqlite = createRequire(import.meta.url).resolve('better-sqlite3');
    this.worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { sqlite, file, busyTimeoutMs } });
    // the store's close stops it; a process that exits without closing does not wait for it
    this.worker.unref();
    this.exited = new Promise((resolve) => this.worker.once('exit', () => resolve()));
    // a checkpoint that threw (disk full, I/O error) ends the thread: SQLite checkpoints in COMMIT again
    this.worker.once('error', () => this.fallBack());
    this.worker.once('exit', () => this.fallBack());
  }

  /** After a commit: a checkpoint soon, at most one per CHECKPOINT_INTERVAL_MS. */
  written(): void {
    if (this.lost) return;
    const now = Date.now();
    if (now - this.lastPost < CHECKPOINT_INTERVAL_MS) return;
    this.lastPost = now;
    this.worker.postMessage('checkpoint');
  }

  /** Stops the thread (its connection closed) before the store's own connection closes. */
  async close(): Promise<void> {
    // a close awaited is work under way: the process waits for it, also when a failed checkpoint
    // (disk full) already ended the thread and its exit is still on the way (an unref'd thread would
    // leave this await with nothing keeping the event loop alive)
    this.worker.ref();
    if (!this.lost) {
      this.lost = true;
      this.worker.postMessage('close');
    }
    await this.exited;
  }

  private fallBack(): void {
    if (this.lost) return;
    this.lost = true;
    if (this.db.open) this.db.pragma(`wal_autocheckpoint = ${AUTOCHECKPOINT_PAGES}`);
  }
}
