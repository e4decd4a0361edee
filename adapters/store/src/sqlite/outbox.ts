// The outbox on SQLite: a table of its own, one row of pending events (a JSON array) per design or
// document, written by the same transaction that changes the record and read by the relay. Kept
// apart from the record so clearing handed-on events does not rewrite a large document.
import type Database from 'better-sqlite3';
import { checkEventIds, checkOutboxLimit, DESIGNS_SOURCE, DOCUMENTS_SOURCE_PREFIX, eventsForAudience, outboxEventTexts, outboxPosition, parseOutboxPosition, parseSource } from '../common/outbox.ts';
import type { Outbox, OutboxEntry, OutboxEvent, OutboxEventHead } from '../port.ts';
import { checkCollectionName } from '../common/validate.ts';
import type { SqliteContext } from './context.ts';

/** The outbox source of a design (null) or of a document of `collection`. */
export function outboxSource(collection: string | null): string {
  return collection === null ? DESIGNS_SOURCE : `${DOCUMENTS_SOURCE_PREFIX}${collection}`;
}

const appends = new WeakMap<Database.Database, Database.Statement>();
const holdings = new WeakMap<Database.Database, Database.Statement>();
const drops = new WeakMap<Database.Database, Database.Statement>();
const appendCounts = new WeakMap<Database.Database, number>();

/** How many appendEvents this connection has run: a write that changed it recorded events. */
export function appendedEvents(db: Database.Database): number {
  return appendCounts.get(db) ?? 0;
}

/** Whether the account holds a document of the collection, read in the write under way (an event's audience). */
function holds(db: Database.Database, accountId: string, collection: string): boolean {
  let stmt = holdings.get(db);
  if (!stmt) {
    stmt = db.prepare('SELECT 1 FROM documents WHERE collection = ? AND account_id = ? LIMIT 1').pluck();
    holdings.set(db, stmt);
  }
  return stmt.get(collection, accountId) !== undefined;
}

/**
 * Appends the checked events (checkOutboxEventList) to the record's pending events, those with an
 * audience only when the account holds a document of it; call inside the write that changes the
 * record, so that check and the record's change are one transaction. The events are stored as JSON
 * array texts, joined as text: the payloads are not parsed again.
 */
export function appendEvents(db: Database.Database, key: { source: string; accountId: string; id: string }, events: OutboxEvent[], now: string): void {
  const texts = outboxEventTexts(eventsForAudience(events, (collection) => holds(db, key.accountId, collection)));
  if (texts === null) return;
  let stmt = appends.get(db);
  if (!stmt) {
    const join = (column: string) => `${column} = substr(${column}, 1, length(${column}) - 1) || ',' || substr(excluded.${column}, 2)`;
    stmt = db.prepare(`INSERT INTO outbox_events (source, account_id, id, events, event_ids, event_types, updated_at) VALUES (@source, @accountId, @id, @events, @eventIds, @eventTypes, @now)
      ON CONFLICT (source, account_id, id) DO UPDATE SET ${join('events')}, ${join('event_ids')}, ${join('event_types')}, updated_at = excluded.updated_at`);
    appends.set(db, stmt);
  }
  stmt.run({ ...key, ...texts, now });
  appendCounts.set(db, appendedEvents(db) + 1);
}

/** Forgets the pending events of a record that is deleted (with it, as the column did). */
export function dropEvents(db: Database.Database, key: { source: string; accountId: string; id: string }): void {
  let stmt = drops.get(db);
  if (!stmt) {
    stmt = db.prepare('DELETE FROM outbox_events WHERE source = @source AND account_id = @accountId AND id = @id');
    drops.set(db, stmt);
  }
  stmt.run(key);
}

interface Row { source: string; account_id: string; id: string; events: string; updated_at: string }
interface HeadRow { source: string; account_id: string; id: string; event_ids: string; event_types: string; updated_at: string }

/** The events not in `@ids`, of a row that keeps some (the row goes when none are left). */
const REMAINING = `events = (SELECT json_group_array(json(value)) FROM json_each(outbox_events.events) WHERE json_extract(value, '$.id') NOT IN (SELECT value FROM json_each(@ids))),
  event_types = (SELECT json_group_array(t.value) FROM json_each(outbox_events.event_types) AS t JOIN json_each(outbox_events.event_ids) AS i ON i.key = t.key
    WHERE i.value NOT IN (SELECT value FROM json_each(@ids))),
  event_ids = (SELECT json_group_array(value) FROM json_each(outbox_events.event_ids) WHERE value NOT IN (SELECT value FROM json_each(@ids)))`;
