// Group commit: the store's writes are queued and run together in one IMMEDIATE transaction, so many
// requests share one commit and one fsync (a commit with its fsync costs ~2.6 ms: one per write caps
// a process at a few hundred writes a second). A failing write is undone alone and the others still
// commit: a group runs its writes plainly, and should one throw, the group is rolled back and run
// again with each write in a savepoint of its own (savepoints on every write cost a quarter of a
// small one, and writes rarely fail). A caller's promise settles only once
// its group is durable: after the COMMIT (synchronous=FULL), or with a WalSync after the WAL's fsync
// that follows it (NORMAL: the fsync runs off the event loop), so nobody hears "done" of data a
// power cut could still undo. While another process holds the write lock, the queue waits without
// blocking the event loop (SQLite's busy handler sleeps in the thread) and runs once it is free.
import type Database from 'better-sqlite3';
import type { WalSync } from './wal-sync.ts';

/** Between attempts to take another process's write lock, ms. */
const LOCK_RETRY_MS = 1;
/**
 * For this long after the lock was first found taken, it is tried again on the event loop's next
 * turn instead (setImmediate): another process's group holds it for a fraction of a millisecond,
 * and a timer (1 ms at the least) left this process idle with every request waiting on its commit.
 */
const LOCK_SPIN_MS = 2;

interface Op {
  fn: () => unknown;
  resolve: (value: unknown) => void;
  reject: (err: unknown) => void;
}

type Outcome = { op: Op; ok: true; value: unknown } | { op: Op; ok: false; error: unknown };

/** What better-sqlite3 throws for work on a closed connection (a write asked for after close). */
const notOpen = (): Error => new TypeError('The database connection is not open');

export class GroupCommit {
  private queue: Op[] = [];
  private scheduled = false;
  private waitingSince: number | null = null;
  /** The next group runs each write in a savepoint: a write of the last one failed. */
  private savepoints = false;
  /** groups committed whose WAL fsync has not finished yet */
  private syncing = 0;
  private readonly idle: Array<() => void> = [];
  private readonly stmt;

  /**
   * grouped false: each write commits on its own at once, blocking while another process writes (as
   * before groups). wal: the connection commits with synchronous=NORMAL and a group's writers are
   * answered once `wal` has fsynced it; without, COMMIT itself syncs (FULL).
   */
  constructor(private readonly db: Database.Database, private readonly busyTimeoutMs: number, private readonly grouped = true, private readonly wal: WalSync | null = null) {
    this.stmt = {
      begin: db.prepare('BEGIN IMMEDIATE'),
      commit: db.prepare('COMMIT'),
      rollback: db.prepare('ROLLBACK'),
      savepoint: db.prepare('SAVEPOINT group_write'),
      release: db.prepare('RELEASE group_write'),
      undo: db.prepare('ROLLBACK TO group_write'),
      noWait: db.prepare('PRAGMA busy_timeout = 0'),
      wait: db.prepare(`PRAGMA busy_timeout = ${busyTimeoutMs}`),
    };
  }

