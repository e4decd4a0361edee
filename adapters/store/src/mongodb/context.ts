// What every MongoDB repository shares: the database, the clock, whether multi-document
// transactions are available, and the conversions between BSON documents and port records.
import type { ClientSession, Db, Document, MongoClient } from 'mongodb';
import { decodeCursor } from '../common/cursor.ts';
import type { ResolvedList } from '../common/validate.ts';
import type { Page } from '../port.ts';
import { encodeCursor } from '../common/cursor.ts';
import type { RecordedEvents } from '../common/outbox.ts';

export interface MongoContext {
  client: MongoClient;
  db: Db;
  now: () => Date;
  /** True on a replica set or sharded cluster; a standalone server has no transactions. */
  transactions: boolean;
  /** Told after each write that recorded events (Outbox.onRecorded). */
  recorded: RecordedEvents;
}

/** MongoDB's duplicate key error (E11000). */
export function isDuplicateKey(err: unknown): boolean {
  return (err as { code?: unknown })?.code === 11000;
}

/** Which unique index a duplicate key error hit, from its keyPattern. */
export function duplicateKeyFields(err: unknown): string[] {
  const pattern = (err as { keyPattern?: Record<string, unknown> })?.keyPattern;
  return pattern ? Object.keys(pattern) : [];
}

export { plainJson } from '../common/json.ts';

export function isoOrNull(d: Date | null | undefined): string | null {
  return d ? d.toISOString() : null;
}

/** Keyset filter on (createdAt, <idField>) for the page after the cursor; {} on the first page. */
export function keysetFilter(scope: string, list: ResolvedList, idField: string): Document {
  if (list.cursor === null) return {};
  const pos = decodeCursor(scope, list.order, list.cursor);
  const op = list.order === 'desc' ? '$lt' : '$gt';
  const at = new Date(pos.createdAt);
  return { $or: [{ createdAt: { [op]: at } }, { createdAt: at, [idField]: { [op]: pos.id } }] };
}

export function keysetSort(list: ResolvedList, idField: string): Record<string, 1 | -1> {
  const dir = list.order === 'desc' ? -1 : 1;
  return { createdAt: dir, [idField]: dir };
}

export function toPage<T extends { createdAt: string; id: string }>(scope: string, list: ResolvedList, docs: Document[], map: (d: Document) => T): Page<T> {
  const hasMore = docs.length > list.limit;
  const items = docs.slice(0, list.limit).map(map);
  const last = items[items.length - 1];
  return { items, hasMore, nextCursor: hasMore && last ? encodeCursor(scope, list.order, last) : null };
}

/**
 * Runs `fn` in a transaction when the deployment supports them, else without a session (the
 * caller then orders its writes so that a crash between them is harmless).
 */
export async function maybeTransaction<T>(ctx: MongoContext, fn: (session: ClientSession | undefined) => Promise<T>): Promise<T> {
  if (!ctx.transactions) return fn(undefined);
  const session = ctx.client.startSession();
  try {
    return await session.withTransaction(() => fn(session));
  } finally {
    await session.endSession();
  }
}
