import { newId } from '@kerf/common';
import { checkFilter, checkNonEmpty, resolveList } from '../common/validate.ts';
import { StoreError, type DocumentCollection, type DocumentFilter, type DocumentRecord, type ListOptions, type Page } from '../port.ts';
import { isUniqueViolation, type SqliteContext } from './context.ts';
import { joinTextsApart } from '../common/json.ts';
import { keyset, toPage } from './paging.ts';
import { checkOutboxEventList } from '../common/outbox.ts';
import { appendEvents, dropEvents, outboxSource } from './outbox.ts';
import type { OutboxEvent } from '../port.ts';

interface DocRow {
  id: string;
  account_id: string;
  key: string | null;
  data: string;
  /** the texts kept apart from `data` (texts-apart.ts), or null */
  apart: string | null;
  version: number;
  created_at: string;
  updated_at: string;
}

function toDoc<T>(ctx: SqliteContext, r: DocRow): DocumentRecord<T> {
  const data = JSON.parse(ctx.textsApart.join(r.account_id, r.data, r.apart)) as T;
  return { id: r.id, accountId: r.account_id, key: r.key, data, version: r.version, createdAt: r.created_at, updatedAt: r.updated_at };
}

/**
 * The created record, its data parsed from the text just stored when first read: a writer that
 * ignores the record (a quote, an event) does not parse its own document back.
 */
function withLazyData<T>(r: Omit<DocRow, 'data' | 'apart'>, text: () => string): DocumentRecord<T> {
  let parsed: { value: T } | null = null;
  return {
    id: r.id, accountId: r.account_id, key: r.key,
    get data(): T { return (parsed ??= { value: JSON.parse(text()) as T }).value; },
    set data(value: T) { parsed = { value }; },
    version: r.version, createdAt: r.created_at, updatedAt: r.updated_at,
  };
}

/** SQL for `data.field = value` with MongoDB's semantics: null matches a missing field too. */
function filterClause(field: string, value: string | number | boolean | null): { sql: string; params: unknown[] } {
  const path = `$.${field}`;
  if (value === null) return { sql: `AND (json_type(data, ?) IS NULL OR json_type(data, ?) = 'null')`, params: [path, path] };
  if (typeof value === 'boolean') return { sql: 'AND json_type(data, ?) = ?', params: [path, value ? 'true' : 'false'] };
  if (typeof value === 'number') return { sql: `AND json_type(data, ?) IN ('integer', 'real') AND json_extract(data, ?) = ?`, params: [path, path, value] };
  return { sql: `AND json_type(data, ?) = 'text' AND json_extract(data, ?) = ?`, params: [path, path, value] };
}

export class SqliteDocuments<T> implements DocumentCollection<T> {
  private readonly insert;
  private readonly byId;
  private readonly byKey;
  private readonly unscoped;
  private readonly remove;
  private readonly versionOf;

  constructor(private readonly ctx: SqliteContext, private readonly collection: string, private readonly idPrefix: string) {
    const { db } = ctx;
    // no RETURNING: the new row is what was given (version 1, created and updated now), and
    // SQLite's RETURNING costs a third of the insert
    this.insert = db.prepare(`INSERT INTO documents (collection, id, account_id, key, data, apart, version, created_at, updated_at)
      VALUES (@collection, @id, @accountId, @key, @data, @apart, 1, @now, @now)`);
    this.byId = db.prepare('SELECT * FROM documents WHERE collection = ? AND id = ? AND account_id = ?');
    this.byKey = db.prepare('SELECT * FROM documents WHERE collection = ? AND account_id = ? AND key = ?');
    this.unscoped = db.prepare('SELECT * FROM documents WHERE collection = ? AND id = ?');
    this.remove = db.prepare('DELETE FROM documents WHERE collection = ? AND id = ? AND account_id = ?');
    this.versionOf = db.prepare('SELECT version FROM documents WHERE collection = ? AND id = ? AND account_id = ?');
  }

