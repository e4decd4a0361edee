// The embedded store: one SQLite database (WAL) plus blob files, both under the data directory.
// Several processes may open the same directory: SQLite's locking serialises writers and every
// read-modify-write runs in an IMMEDIATE transaction. Writes are group-committed (group-commit.ts):
// durable (synchronous=FULL) before their promise settles, many requests to one fsync; checkpoints
// run on a thread of their own (checkpoint.ts).
import { chmodSync, closeSync, existsSync, fsyncSync, mkdirSync, openSync } from 'node:fs';
import { join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { StoreError, type CartRecord, type DocumentCollection, type OrderRecord, type QuoteRecord, type Store, type StoreConfig, type StoreHealth } from '../port.ts';
import { DocumentRegistry } from '../common/documentRegistry.ts';
import { SqliteAccounts } from './accounts.ts';
import { SqliteApiKeys } from './apiKeys.ts';
import { FsBlobs } from './blobs.ts';
import type { SqliteContext } from './context.ts';
import { SqliteDesigns } from './designs.ts';
import { SqliteDocuments } from './documents.ts';
import { SqliteIdempotency } from './idempotency.ts';
import { SqliteJobs } from './jobs.ts';
import { GroupCommit } from './group-commit.ts';
import { WalSync } from './wal-sync.ts';
import { TextsApart } from './texts-apart.ts';
import { Checkpointer } from './checkpoint.ts';
import { migrate } from './migrations.ts';
import { SqliteLeases } from './leases.ts';
import { RecordedEvents } from '../common/outbox.ts';
import { appendedEvents, SqliteOutbox } from './outbox.ts';
import { SqliteRateCounters } from './rateCounters.ts';

export const DATABASE_FILE = 'kerf.sqlite';
/** How long a writer waits for another process's write lock before SQLITE_BUSY. */
const BUSY_TIMEOUT_MS = 5000;

function syncDir(dir: string): void {
  const fd = openSync(dir, 'r');
  try { fsyncSync(fd); } finally { closeSync(fd); }
}

export async function open(config: StoreConfig): Promise<Store> {
  const dataDir = resolve(config.dataDir ?? './data');
  const now = config.now ?? (() => new Date());
  const grouped = config.groupCommit !== false;
  let db: Database.Database;
  try {
    // The store holds key hashes, signing secrets and customers' files: the service's user only.
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    const file = join(dataDir, DATABASE_FILE);
    const fresh = !existsSync(file);
    db = new Database(file, { timeout: BUSY_TIMEOUT_MS });
    if (fresh) chmodSync(file, 0o600);
  } catch (err) {
    throw new StoreError('store_unavailable', `cannot open the embedded store in ${dataDir}: ${(err as Error).message}`, undefined, { cause: err });
  }
  try {
    db.pragma('journal_mode = WAL');
    // A committed design, report or payment record survives power loss, not only a crash: FULL
    // syncs in COMMIT; grouped, COMMIT writes the WAL (NORMAL) and WalSync's fsync, off the event
    // loop, comes before any writer hears "done".
    db.pragma('synchronous = FULL');
    db.pragma('foreign_keys = ON');
    db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    migrate(db, now);
    if (grouped) {
      db.pragma('synchronous = NORMAL');
      syncDir(dataDir); // the WAL file's directory entry, which NORMAL syncs only at a checkpoint
    }
    await FsBlobs.prepareDirs(join(dataDir, 'blobs'), join(dataDir, 'tmp'), now());
  } catch (err) {
    db.close();
    if (err instanceof StoreError) throw err;
    throw new StoreError('store_unavailable', `cannot prepare the embedded store in ${dataDir}: ${(err as Error).message}`, undefined, { cause: err });
  }
  const wal = grouped ? new WalSync(join(dataDir, `${DATABASE_FILE}-wal`)) : null;
  const group = new GroupCommit(db, BUSY_TIMEOUT_MS, grouped, wal);
  const checkpointer = new Checkpointer(db, join(dataDir, DATABASE_FILE), BUSY_TIMEOUT_MS);
  const synced = wal ? () => wal.after() : () => Promise.resolve();
  const recorded = new RecordedEvents();
  // a write that appended outbox events tells the outbox's listeners once it has committed
  const write = async <T>(fn: () => T): Promise<T> => {
    let appended = false;
    const value = await group.write(() => {
      const before = appendedEvents(db);
      const result = fn();
      appended = appendedEvents(db) !== before;
      return result;
    });
    checkpointer.written();
    if (appended) recorded.emit();
    return value;
  };
  const store = new SqliteStore({ db, now, write, synced, recorded, textsApart: new TextsApart(db) }, group, wal, checkpointer, dataDir);
  store.idempotencyRepo.purgeExpired();
  return store;
}

class SqliteStore implements Store {
  readonly kind = 'sqlite' as const;
  readonly accounts;
  readonly apiKeys;
  readonly designs;
  readonly jobs;
  readonly idempotency;
  readonly idempotencyRepo;
  readonly blobs;
  readonly outbox;
  readonly rateCounters;
  readonly leases;
  readonly quotes: DocumentCollection<QuoteRecord>;
  readonly carts: DocumentCollection<CartRecord>;
  readonly orders: DocumentCollection<OrderRecord>;
  private closed = false;
  private readonly registry = new DocumentRegistry((name, prefix) => new SqliteDocuments<unknown>(this.ctx, name, prefix));

  constructor(private readonly ctx: SqliteContext, private readonly group: GroupCommit, private readonly wal: WalSync | null, private readonly checkpointer: Checkpointer, readonly dataDir: string) {
    this.apiKeys = new SqliteApiKeys(ctx);
    this.accounts = new SqliteAccounts(ctx);
    const jobs = new SqliteJobs(ctx);
    this.jobs = jobs;
    this.designs = new SqliteDesigns(ctx, jobs);
    this.idempotencyRepo = new SqliteIdempotency(ctx);
    this.idempotency = this.idempotencyRepo;
    this.blobs = new FsBlobs(ctx, join(dataDir, 'blobs'), join(dataDir, 'tmp'));
    this.outbox = new SqliteOutbox(ctx);
    this.rateCounters = new SqliteRateCounters(dataDir, ctx.now);
    this.leases = new SqliteLeases(ctx);
    this.quotes = this.registry.get<QuoteRecord>('quotes');
    this.carts = this.registry.get<CartRecord>('carts');
    this.orders = this.registry.get<OrderRecord>('orders');
  }

  documents<T>(name: string, opts: { idPrefix?: string } = {}): DocumentCollection<T> {
    return this.registry.get<T>(name, opts);
  }

  async health(): Promise<StoreHealth> {
    if (this.closed) return { ok: false, kind: 'sqlite', detail: 'store is closed' };
    try {
      this.ctx.db.prepare('SELECT 1').get();
      return { ok: true, kind: 'sqlite' };
    } catch (err) {
      return { ok: false, kind: 'sqlite', detail: (err as Error).message };
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.group.flush(); // writes already asked for are committed, not dropped
    this.rateCounters.close();
    await this.checkpointer.close(); // its connection first: the last one to close checkpoints the WAL
    this.ctx.db.close();
    this.wal?.close();
  }
}