const KEY = 'source = @source AND account_id = @accountId AND id = @id';
const PAGE = `FROM outbox_events WHERE @at IS NULL OR (updated_at, id) > (@at, @id) ORDER BY updated_at, id LIMIT @limit`;

export class SqliteOutbox implements Outbox {
  private readonly select;
  private readonly selectHeads;
  private readonly copy;
  private readonly deleteAll;
  private readonly keepRest;
  constructor(private readonly ctx: SqliteContext) {
    this.select = ctx.db.prepare(`SELECT source, account_id, id, events, updated_at ${PAGE}`);
    this.selectHeads = ctx.db.prepare(`SELECT source, account_id, id, event_ids, event_types, updated_at ${PAGE}`);
    // SQLite copies each payload's JSON text (->) into the document: it never passes through JS
    this.copy = ctx.db.prepare(`INSERT INTO documents (collection, id, account_id, key, data, version, created_at, updated_at)
      SELECT @collection, e.value ->> '$.id', o.account_id, NULL, e.value -> '$.payload', 1, @now, @now
      FROM outbox_events AS o, json_each(o.events) AS e
      WHERE o.source = @source AND o.account_id = @accountId AND o.id = @id AND e.value ->> '$.id' IN (SELECT value FROM json_each(@ids))
      ON CONFLICT DO NOTHING`);
    this.deleteAll = ctx.db.prepare(`DELETE FROM outbox_events WHERE ${KEY}
      AND NOT EXISTS (SELECT 1 FROM json_each(outbox_events.event_ids) WHERE value NOT IN (SELECT value FROM json_each(@ids)))`);
    // only when some events stay: the payloads are parsed then, not on the usual clear of them all
    this.keepRest = ctx.db.prepare(`UPDATE outbox_events SET ${REMAINING} WHERE ${KEY}
      AND EXISTS (SELECT 1 FROM json_each(outbox_events.event_ids) WHERE value IN (SELECT value FROM json_each(@ids)))`);
  }

  async pending(opts: { limit?: number; after?: string | null } = {}): Promise<OutboxEntry[]> {
    const rows = await this.page<Row>(this.select, opts);
    return rows.map((r) => ({ ...entryOf(r), events: JSON.parse(r.events) as OutboxEvent[] })).filter((e) => e.events.length > 0);
  }

  async heads(opts: { limit?: number; after?: string | null } = {}): Promise<Array<OutboxEntry<OutboxEventHead>>> {
    const rows = await this.page<HeadRow>(this.selectHeads, opts);
    return rows.map((r) => {
      const ids = JSON.parse(r.event_ids) as string[];
      const types = JSON.parse(r.event_types) as string[];
      return { ...entryOf(r), events: ids.map((id, i) => ({ id, type: types[i] })) };
    }).filter((e) => e.events.length > 0);
  }

  async keep(entry: Pick<OutboxEntry, 'source' | 'accountId' | 'resourceId'>, eventIds: string[], collection: string): Promise<void> {
    const params = { ...this.key(entry, eventIds), collection: checkCollectionName(collection), now: this.ctx.now().toISOString() };
    await this.ctx.write(() => { this.copy.run(params); });
  }

  onRecorded(listener: () => void): () => void {
    return this.ctx.recorded.on(listener);
  }

  async clear(entry: Pick<OutboxEntry, 'source' | 'accountId' | 'resourceId'>, eventIds: string[]): Promise<void> {
    const key = this.key(entry, eventIds);
    await this.ctx.write(() => { if (this.deleteAll.run(key).changes === 0) this.keepRest.run(key); });
  }

  private key(entry: Pick<OutboxEntry, 'source' | 'accountId' | 'resourceId'>, eventIds: string[]): { ids: string; source: string; id: string; accountId: string } {
    const ids = JSON.stringify(checkEventIds(eventIds));
    parseSource(entry.source);
    return { ids, source: entry.source, id: String(entry.resourceId), accountId: String(entry.accountId) };
  }

  private async page<R>(stmt: Database.Statement, opts: { limit?: number; after?: string | null }): Promise<R[]> {
    const after = opts.after ? parseOutboxPosition(opts.after) : { at: null, id: null };
    const rows = stmt.all({ limit: checkOutboxLimit(opts.limit), ...after }) as R[];
    // a commit is readable before its fsync ends: nothing is handed on that a power cut could undo
    if (rows.length > 0) await this.ctx.synced();
    return rows;
  }
}

function entryOf(r: { source: string; account_id: string; id: string; updated_at: string }): Omit<OutboxEntry, 'events'> {
  return { source: r.source, accountId: r.account_id, resourceId: r.id, position: outboxPosition(r.updated_at, r.id) };
}