  async create(accountId: string, data: T, opts: { id?: string; key?: string; events?: OutboxEvent[]; apart?: ReadonlyArray<object> } = {}): Promise<DocumentRecord<T>> {
    const events = checkOutboxEventList(opts.events);
    const now = this.ctx.now();
    const id = opts.id === undefined ? newId(this.idPrefix, now) : checkNonEmpty(opts.id, 'id', 100);
    const key = opts.key === undefined ? null : checkNonEmpty(opts.key, 'key', 500);
    try {
      const { text, apart } = this.ctx.textsApart.split(data, opts.apart);
      const params = { collection: this.collection, id, accountId: String(accountId), key, data: text, apart: null as string | null, now: now.toISOString() };
      const stored = await this.ctx.write(() => {
        const put = this.ctx.textsApart.put(params.accountId, apart);
        params.apart = put.column;
        this.insert.run(params);
        appendEvents(this.ctx.db, { source: outboxSource(this.collection), accountId: params.accountId, id }, events, params.now);
        return put;
      });
      stored.committed();
      return withLazyData<T>({ id, account_id: params.accountId, key, version: 1, created_at: params.now, updated_at: params.now }, () => joinTextsApart(text, apart));
    } catch (err) {
      if (isUniqueViolation(err)) {
        const byKey = key !== null && this.byKey.get(this.collection, String(accountId), key);
        throw byKey
          ? new StoreError('duplicate', `a ${this.collection} document with key '${key}' exists`, 'key')
          : new StoreError('duplicate', `${this.collection} id ${id} is taken`, 'id');
      }
      throw err;
    }
  }

  async get(accountId: string, id: string): Promise<DocumentRecord<T> | null> {
    const row = this.byId.get(this.collection, String(id), String(accountId)) as DocRow | undefined;
    return row ? toDoc<T>(this.ctx, row) : null;
  }

  async getByKey(accountId: string, key: string): Promise<DocumentRecord<T> | null> {
    const row = this.byKey.get(this.collection, String(accountId), String(key)) as DocRow | undefined;
    return row ? toDoc<T>(this.ctx, row) : null;
  }

  async getUnscoped(id: string): Promise<DocumentRecord<T> | null> {
    const row = this.unscoped.get(this.collection, String(id)) as DocRow | undefined;
    return row ? toDoc<T>(this.ctx, row) : null;
  }

  async update(accountId: string, id: string, data: T, opts: { expectedVersion?: number; events?: OutboxEvent[]; apart?: ReadonlyArray<object> } = {}): Promise<DocumentRecord<T> | null> {
    const { text, apart } = this.ctx.textsApart.split(data, opts.apart);
    const params: Record<string, unknown> = { data: text, apart: null, now: this.ctx.now().toISOString(), collection: this.collection, id: String(id), accountId: String(accountId) };
    let versionClause = '';
    if (opts.expectedVersion !== undefined) { versionClause = 'AND version = @expectedVersion'; params.expectedVersion = opts.expectedVersion; }
    const events = checkOutboxEventList(opts.events);
    const update = this.ctx.db.prepare(`UPDATE documents SET data = @data, apart = @apart, version = version + 1, updated_at = @now
      WHERE collection = @collection AND id = @id AND account_id = @accountId ${versionClause} RETURNING *`);
    // the version is read in the same group as the UPDATE, so a conflict names the version that won
    const { row, current, put } = await this.ctx.write(() => {
      const put = this.ctx.textsApart.put(String(accountId), apart);
      params.apart = put.column;
      const row = update.get(params) as DocRow | undefined;
      if (row) appendEvents(this.ctx.db, { source: outboxSource(this.collection), accountId: String(accountId), id: String(id) }, events, params.now as string);
      const current = row || opts.expectedVersion === undefined ? undefined : this.versionOf.get(this.collection, String(id), String(accountId)) as { version: number } | undefined;
      return { row, current, put };
    });
    put.committed();
    if (row) return toDoc<T>(this.ctx, row);
    if (current) throw new StoreError('conflict', `${this.collection} ${id} is at version ${current.version}, not ${opts.expectedVersion}`, 'expectedVersion');
    return null;
  }

  async delete(accountId: string, id: string): Promise<boolean> {
    return (await this.ctx.write(() => {
      const removed = this.remove.run(this.collection, String(id), String(accountId));
      if (removed.changes === 1) dropEvents(this.ctx.db, { source: outboxSource(this.collection), accountId: String(accountId), id: String(id) });
      return removed;
    })).changes === 1;
  }

  async list(accountId: string, opts: ListOptions & { filter?: DocumentFilter } = {}): Promise<Page<DocumentRecord<T>>> {
    const list = resolveList(opts);
    const filters = checkFilter(opts.filter);
    // The cursor is bound to the collection and the filter, so it cannot be replayed on another list.
    const scope = `${this.collection}:${JSON.stringify(filters)}`;
    const ks = keyset(scope, list);
    let where = '';
    const params: unknown[] = [this.collection, String(accountId)];
    for (const [field, value] of filters) {
      const c = filterClause(field, value);
      where += ' ' + c.sql;
      params.push(...c.params);
    }
    const rows = this.ctx.db.prepare(`SELECT * FROM documents WHERE collection = ? AND account_id = ? ${where} ${ks.where} ${ks.orderBy} LIMIT ?`)
      .all(...params, ...ks.params, list.limit + 1) as DocRow[];
    return toPage(scope, list, rows, (r) => toDoc<T>(this.ctx, r));
  }
}
