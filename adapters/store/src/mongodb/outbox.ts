// The outbox on MongoDB: an `outbox` array field on the design or document itself, appended to by
// the same single-document update that changes it ($push), so no transaction is needed; removed
// ($unset) once the relay has emptied it.
import type { Collection, Document } from 'mongodb';
import { checkEventIds, checkOutboxLimit, DESIGNS_SOURCE, DOCUMENTS_SOURCE_PREFIX, outboxPosition, parseOutboxPosition, parseSource } from '../common/outbox.ts';
import { isStoreError, KNOWN_ID_PREFIXES, type Outbox, type OutboxEntry, type OutboxEvent, type OutboxEventHead } from '../port.ts';
import { checkCollectionName } from '../common/validate.ts';
import { MongoDocuments } from './documents.ts';
import type { MongoContext } from './context.ts';
import { COLLECTIONS } from './indexes.ts';

export class MongoOutbox implements Outbox {
  private readonly designs: Collection<Document>;
  private readonly documents: Collection<Document>;
  constructor(private readonly ctx: MongoContext) {
    this.designs = ctx.db.collection(COLLECTIONS.designs);
    this.documents = ctx.db.collection(COLLECTIONS.documents);
  }

  async pending(opts: { limit?: number; after?: string | null } = {}): Promise<OutboxEntry[]> {
    return this.page<OutboxEvent>({ outbox: 1 }, opts);
  }

  async heads(opts: { limit?: number; after?: string | null } = {}): Promise<Array<OutboxEntry<OutboxEventHead>>> {
    return this.page<OutboxEventHead>({ 'outbox.id': 1, 'outbox.type': 1 }, opts);
  }

  async keep(entry: Pick<OutboxEntry, 'source' | 'accountId' | 'resourceId'>, eventIds: string[], collection: string): Promise<void> {
    const ids = new Set(checkEventIds(eventIds));
    const { col, filter } = this.recordOf(entry);
    const documents = new MongoDocuments<unknown>(this.ctx, checkCollectionName(collection), KNOWN_ID_PREFIXES[collection] ?? 'doc');
    const record = await col.findOne(filter, { projection: { outbox: 1 } });
    for (const event of (record?.outbox ?? []) as OutboxEvent[]) {
      if (!ids.has(event.id)) continue;
      try {
        await documents.create(String(entry.accountId), event.payload, { id: event.id });
      } catch (err) {
        if (!isStoreError(err, 'duplicate')) throw err; // kept before
      }
    }
  }

  private async page<E extends OutboxEventHead>(outbox: Document, opts: { limit?: number; after?: string | null }): Promise<Array<OutboxEntry<E>>> {
    const limit = checkOutboxLimit(opts.limit);
    const projection = { _id: 1, id: 1, collection: 1, accountId: 1, updatedAt: 1, ...outbox };
    // after a position: later updatedAt, or the same with a greater id (as SQLite orders them)
    const from = opts.after ? parseOutboxPosition(opts.after) : null;
    const later = (idField: string): Document => (from ? { $or: [{ updatedAt: { $gt: new Date(from.at) } }, { updatedAt: new Date(from.at), [idField]: { $gt: from.id } }] } : {});
    const [d, o] = await Promise.all([
      this.designs.find({ outbox: { $exists: true }, ...later('_id') }, { projection }).sort({ updatedAt: 1, _id: 1 }).limit(limit).toArray(),
      this.documents.find({ outbox: { $exists: true }, ...later('id') }, { projection }).sort({ updatedAt: 1, id: 1 }).limit(limit).toArray(),
    ]);
    const entries = [
      ...d.map((x) => ({ at: x.updatedAt as Date, id: String(x._id), entry: { source: DESIGNS_SOURCE, accountId: String(x.accountId), resourceId: String(x._id), events: (x.outbox ?? []) as E[] } })),
      ...o.map((x) => ({ at: x.updatedAt as Date, id: String(x.id), entry: { source: `${DOCUMENTS_SOURCE_PREFIX}${String(x.collection)}`, accountId: String(x.accountId), resourceId: String(x.id), events: (x.outbox ?? []) as E[] } })),
    ];
    return entries.sort((a, b) => a.at.getTime() - b.at.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)).slice(0, limit)
      .map((e) => ({ ...e.entry, position: outboxPosition(e.at.toISOString(), e.id) })).filter((e) => e.events.length > 0);
  }

  onRecorded(listener: () => void): () => void {
    return this.ctx.recorded.on(listener);
  }

  async clear(entry: Pick<OutboxEntry, 'source' | 'accountId' | 'resourceId'>, eventIds: string[]): Promise<void> {
    const ids = checkEventIds(eventIds);
    const { col, filter } = this.recordOf(entry);
    await col.updateOne({ ...filter, outbox: { $exists: true } }, { $pull: { outbox: { id: { $in: ids } } } } as Document);
    // Only an array that is still empty goes: an event pushed meanwhile keeps it.
    await col.updateOne({ ...filter, outbox: { $size: 0 } }, { $unset: { outbox: '' } });
  }

  /** The design or document an entry's events wait on. */
  private recordOf(entry: Pick<OutboxEntry, 'source' | 'accountId' | 'resourceId'>): { col: Collection<Document>; filter: Document } {
    const src = parseSource(entry.source);
    return src.table === 'designs'
      ? { col: this.designs, filter: { _id: String(entry.resourceId), accountId: String(entry.accountId) } }
      : { col: this.documents, filter: { collection: src.collection, id: String(entry.resourceId), accountId: String(entry.accountId) } };
  }
}
