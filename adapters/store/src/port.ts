// The store port: everything the service keeps durably, behind one interface with two
// implementations (embedded SQLite, MongoDB) that pass one contract suite (test/contract.ts).
//
// Rules every implementation keeps:
// - Async everywhere, so the SQLite and MongoDB stores are interchangeable.
// - Every read or write of an account's resource takes `accountId`; another account's id is simply
//   not found (null / false), never an error that would reveal that it exists.
// - Records are returned as fresh plain objects: mutating one never changes the store.
// - Timestamps are ISO 8601 strings in UTC with milliseconds (`2026-11-22T03:14:08.123Z`).
// - Failures the caller can act on are `StoreError`s with a `code` (see StoreErrorCode).
import type { Readable } from 'node:stream';
import type { CartRecord } from './records/carts.ts';
import type { OrderRecord } from './records/orders.ts';
import type { QuoteRecord } from './records/quotes.ts';

// the typed records of the quotes, carts and orders collections (Store.quotes, .carts, .orders)
export type * from './records/quotes.ts';
export type * from './records/carts.ts';
export type * from './records/orders.ts';

// ---------------------------------------------------------------------------------------------
// Errors

export type StoreErrorCode =
  /** A unique constraint was hit (account email, document key). */
  | 'duplicate'
  /** An optimistic update lost (expected version or status did not match). */
  | 'conflict'
  /** A cursor that this store did not issue, or that belongs to another list. */
  | 'invalid_cursor'
  /** A malformed argument (blob key, limit, filter field, ...). `param` names it. */
  | 'invalid_argument'
  /** The database cannot be reached or opened (bad MONGODB_URL, unwritable data dir). */
  | 'store_unavailable'
  /** An enqueue's JobLimit is reached: the account has `max` active jobs of those kinds. Nothing was written. */
  | 'limit_reached'
  /** The disk (or the quota) is full: the write was not kept, whole or in part. Retry later. */
  | 'insufficient_storage';

export class StoreError extends Error {
  readonly code: StoreErrorCode;
  readonly param: string | undefined;
  constructor(code: StoreErrorCode, message: string, param?: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'StoreError';
    this.code = code;
    this.param = param;
  }
}

export function isStoreError(err: unknown, code?: StoreErrorCode): err is StoreError {
  return err instanceof StoreError && (code === undefined || err.code === code);
}

/** Whether a failed write ran out of space: the store's insufficient_storage, the system's ENOSPC/EDQUOT (a spooled upload) or SQLite's SQLITE_FULL. */
export function isDiskFull(err: unknown): boolean {
  if (isStoreError(err, 'insufficient_storage')) return true;
  const code = (err as { code?: unknown })?.code;
  return code === 'ENOSPC' || code === 'EDQUOT' || code === 'SQLITE_FULL';
}

// ---------------------------------------------------------------------------------------------
// Pagination (docs/api.md "Conventions": opaque cursors, stable under inserts)

export interface ListOptions {
  /** Page size, 1..1000; default 20. Out of range -> StoreError invalid_argument (param 'limit'). */
  limit?: number;
  /** `nextCursor` of the previous page. Foreign or garbage -> StoreError invalid_cursor. */
  cursor?: string | null;
  /** Ordering by (createdAt, id): 'desc' (newest first, default) or 'asc'. */
  order?: 'asc' | 'desc';
}

export interface Page<T> {
  items: T[];
  hasMore: boolean;
  /** Opaque; pass back as `cursor` to get the next page. null when there is none. */
  nextCursor: string | null;
}

// ---------------------------------------------------------------------------------------------
// Accounts

export type DropshipStatus = 'requested' | 'approved' | 'suspended' | 'denied';

export interface Account {
  id: string; // acct_...
  /** Stored lower-cased and trimmed; unique. */
  email: string;
  name: string;
  /** Operators may use operator-only routes (catalog administration, factory release, ...). */
  operator: boolean;
  /** null until the account asks for dropship access. */
  dropshipStatus: DropshipStatus | null;
  createdAt: string;
  updatedAt: string;
}