  /** Runs `fn` (synchronous SQLite work) in the next group; resolves with its result once committed. */
  write<T>(fn: () => T): Promise<T> {
    if (!this.db.open) return Promise.reject(notOpen());
    if (!this.grouped) {
      try { return Promise.resolve(this.db.transaction(fn).immediate()); } catch (err) { return Promise.reject(err); }
    }
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ fn, resolve: resolve as (v: unknown) => void, reject });
      this.schedule();
    });
  }

  /** Resolves once every write queued so far has been committed and synced (or failed). */
  flush(): Promise<void> {
    if (this.queue.length === 0 && this.syncing === 0) return Promise.resolve();
    return new Promise((r) => this.idle.push(r));
  }

  private schedule(delayMs = 0): void {
    if (this.scheduled) return;
    this.scheduled = true;
    // setImmediate: the writes of every request handled in this turn of the event loop join the group
    if (delayMs === 0) setImmediate(() => this.run());
    else setTimeout(() => this.run(), delayMs);
  }

  private run(): void {
    this.scheduled = false;
    if (this.queue.length === 0) return;
    if (!this.db.open) { this.failQueue(notOpen()); return; }
    if (!this.lock()) { this.schedule(this.waitingSince !== null && Date.now() - this.waitingSince < LOCK_SPIN_MS ? 0 : LOCK_RETRY_MS); return; }
    const batch = this.queue;
    this.queue = [];
    if (this.savepoints) {
      this.savepoints = false;
      this.runSaved(batch);
      return;
    }
    const outcomes = this.runPlain(batch);
    if (outcomes) {
      this.commit(outcomes);
      return;
    }
    // a write failed: the group is undone and runs again at once, each write in a savepoint of its own
    if (this.db.inTransaction) this.stmt.rollback.run();
    this.queue = [...batch, ...this.queue];
    this.savepoints = true;
    this.run();
  }

  /**
   * The group's writes one after another, no savepoints (a savepoint and its release cost about a
   * quarter of a small write): their outcomes, or null as soon as one throws.
   */
  private runPlain(batch: Op[]): Outcome[] | null {
    const outcomes: Outcome[] = [];
    for (const op of batch) {
      try {
        outcomes.push({ op, ok: true, value: op.fn() });
      } catch {
        return null;
      }
    }
    return outcomes;
  }

  /** The group's writes each in a savepoint, so a failing one is undone alone; then committed, unless SQLite rolled the transaction back. */
  private runSaved(batch: Op[]): void {
    const outcomes: Outcome[] = [];
    for (let i = 0; i < batch.length; i++) {
      outcomes.push(this.runOne(batch[i]));
      if (!this.db.inTransaction) {
        // SQLite rolled the whole transaction back (e.g. disk full, I/O error): none of the group's
        // writes so far were kept; they fail with the error, the rest go in the next group.
        const cause = outcomes[outcomes.length - 1];
        const error = cause.ok ? new Error('the store rolled back the transaction') : cause.error;
        for (const o of outcomes) o.op.reject(error);
        this.queue = [...batch.slice(i + 1), ...this.queue];
        this.schedule();
        return;
      }
    }
    this.commit(outcomes);
  }

  private commit(outcomes: Outcome[]): void {
    try {
      this.stmt.commit.run();
    } catch (err) {
      if (this.db.inTransaction) this.stmt.rollback.run();
      for (const o of outcomes) o.op.reject(err);
      this.settled();
      return;
    }
    if (!this.wal) {
      this.answer(outcomes, null);
      this.settled();
      return;
    }
    this.syncing++;
    this.wal.after().then(() => this.answer(outcomes, null), (err: unknown) => this.answer(outcomes, err)).finally(() => {
      this.syncing--;
      this.settled();
    });
  }

  /** Each writer hears its outcome; all hear `failure` when the group did not reach the disk. */
  private answer(outcomes: Outcome[], failure: unknown): void {
    for (const o of outcomes) {
      if (failure !== null) o.op.reject(failure);
      else if (o.ok) o.op.resolve(o.value);
      else o.op.reject(o.error);
    }
  }

  private runOne(op: Op): Outcome {
    this.stmt.savepoint.run();
    try {
      const value = op.fn();
      this.stmt.release.run();
      return { op, ok: true, value };
    } catch (error) {
      if (this.db.inTransaction) { this.stmt.undo.run(); this.stmt.release.run(); }
      return { op, ok: false, error };
    }
  }

  /** BEGIN IMMEDIATE without waiting; false while another process writes (until the busy timeout). */
  private lock(): boolean {
    this.stmt.noWait.get();
    try {
      this.stmt.begin.run();
      this.waitingSince = null;
      return true;
    } catch (err) {
      if ((err as { code?: unknown }).code !== 'SQLITE_BUSY') { this.failQueue(err); return false; }
    } finally {
      this.stmt.wait.get();
    }
    const now = Date.now();
    this.waitingSince ??= now;
    if (now - this.waitingSince < this.busyTimeoutMs) return false;
    // waited as long as a plain write would have: the error every queued write gets is SQLITE_BUSY
    this.waitingSince = null;
    try {
      this.stmt.begin.run();
      return true;
    } catch (err) {
      this.failQueue(err);
      return false;
    }
  }

  private failQueue(err: unknown): void {
    const queue = this.queue;
    this.queue = [];
    for (const op of queue) op.reject(err);
    this.settled();
  }

  private settled(): void {
    if (this.queue.length > 0) { this.schedule(); return; }
    if (this.syncing === 0) for (const r of this.idle.splice(0)) r();
  }
}
