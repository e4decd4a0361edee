// The MongoDB store (official driver), selected by MONGODB_URL. Indexes, including the unique ones
// the port relies on, are created at open. Multi-document transactions are used where two writes
// must agree and the deployment supports them (replica set, sharded cluster); on a standalone
// server the same guarantees come from single-document atomic operations and write ordering
// (see designs.ts).
import { MongoClient } from 'mongodb';
import { DocumentRegistry } from '../common/documentRegistry.ts';
import { StoreError, type CartRecord, type DocumentCollection, type OrderRecord, type QuoteRecord, type Store, type StoreConfig, type StoreHealth } from '../port.ts';
import { MongoAccounts } from './accounts.ts';
import { MongoApiKeys } from './apiKeys.ts';
import { GridFsBlobs } from './blobs.ts';
import type { MongoContext } from './context.ts';
import { MongoDesigns } from './designs.ts';
import { MongoDocuments } from './documents.ts';
import { MongoIdempotency } from './idempotency.ts';
import { ensureIndexes } from './indexes.ts';
import { MongoJobs } from './jobs.ts';
import { MongoLeases } from './leases.ts';
import { RecordedEvents } from '../common/outbox.ts';
import { MongoOutbox } from './outbox.ts';
import { MongoRateCounters } from './rateCounters.ts';

const DEFAULT_SERVER_SELECTION_TIMEOUT_MS = 5000;
const DEFAULT_DB_NAME = 'kerf';

/** The URL without its password, for error messages and logs. */
export function redactMongoUrl(url: string): string {
  return url.replace(/^(mongodb(?:\+srv)?:\/\/)([^@/]*)@/, (_m, scheme: string, cred: string) => `${scheme}${cred.split(':')[0]}:***@`);
}

/** The database named in the URL's path (`mongodb://host/kerf_prod?...`), if any. */
export function databaseFromUrl(url: string): string | null {
  const m = /^mongodb(?:\+srv)?:\/\/[^/]*\/([^?]+)/.exec(url);
  return m ? decodeURIComponent(m[1]) : null;
}

export async function open(config: StoreConfig): Promise<Store> {
  const url = config.mongodbUrl;
  if (!url) throw new StoreError('store_unavailable', 'MONGODB_URL is not set');
  const where = redactMongoUrl(url);
  // An explicit setting wins, then the URL's own serverSelectionTimeoutMS, then ours (the driver's
  // 30 s default would make a wrong MONGODB_URL look like a hang).
  const urlTimeout = /[?&]serverSelectionTimeoutMS=(\d+)/i.exec(url);
  const timeout = config.serverSelectionTimeoutMS ?? (urlTimeout ? Number(urlTimeout[1]) : DEFAULT_SERVER_SELECTION_TIMEOUT_MS);
  let client: MongoClient;
  try {
    client = new MongoClient(url, { serverSelectionTimeoutMS: timeout, appName: 'kerf' });
  } catch (err) {
    throw new StoreError('store_unavailable', `MONGODB_URL ${where} is not a valid MongoDB connection string: ${(err as Error).message}`, 'mongodbUrl', { cause: err });
  }
  const dbName = config.mongodbDbName ?? databaseFromUrl(url) ?? DEFAULT_DB_NAME;
  let transactions: boolean;
  try {
    await client.connect();
    const db = client.db(dbName);
    // `hello` since 4.4.2; `isMaster` on the 4.2 servers the driver still supports.
    const hello = await db.admin().command({ hello: 1 }).catch(() => db.admin().command({ isMaster: 1 }));
    transactions = typeof hello.setName === 'string' || hello.msg === 'isdbgrid';
    await ensureIndexes(db);
  } catch (err) {
    await client.close().catch(() => { /* nothing to release */ });
    throw new StoreError('store_unavailable', `cannot use MongoDB at ${where} (waited up to ${timeout} ms): ${(err as Error).message}`, 'mongodbUrl', { cause: err });
  }
  return new MongoStore({ client, db: client.db(dbName), now: config.now ?? (() => new Date()), transactions, recorded: new RecordedEvents() });
}

class MongoStore implements Store {
  readonly kind = 'mongodb' as const;
  readonly accounts;
  readonly apiKeys;
  readonly designs;
  readonly jobs;
  readonly idempotency;
  readonly blobs;
  readonly outbox;
  readonly rateCounters;
  readonly leases;
  readonly quotes: DocumentCollection<QuoteRecord>;
  readonly carts: DocumentCollection<CartRecord>;
  readonly orders: DocumentCollection<OrderRecord>;
  private closed = false;
  private readonly registry = new DocumentRegistry((name, prefix) => new MongoDocuments<unknown>(this.ctx, name, prefix));

  constructor(private readonly ctx: MongoContext) {
    this.accounts = new MongoAccounts(ctx);
    this.apiKeys = new MongoApiKeys(ctx);
    const jobs = new MongoJobs(ctx);
    this.jobs = jobs;
    this.designs = new MongoDesigns(ctx, jobs);
    this.idempotency = new MongoIdempotency(ctx);
    this.blobs = new GridFsBlobs(ctx);
    this.outbox = new MongoOutbox(ctx);
    this.rateCounters = new MongoRateCounters(ctx);
    this.leases = new MongoLeases(ctx);
    this.quotes = this.registry.get<QuoteRecord>('quotes');
    this.carts = this.registry.get<CartRecord>('carts');
    this.orders = this.registry.get<OrderRecord>('orders');
  }

  documents<T>(name: string, opts: { idPrefix?: string } = {}): DocumentCollection<T> {
    return this.registry.get<T>(name, opts);
  }

  async health(): Promise<StoreHealth> {
    if (this.closed) return { ok: false, kind: 'mongodb', detail: 'store is closed' };
    try {
      await this.ctx.db.command({ ping: 1 });
      return { ok: true, kind: 'mongodb', detail: `${this.ctx.db.databaseName}${this.ctx.transactions ? ' (transactions)' : ''}` };
    } catch (err) {
      return { ok: false, kind: 'mongodb', detail: (err as Error).message };
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.ctx.client.close();
  }
}
