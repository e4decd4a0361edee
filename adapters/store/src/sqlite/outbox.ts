// The outbox on SQLite: a table of its own, one row of pending events (a JSON array) per design or
// document, written by the same transaction that changes the record and read by the relay. Kept
// apart from the record so clearing handed-on events does not rewrite a large document.
import type Database from 'better-sqlite3';
import { checkEventIds, checkOutboxLimit, DESIGNS_SOURCE, DOCUMENTS_SOURCE_PREFIX, outboxPosition, parseOutboxPosition, parseSource, type OutboxEventTexts } from '../common/outbox.ts';
import type { Outbox, OutboxEntry, OutboxEvent } from '../port.ts';
import type { SqliteContext } from './context.ts';

/** The outbox source of a design (null) or of a document of `collection`. */
export function outboxSource(collection: string | null): string {
  return collection === null ? DESIGNS_SOURCE : `${DOCUMENTS_SOURCE_PREFIX}${collection}`;
}

const appends = new WeakMap<Database.Database, Database.Statement>();
const drops = new WeakMap<Database.Database, Database.Statement>();

/**
 * Appends the events (outboxEventTexts) to the record's pending events; call inside the write that
 * changes the record. Both texts are JSON arrays, joined as text: the payloads are not parsed again.
 */
export function appendEvents(db: Database.Database, key: { source: string; accountId: string; id: string }, texts: OutboxEventTexts | null, now: string): void {
  if (texts === null) return;
  let stmt = appends.get(db);
  if (!stmt) {
    const join = (column: string) => `${column} = substr(${column}, 1, length(${column}) - 1) || ',' || substr(excluded.${column}, 2)`;
    stmt = db.prepare(`INSERT INTO outbox_events (source, account_id, id, events, event_ids, updated_at) VALUES (@source, @accountId, @id, @events, @eventIds, @now)
      ON CONFLICT (source, account_id, id) DO UPDATE SET ${join('events')}, ${join('event_ids')}, updated_at = excluded.updated_at`);
    appends.set(db, stmt);
  }
  stmt.run({ ...key, ...texts, now });
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

/** The events not in `@ids`, of a row that keeps some (the row goes when none are left). */
const REMAINING = `events = (SELECT json_group_array(json(value)) FROM json_each(outbox_events.events) WHERE json_extract(value, '$.id') NOT IN (SELECT value FROM json_each(@ids))),
  event_ids = (SELECT json_group_array(value) FROM json_each(outbox_events.event_ids) WHERE value NOT IN (SELECT value FROM json_each(@ids)))`;
const KEY = 'source = @source AND account_id = @accountId AND id = @id';

export class SqliteOutbox implements Outbox {
  private readonly select;
  private readonly deleteAll;
  private readonly keepRest;
  constructor(private readonly ctx: SqliteContext) {
    this.select = ctx.db.prepare(`SELECT source, account_id, id, events, updated_at FROM outbox_events
      WHERE @at IS NULL OR (updated_at, id) > (@at, @id)
      ORDER BY updated_at, id LIMIT @limit`);
    this.deleteAll = ctx.db.prepare(`DELETE FROM outbox_events WHERE ${KEY}
      AND NOT EXISTS (SELECT 1 FROM json_each(outbox_events.event_ids) WHERE value NOT IN (SELECT value FROM json_each(@ids)))`);
    // only when some events stay: the payloads are parsed then, not on the usual clear of them all
    this.keepRest = ctx.db.prepare(`UPDATE outbox_events SET ${REMAINING} WHERE ${KEY}
      AND EXISTS (SELECT 1 FROM json_each(outbox_events.event_ids) WHERE value IN (SELECT value FROM json_each(@ids)))`);
  }

  async pending(opts: { limit?: number; after?: string | null } = {}): Promise<OutboxEntry[]> {
    const after = opts.after ? parseOutboxPosition(opts.after) : { at: null, id: null };
    const rows = this.select.all({ limit: checkOutboxLimit(opts.limit), ...after }) as Row[];
    // a commit is readable before its fsync ends: nothing is handed on that a power cut could undo
    if (rows.length > 0) await this.ctx.synced();
    return rows.map((r) => ({ source: r.source, accountId: r.account_id, resourceId: r.id, events: JSON.parse(r.events) as OutboxEvent[], position: outboxPosition(r.updated_at, r.id) }))
      .filter((e) => e.events.length > 0);
  }

  async clear(entry: Pick<OutboxEntry, 'source' | 'accountId' | 'resourceId'>, eventIds: string[]): Promise<void> {
    const ids = JSON.stringify(checkEventIds(eventIds));
    parseSource(entry.source);
    const key = { ids, source: entry.source, id: String(entry.resourceId), accountId: String(entry.accountId) };
    await this.ctx.write(() => { if (this.deleteAll.run(key).changes === 0) this.keepRest.run(key); });
  }
}