export interface NewAccount {
  email: string;
  name?: string;
  operator?: boolean;
}

export interface AccountPatch {
  name?: string;
  operator?: boolean;
  dropshipStatus?: DropshipStatus | null;
}

export interface AccountRepo {
  /** Throws StoreError 'duplicate' (param 'email') when the email is taken. */
  create(input: NewAccount): Promise<Account>;
  get(accountId: string): Promise<Account | null>;
  findByEmail(email: string): Promise<Account | null>;
  update(accountId: string, patch: AccountPatch): Promise<Account | null>;
  count(): Promise<number>;
}

// ---------------------------------------------------------------------------------------------
// API keys: the plaintext (`kerf_live_...`) is returned once by create and never stored; the store
// keeps only its sha256, so a leaked database does not leak credentials.

export interface ApiKeyInfo {
  id: string; // key_...
  accountId: string;
  label: string | null;
  /** Key-level operator flag; effective only while the account is an operator too. */
  operator: boolean;
  /** First characters of the plaintext (`kerf_live_AbCd`), for telling keys apart in lists. */
  prefix: string;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

export interface CreatedApiKey extends ApiKeyInfo {
  /** The plaintext key. Shown once: it cannot be read back from the store. */
  api_key: string;
}

export interface AuthenticatedKey {
  accountId: string;
  keyId: string;
  /** key.operator && account.operator */
  operator: boolean;
}

export interface ApiKeyRepo {
  /** Returns null when the account does not exist. */
  create(accountId: string, opts?: { label?: string; operator?: boolean }): Promise<CreatedApiKey | null>;
  /** null for unknown, malformed or revoked keys. Never throws for bad input. */
  authenticate(plaintext: string): Promise<AuthenticatedKey | null>;
  /** false when the key does not exist on that account (or was already revoked). */
  revoke(accountId: string, keyId: string): Promise<boolean>;
  list(accountId: string): Promise<ApiKeyInfo[]>;
}

// ---------------------------------------------------------------------------------------------
// Designs: an uploaded file and the engine's result for it.

export type DesignStatus = 'queued' | 'processing' | 'ready' | 'failed';

export interface DesignError {
  code: string;
  message: string;
}

export interface DesignRecord<R = unknown> {
  id: string; // des_...
  accountId: string;
  status: DesignStatus;
  /** The uploaded file's name. */
  name: string;
  /** Key of the uploaded bytes in `store.blobs`. */
  sourceBlobKey: string;
  sourceSize: number;
  /** Hex sha256 of the uploaded bytes. */
  sourceSha256: string;
  /** Analysis options (k-factor overrides, units, ...), stored as given. */
  options: Record<string, unknown>;
  /** The engine's result once ready (shape owned by the use cases). */
  result: R | null;
  error: DesignError | null;
  createdAt: string;
  updatedAt: string;
}

export interface NewDesign {
  /** Optional caller-chosen id (must be unused); default a fresh `des_` id. */
  id?: string;
  name: string;
  sourceBlobKey: string;
  sourceSize: number;
  sourceSha256: string;
  options?: Record<string, unknown>;
  /** Enqueue this job for the new design in the same atomic step (see JobQueue). */
  job?: { kind: string; payload?: unknown; maxAttempts?: number; limit?: JobLimit };
}

export interface DesignTransition<R = unknown> {
  status: DesignStatus;
  /** Set when given; `null` clears. Omitted keeps the stored value. */
  result?: R | null;
  error?: DesignError | null;
  /** Recorded in the same single-record write as the change they report (see Outbox). */
  events?: OutboxEvent[];
}

export interface DesignRepo {
  /**
   * Creates with status 'queued'. With `job`, design and job are written together.
   * StoreError invalid_argument (param 'accountId') when the account does not exist.
   */
  create<R = unknown>(accountId: string, input: NewDesign): Promise<DesignRecord<R>>;
  get<R = unknown>(accountId: string, designId: string): Promise<DesignRecord<R> | null>;
  /**
   * Optimistic status change: applies only while the design's status is one of `from`.
   * Returns the updated record, or null when the design is not found or not in `from`
   * (a concurrent writer got there first).
   */
  transition<R = unknown>(
    accountId: string,
    designId: string,
    from: DesignStatus | DesignStatus[],
    change: DesignTransition<R>,
  ): Promise<DesignRecord<R> | null>;
  list<R = unknown>(accountId: string, opts?: ListOptions & { status?: DesignStatus }): Promise<Page<DesignRecord<R>>>;
  /** Whether any account has a design with this id: for housekeeping (the janitor), never for a caller's request. */
  exists(designId: string): Promise<boolean>;
}

// ---------------------------------------------------------------------------------------------
// Jobs: a durable queue shared by every service process on one store. A claim takes a lease; a job
// whose process died is claimed again once its lease has expired. `attempts` counts claims; a job
// that fails with no attempts left ends 'failed'; one whose runs keep dying is flagged `exhausted`.
// A worker that finds the job's resource missing (deleted, or never written) should complete it.

export type JobStatus = 'queued' | 'running' | 'done' | 'failed';

export interface Job<P = unknown> {
  id: string; // job_...
  kind: string;
  resourceId: string;
  accountId: string;
  payload: P;
  status: JobStatus;
  attempts: number;
  maxAttempts: number;
  workerId: string | null;
  /** While running: when the lease ends and another worker may take the job. */
  leaseUntil: string | null;
  /** Not claimable before this instant (used for retry back-off). */
  runAfter: string;
  lastError: DesignError | null;
  /**
   * Set on a claim beyond maxAttempts: every earlier run died without reporting (its lease
   * expired), e.g. a file that crashes the worker. Do not run it again: mark the resource failed
   * and call fail(..., { retry: false }). Should that run die as well, the job is not handed out
   * again: the next claim marks it failed with code 'lease_expired'.
   */
  exhausted: boolean;
  createdAt: string;
  updatedAt: string;
}

/**
 * A cap on an account's background work, checked in the same atomic step as the insert (across
 * processes), so parallel requests cannot all pass a count taken before any of them wrote: the
 * enqueue is refused (StoreError 'limit_reached') when the account already has `max` queued or
 * running jobs of `kinds`. An enqueue that finds its (kind, resource) job already active returns it
 * unchecked.
 */
export interface JobLimit {
  kinds: string[];
  max: number;
}

export interface NewJob<P = unknown> {
  kind: string;
  resourceId: string;
  accountId: string;
  payload?: P;
  /** Default 3. */
  maxAttempts?: number;
  /** Delay before the first claim, ms; default 0. */
  delayMs?: number;
  limit?: JobLimit;
}

export interface JobQueue {
  /**
   * Idempotent per (kind, resourceId) while a job for it is queued or running: a second enqueue
   * returns the existing active job instead of adding another.
   */
  enqueue<P = unknown>(job: NewJob<P>): Promise<Job<P>>;
  /**
   * Atomically takes a claimable job (queued and due, or running with an expired lease), fairly
   * across accounts: from the account with the fewest jobs of these kinds running, then the one
   * served longest ago (round-robin), its oldest job first;
   * marks it running for `workerId` until now + leaseMs and increments attempts. Each claim is
   * given to exactly one caller, across processes. See `exhausted` for a job whose runs all died.
   * A job whose resource no longer exists (or never came to exist) should simply be completed.
   * `excludeAccounts`: accounts whose jobs are not taken by this claim (a worker keeping a slot free
   * of the accounts already holding their share of it).
   */
  claim<P = unknown>(workerId: string, leaseMs: number, opts?: { kinds?: string[]; excludeAccounts?: string[] }): Promise<Job<P> | null>;
  /** Jobs of an account (of these kinds) queued or running: what its limit on background work counts. */
  countActive(accountId: string, opts?: { kinds?: string[] }): Promise<number>;
  /** Extends the lease; false when the job is no longer running for this worker. */
  renewLease(jobId: string, workerId: string, leaseMs: number): Promise<boolean>;
  /** Marks done; false when the job is no longer running for this worker (lease lost). */
  complete(jobId: string, workerId: string): Promise<boolean>;
  /**
   * Records a failure. With attempts left (and `retry` not false) the job goes back to queued,
   * due after `retryDelayMs` (default 0); otherwise it ends 'failed'. null when the job is no
   * longer running for this worker.
   */
  fail(jobId: string, workerId: string, error: DesignError, opts?: { retry?: boolean; retryDelayMs?: number }): Promise<Job | null>;
  /**
   * Hands a running job back without counting its run: queued again, due after `delayMs`, with the
   * attempts it had before this claim (the engine was busy or the service stopped: not the job's
   * fault, so it must not use up the job's attempts). false when the job is no longer running for
   * this worker.
   */
  defer(jobId: string, workerId: string, delayMs: number): Promise<boolean>;
  get<P = unknown>(jobId: string): Promise<Job<P> | null>;
  /** Jobs for a resource, oldest first (for status pages and tests). */
  listForResource(resourceId: string): Promise<Job[]>;
}

// ---------------------------------------------------------------------------------------------
// Documents: typed collections of an account's JSON resources (dfm reports, quotes, review links,
// carts, orders, webhook endpoints, ...), keyed by (accountId, id). The owner id is not checked
// against accounts: service-wide documents (settings) use a reserved owner such as 'system'.

export interface DocumentRecord<T> {
  id: string;
  accountId: string;
  /** Optional per-account unique key (e.g. a dropship order's external_ref). */
  key: string | null;
  data: T;
  /** Starts at 1, +1 on every update; use with `expectedVersion` for optimistic writes. */
  version: number;
  createdAt: string;
  updatedAt: string;
}

/** Equality on top-level fields of `data` (string, number, boolean or null). */
export type DocumentFilter = Record<string, string | number | boolean | null>;

export interface DocumentCollection<T> {
  /**
   * `id` default: a fresh id with `prefix` (default the collection's prefix, see documents()).
   * `key`: unique per (collection, account); a second create with the same key throws
   * StoreError 'duplicate' (param 'key'); read the first with getByKey.
   * `apart`: values inside `data` that are the same JSON in many of the account's documents and
   * never change afterwards (freeze them); a store may keep their text once and name it from each
   * row (the embedded store does; a read gives `data` back whole either way).
   */
  create(accountId: string, data: T, opts?: { id?: string; key?: string; events?: OutboxEvent[]; apart?: ReadonlyArray<object> }): Promise<DocumentRecord<T>>;
  get(accountId: string, id: string): Promise<DocumentRecord<T> | null>;
  getByKey(accountId: string, key: string): Promise<DocumentRecord<T> | null>;
  /**
   * Read by id alone, for resources addressed by an unguessable public link (review pages,
   * signed URLs). Never use it for an authenticated caller's request: use get().
   */
  getUnscoped(id: string): Promise<DocumentRecord<T> | null>;
  /**
   * Replaces `data`. null when not found. With `expectedVersion`, throws StoreError 'conflict'
   * when the stored version differs. `events` are appended to the document's outbox in the same
   * write (see Outbox); nothing is recorded when the update does not apply. `apart` as for create().
   */
  update(accountId: string, id: string, data: T, opts?: { expectedVersion?: number; events?: OutboxEvent[]; apart?: ReadonlyArray<object> }): Promise<DocumentRecord<T> | null>;
  delete(accountId: string, id: string): Promise<boolean>;
  /** Field names in `filter` must match /^[A-Za-z_][A-Za-z0-9_]*$/. */
  list(accountId: string, opts?: ListOptions & { filter?: DocumentFilter }): Promise<Page<DocumentRecord<T>>>;
}

// ---------------------------------------------------------------------------------------------
// Outbox: events recorded atomically with the state change they report, without multi-document
// transactions. A design transition or a document create/update may carry `events`: they are kept
// on that same record, in the same single-record write, as its pending outbox. A relay reads the
// pending events (`pending`), hands them on idempotently (by event id), then `clear`s them; a crash
// in between only means they are handed on again. Deleting a record drops its pending events.

export interface OutboxEvent {
  /** Unique (evt_...): consumers deduplicate on it. At most 100 characters. */
  id: string;
  /** e.g. 'design.ready'. */
  type: string;
  /**
   * The event's content, JSON (shape owned by the use cases); or a function returning it, called
   * only when the event is recorded (an event with an audience the account lacks is never built).
   */
  payload: unknown;
  /**
   * The collection whose documents consume events like this one (e.g. webhook endpoints). Given,
   * the event is recorded only when the record's account holds a document of that collection at
   * the write; without one nothing could take it, so it is not recorded (nor handed on). Checked in
   * the write itself, so a write after that document's creation records it. Not stored: pending()
   * returns id, type and payload.
   */
  audience?: string;
}

/** An event without its payload: what a relay needs to decide where the event goes. */
export type OutboxEventHead = Pick<OutboxEvent, 'id' | 'type'>;

export interface OutboxEntry<E extends OutboxEventHead = OutboxEvent> {
  /** Where the events wait: 'designs', or 'documents:<collection>'. Pass back to clear(). */
  source: string;
  accountId: string;
  resourceId: string;
  /** Oldest first, as recorded. Never empty. */
  events: E[];
  /** Where this record stands in the outbox's order: pass as `after` to read the records after it. */
  position: string;
}

export interface Outbox {
  /**
   * Records with pending events across accounts and sources, least recently updated first. limit
   * 1..1000, default 100. `after` (an entry's `position`) starts after that record, so a reader
   * pages past records it cannot hand on yet instead of reading them again and again.
   */
  pending(opts?: { limit?: number; after?: string | null }): Promise<OutboxEntry[]>;
  /**
   * As pending, each event without its payload: the store neither reads nor parses the payloads
   * (a relay that keeps them with `keep` never needs them in the process).
   */
  heads(opts?: { limit?: number; after?: string | null }): Promise<Array<OutboxEntry<OutboxEventHead>>>;
  /**
   * Keeps these pending events (by id) of the record as documents of `collection`: id the event's
   * id, data its payload (the same JSON value), owner the record's account; the payload is copied
   * by the store, not handed through the caller. An event whose document exists already (kept
   * before) is left as it is; ids no longer pending are ignored.
   */
  keep(entry: Pick<OutboxEntry, 'source' | 'accountId' | 'resourceId'>, eventIds: string[], collection: string): Promise<void>;
  /** Removes these events (by id) from the record's outbox; events recorded meanwhile stay. */
  clear(entry: Pick<OutboxEntry, 'source' | 'accountId' | 'resourceId'>, eventIds: string[]): Promise<void>;
  /**
   * Calls `listener` after each write through this store object that recorded events has
   * committed (so a relay in the writing process looks at once); writes of other processes are
   * not seen: poll for those. Returns a function that removes the listener.
   */
  onRecorded(listener: () => void): () => void;
}

// ---------------------------------------------------------------------------------------------
// Leases: a named role that one holder at a time takes among every process on the store (e.g. the
// event relay, so that several processes do not all walk the same outbox). A holder renews its lease
// before it ends; one that dies simply stops renewing, and once the lease has ended another may take
// it. Times are the store's clock. A lease is no lock for correctness: the work it guards must stay
// safe when done twice (a holder that stalls past its lease may overlap the next one).

export interface Leases {
  /**
   * Takes the lease `name` (1..100 characters) for `holder` (1..100) until now + `ttlMs` when it is
   * free, ended, or held by `holder` already (a renewal); true when `holder` holds it afterwards.
   */
  acquire(name: string, holder: string, ttlMs: number): Promise<boolean>;
  /** Ends `holder`'s lease at once, so another may take it; false when `holder` did not hold it. */
  release(name: string, holder: string): Promise<boolean>;
}

// ---------------------------------------------------------------------------------------------
// Idempotency (docs/api.md "Idempotency"): one row per (account, key), unique in the
// database; records expire after 24 h.

export type IdempotencyBegin =
  /**
   * First use (or the previous record expired or was abandoned): run the request. `seed` (random,
   * kept with the record) lets the caller derive the ids the request mints, so that `resumed` (the
   * same request again after its first run stopped without an answer: its process died, or it was
   * released) mints the same ids and finds what the first run created instead of creating twice.
   */
  | { state: 'started'; seed: string; resumed: boolean }
  /** Same key and fingerprint, finished: send the stored response again. */
  | { state: 'replay'; status: number; body: unknown; headers: Record<string, string> }
  /** Same key, different request: 409 idempotency_key_reused. */
  | { state: 'mismatch' }
  /** Same key and fingerprint, still running: 409 idempotency_key_in_use. */
  | { state: 'in_progress' };

export interface IdempotencyRepo {
  /**
   * `fingerprint`: e.g. sha256(method + route + body). A 'started' record older than
   * `staleAfterMs` (default 10 min: its process died) may be started again.
   */
  begin(accountId: string, key: string, fingerprint: string, opts?: { staleAfterMs?: number }): Promise<IdempotencyBegin>;
  /** Stores the response to replay. false when there is no started record for the key. */
  finish(accountId: string, key: string, response: { status: number; body: unknown; headers?: Record<string, string> }): Promise<boolean>;
  /** Forgets a started record (e.g. after a 5xx) so that a retry runs again. */
  abandon(accountId: string, key: string): Promise<boolean>;
  /** Keeps a started record alive (its request still runs): it goes stale `staleAfterMs` after the last renewal. */
  renew(accountId: string, key: string): Promise<boolean>;
  /**
   * The request ended without an answer worth keeping (a 5xx, a lost connection): the started record
   * is stale at once, so the same request may run again, resumed with the same seed.
   */
  release(accountId: string, key: string): Promise<boolean>;
}

// ---------------------------------------------------------------------------------------------
// Blobs: uploads and production files. Keys are relative paths of [A-Za-z0-9._-] segments joined
// by '/', no '..' segment, at most 512 characters; anything else is StoreError invalid_argument.
// A put is all-or-nothing: a crash never leaves a half-written blob under the key.

export type BlobData = Uint8Array | Readable | AsyncIterable<Uint8Array>;

export interface BlobInfo {
  key: string;
  size: number;
  /** Hex sha256 of the bytes. */
  sha256: string;
  contentType: string | null;
}

export interface BlobStore {
  /** Writes (or replaces) the blob. Optional `maxBytes`: more -> StoreError invalid_argument (param 'size'). */
  put(key: string, data: BlobData, opts?: { contentType?: string; maxBytes?: number }): Promise<BlobInfo>;
  get(key: string): Promise<Buffer | null>;
  stream(key: string): Promise<Readable | null>;
  stat(key: string): Promise<BlobInfo | null>;
  exists(key: string): Promise<boolean>;
  delete(key: string): Promise<boolean>;
  /**
   * Deletes what crashes leave behind, older than `olderThanMs`: partial writes (temporary files of
   * puts that never finished) and stored bytes whose put never recorded them (no metadata; no caller
   * was told the put succeeded). Returns how many of each were removed.
   */
  sweep(olderThanMs: number): Promise<{ partial: number; unrecorded: number }>;
  /** Keys of stored blobs starting with `prefix` and ending with `suffix`, last written more than `olderThanMs` ago; at most `limit` (1..10000), in key order. */
  listOlder(opts: { prefix: string; suffix?: string; olderThanMs: number; limit: number }): Promise<string[]>;
}

// ---------------------------------------------------------------------------------------------
// The store

export interface StoreHealth {
  ok: boolean;
  kind: 'sqlite' | 'mongodb';
  detail?: string;
}

export interface Store {
  readonly kind: 'sqlite' | 'mongodb';
  readonly accounts: AccountRepo;
  readonly apiKeys: ApiKeyRepo;
  readonly designs: DesignRepo;
  readonly jobs: JobQueue;
  readonly idempotency: IdempotencyRepo;
  readonly blobs: BlobStore;
  /** Pending events of designs and documents (see Outbox). */
  readonly outbox: Outbox;
  /** Request counts for rate limits, shared by every process on this store (see RateCounters). */
  readonly rateCounters: RateCounters;
  /** Roles one process at a time holds (see Leases). */
  readonly leases: Leases;
  /**
   * A typed document collection. `name`: /^[a-z][a-z0-9_]{0,62}$/ (e.g. 'dfm_reports', 'quotes',
   * 'review_links', 'carts', 'orders', 'webhook_endpoints'). `idPrefix` (default derived from the
   * KNOWN_ID_PREFIXES table, else 'doc') names fresh ids `<prefix>_...`.
   */
  documents<T>(name: string, opts?: { idPrefix?: string }): DocumentCollection<T>;
  /**
   * The collections of quotes, carts and orders with their records typed (./records/): the same
   * documents as documents('quotes'), documents('carts') and documents('orders') read and write.
   */
  readonly quotes: DocumentCollection<QuoteRecord>;
  readonly carts: DocumentCollection<CartRecord>;
  readonly orders: DocumentCollection<OrderRecord>;
  health(): Promise<StoreHealth>;
  /** Releases connections and file handles; the store is unusable afterwards. Idempotent. */
  close(): Promise<void>;
}

/**
 * Request counts in fixed windows, kept where every process on the store sees them, so that a limit
 * holds across processes. A key's window starts at its first request after the previous window
 * ended and lasts `windowMs` (store clock). The counts are disposable: losing the latest on a crash
 * only forgives a few requests, so implementations need not make them durable.
 */
export interface RateCounters {
  /** Counts one request against `key` (1..200 characters); answers the window's count, this request included, and the ms until it ends. */
  hit(key: string, windowMs: number): Promise<RateCount>;
}

export interface RateCount {
  count: number;
  /** ms until the window ends (> 0). */
  ttlMs: number;
}

/** The id prefixes (docs/api.md "Conventions") of the collections the service keeps. */
export const KNOWN_ID_PREFIXES: Readonly<Record<string, string>> = {
  dfm_reports: 'dfm',
  quotes: 'quo',
  review_links: 'rvl',
  carts: 'crt',
  orders: 'ord',
  webhook_endpoints: 'whe',
  webhook_deliveries: 'whd',
  events: 'evt',
};

export interface StoreConfig {
  /** Embedded store directory (SQLite file + blobs/). Default './data'. Ignored with mongodbUrl. */
  dataDir?: string;
  /** Selects the MongoDB store when set. */
  mongodbUrl?: string;
  /** MongoDB database name; default: the URL's path, else 'kerf'. */
  mongodbDbName?: string;
  /** How long to wait for a MongoDB server before failing; default 5000 ms. */
  serverSelectionTimeoutMS?: number;
  /** Clock, injectable for tests of leases and expiry. Default () => new Date(). */
  now?: () => Date;
  /** Embedded store: false commits every write on its own instead of in groups (a bench's before). Default true. */
  groupCommit?: boolean;
}
