import type { Collection, Document } from 'mongodb';
import { newId } from '@kerf/common';
import { checkFilter, checkNonEmpty, resolveList } from '../common/validate.ts';
import { StoreError, type DocumentCollection, type DocumentFilter, type DocumentRecord, type ListOptions, type Page } from '../port.ts';
import { duplicateKeyFields, isDuplicateKey, keysetFilter, keysetSort, plainJson, toPage, type MongoContext } from './context.ts';
import { COLLECTIONS } from './indexes.ts';
import { eventsToRecord } from './audience.ts';
import type { OutboxEvent } from '../port.ts';

function toDoc<T>(d: Document): DocumentRecord<T> {
  return {
    id: d.id, accountId: d.accountId, key: d.key ?? null, data: d.data as T, version: d.version,
    createdAt: (d.createdAt as Date).toISOString(), updatedAt: (d.updatedAt as Date).toISOString(),
  };
}

/** Field filters on `data`; MongoDB's equality on null also matches a missing field, as the port says. */
export function dataFilter(filters: [string, string | number | boolean | null][]): Document {
  const out: Document = {};
  for (const [field, value] of filters) out[`data.${field}`] = value;
  return out;
}

/** All document collections share one MongoDB collection, told apart by `collection`. */
export class MongoDocuments<T> implements DocumentCollection<T> {
  private readonly col: Collection<Document>;
  constructor(private readonly ctx: MongoContext, private readonly collection: string, private readonly idPrefix: string) {
    this.col = ctx.db.collection(COLLECTIONS.documents);
  }

  async create(accountId: string, data: T, opts: { id?: string; key?: string; events?: OutboxEvent[]; apart?: ReadonlyArray<object> } = {}): Promise<DocumentRecord<T>> {
    const events = await eventsToRecord(this.ctx, accountId, opts.events);
    const now = this.ctx.now();
    const id = opts.id === undefined ? newId(this.idPrefix, now) : checkNonEmpty(opts.id, 'id', 100);
    const key = opts.key === undefined ? null : checkNonEmpty(opts.key, 'key', 500);
    const doc: Document = { collection: this.collection, id, accountId: String(accountId), data: plainJson(data, 'data'), version: 1, createdAt: now, updatedAt: now };
    // Absent rather than null, so that the partial unique index on string keys ignores it.
    if (key !== null) doc.key = key;
    if (events.length) doc.outbox = events;
    try {
      await this.col.insertOne(doc);
    } catch (err) {
      if (isDuplicateKey(err)) {
        const onKey = duplicateKeyFields(err).includes('key');
        throw onKey
          ? new StoreError('duplicate', `a ${this.collection} document with key '${key}' exists`, 'key')
          : new StoreError('duplicate', `${this.collection} id ${id} is taken`, 'id');
      }
      throw err;
    }
    if (events.length) this.ctx.recorded.emit();
    return toDoc<T>(doc);
  }

  async get(accountId: string, id: string): Promise<DocumentRecord<T> | null> {
    const d = await this.col.findOne({ collection: this.collection, id: String(id), accountId: String(accountId) });
    return d ? toDoc<T>(d) : null;
  }

  async getByKey(accountId: string, key: string): Promise<DocumentRecord<T> | null> {
    const d = await this.col.findOne({ collection: this.collection, accountId: String(accountId), key: String(key) });
    return d ? toDoc<T>(d) : null;
  }

  async getUnscoped(id: string): Promise<DocumentRecord<T> | null> {
    const d = await this.col.findOne({ collection: this.collection, id: String(id) });
    return d ? toDoc<T>(d) : null;
  }

  async update(accountId: string, id: string, data: T, opts: { expectedVersion?: number; events?: OutboxEvent[]; apart?: ReadonlyArray<object> } = {}): Promise<DocumentRecord<T> | null> {
    const events = await eventsToRecord(this.ctx, accountId, opts.events);
    const filter: Document = { collection: this.collection, id: String(id), accountId: String(accountId) };
    if (opts.expectedVersion !== undefined) filter.version = opts.expectedVersion;
    const d = await this.col.findOneAndUpdate(
      filter,
      { $set: { data: plainJson(data, 'data'), updatedAt: this.ctx.now() }, $inc: { version: 1 }, ...(events.length ? { $push: { outbox: { $each: events } } } : {}) } as Document,
      { returnDocument: 'after' },
    );
    if (d && events.length) this.ctx.recorded.emit();
    if (d) return toDoc<T>(d);
    if (opts.expectedVersion !== undefined) {
      const current = await this.col.findOne({ collection: this.collection, id: String(id), accountId: String(accountId) }, { projection: { version: 1 } });
      if (current) throw new StoreError('conflict', `${this.collection} ${id} is at version ${current.version}, not ${opts.expectedVersion}`, 'expectedVersion');
    }
    return null;
  }

  async delete(accountId: string, id: string): Promise<boolean> {
    const r = await this.col.deleteOne({ collection: this.collection, id: String(id), accountId: String(accountId) });
    return r.deletedCount === 1;
  }

  async list(accountId: string, opts: ListOptions & { filter?: DocumentFilter } = {}): Promise<Page<DocumentRecord<T>>> {
    const list = resolveList(opts);
    const filters = checkFilter(opts.filter);
    const scope = `${this.collection}:${JSON.stringify(filters)}`;
    const query: Document = { collection: this.collection, accountId: String(accountId), ...dataFilter(filters), ...keysetFilter(scope, list, 'id') };
    const docs = await this.col.find(query).sort(keysetSort(list, 'id')).limit(list.limit + 1).toArray();
    return toPage(scope, list, docs, (d) => toDoc<T>(d));
  }
}
