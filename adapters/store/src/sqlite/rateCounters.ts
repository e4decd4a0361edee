// Rate-limit counts on the embedded store: one small table in a database file of its own beside the
// store's, so every process on the data dir shares the counts. A file of its own because a count is
// written on every request: it must not wait behind the store's write lock (held through each
// durable commit's fsync), and it need not be durable itself. synchronous=OFF: a commit is a write
// into the WAL and no fsync; a power cut may forget the last counts, which only forgives requests.
import { chmodSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { checkNonEmpty, checkPositiveMs } from '../common/validate.ts';
import type { RateCount, RateCounters } from '../port.ts';

export const RATE_COUNTERS_FILE = 'rate-counters.sqlite';
const BUSY_TIMEOUT_MS = 5000;
/** How often one process deletes ended windows, ms. */
const PRUNE_EVERY_MS = 60_000;
/** Ended windows one prune deletes at most. */
const PRUNE_BATCH = 1000;
const MAX_KEY_CHARS = 200;

export class SqliteRateCounters implements RateCounters {
  private db: Database.Database | null = null;
  private upsert: Database.Statement<{ key: string; now: number; windowMs: number }, { count: number; window_end: number }> | null = null;
  private pruneEnded: Database.Statement<[number, number]> | null = null;
  private lastPrune = 0;

  constructor(private readonly dataDir: string, private readonly now: () => Date) {}

  async hit(key: string, windowMs: number): Promise<RateCount> {
    checkNonEmpty(key, 'key', MAX_KEY_CHARS);
    checkPositiveMs(windowMs, 'windowMs');
    const now = this.now().getTime();
    this.prune(now);
    // a window that has ended starts again at this request; SET reads the row as it was
    const row = this.statement().get({ key, now, windowMs: Math.ceil(windowMs) })!;
    return { count: row.count, ttlMs: Math.max(1, row.window_end - now) };
  }

  close(): void {
    this.db?.close();
    this.db = null;
  }

  private statement(): NonNullable<SqliteRateCounters['upsert']> {
    if (this.upsert) return this.upsert;
    const file = join(this.dataDir, RATE_COUNTERS_FILE);
    const fresh = !existsSync(file);
    const db = new Database(file, { timeout: BUSY_TIMEOUT_MS });
    if (fresh) chmodSync(file, 0o600);
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = OFF');
    db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    db.exec(`CREATE TABLE IF NOT EXISTS rate_counters (
      key TEXT PRIMARY KEY, window_end INTEGER NOT NULL, count INTEGER NOT NULL
    ) WITHOUT ROWID;
    CREATE INDEX IF NOT EXISTS rate_counters_end ON rate_counters (window_end);`);
    this.db = db;
    this.upsert = db.prepare(`INSERT INTO rate_counters (key, window_end, count) VALUES (@key, @now + @windowMs, 1)
      ON CONFLICT (key) DO UPDATE SET
        count = CASE WHEN window_end <= @now THEN 1 ELSE count + 1 END,
        window_end = CASE WHEN window_end <= @now THEN @now + @windowMs ELSE window_end END
      RETURNING count, window_end`);
    this.pruneEnded = db.prepare('DELETE FROM rate_counters WHERE key IN (SELECT key FROM rate_counters WHERE window_end <= ? LIMIT ?)');
    return this.upsert;
  }

  /**
   * Ended windows are deleted now and then, so keys seen once (a flood of addresses) do not pile up;
   * a batch at a time, so no request waits on a long delete (a full batch: the next request goes on).
   */
  private prune(now: number): void {
    if (now - this.lastPrune < PRUNE_EVERY_MS && now >= this.lastPrune) return;
    this.statement();
    const { changes } = this.pruneEnded!.run(now, PRUNE_BATCH);
    if (changes < PRUNE_BATCH) this.lastPrune = now;
  }
}
