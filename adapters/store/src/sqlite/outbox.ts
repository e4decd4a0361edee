// The outbox on SQLite: a nullable JSON array column `outbox` on designs and documents, appended to
// by the same UPDATE/INSERT that changes the record, read across both tables by the relay.
import { checkEventIds, checkOutboxLimit, DESIGNS_SOURCE, DOCUMENTS_SOURCE_PREFIX, outboxPosition, parseOutboxPosition, parseSource } from '../common/outbox.ts';
import type { Outbox, OutboxEntry, OutboxEvent } from '../port.ts';
import type { SqliteContext } from './context.ts';

/** `outbox = <this>` appends the events (outboxEventTexts; named parameters `ev0`, `ev1`, ...) to the array. */
export function appendEventsSql(eventTexts: string[], params: Record<string, unknown>): string | null {
  if (eventTexts.length === 0) return null;
  const parts = eventTexts.map((text, i) => { params[`ev${i}`] = text; return `'$[#]', json(@ev${i})`; });
  return `outbox = json_insert(coalesce(outbox, '[]'), ${parts.join(', ')})`;
}

interface Row { source: string; account_id: string; id: string; outbox: string; updated_at: string }

/** The outbox array of `table` without the events whose ids are `@ids`; NULL once none are left. */
const remaining = (table: string): string => `(SELECT CASE WHEN count(*) = 0 THEN NULL ELSE json_group_array(json(value)) END
  FROM json_each(${table}.outbox) WHERE json_extract(value, '$.id') NOT IN (SELECT value FROM json_each(@ids)))`;

export class SqliteOutbox implements Outbox {
  private readonly select;
  private readonly clearDesign;
  private readonly clearDocument;
  constructor(private readonly ctx: SqliteContext) {
    this.select = ctx.db.prepare(`SELECT source, account_id, id, outbox, updated_at FROM (
        SELECT '${DESIGNS_SOURCE}' AS source, account_id, id, outbox, updated_at FROM designs WHERE outbox IS NOT NULL
        UNION ALL
        SELECT '${DOCUMENTS_SOURCE_PREFIX}' || collection AS source, account_id, id, outbox, updated_at FROM documents WHERE outbox IS NOT NULL)
      WHERE @at IS NULL OR (updated_at, id) > (@at, @id)
      ORDER BY updated_at, id LIMIT @limit`);
    this.clearDesign = ctx.db.prepare(`UPDATE designs SET outbox = ${remaining('designs')} WHERE id = @id AND account_id = @accountId AND outbox IS NOT NULL`);
    this.clearDocument = ctx.db.prepare(`UPDATE documents SET outbox = ${remaining('documents')}
      WHERE collection = @collection AND id = @id AND account_id = @accountId AND outbox IS NOT NULL`);
  }

  async pending(opts: { limit?: number; after?: string | null } = {}): Promise<OutboxEntry[]> {
    const after = opts.after ? parseOutboxPosition(opts.after) : { at: null, id: null };
    const rows = this.select.all({ limit: checkOutboxLimit(opts.limit), ...after }) as Row[];
    // a commit is readable before its fsync ends: nothing is handed on that a power cut could undo
    if (rows.length > 0) await this.ctx.synced();
    return rows.map((r) => ({ source: r.source, accountId: r.account_id, resourceId: r.id, events: JSON.parse(r.outbox) as OutboxEvent[], position: outboxPosition(r.updated_at, r.id) }))
      .filter((e) => e.events.length > 0);
  }

  async clear(entry: Pick<OutboxEntry, 'source' | 'accountId' | 'resourceId'>, eventIds: string[]): Promise<void> {
    const ids = JSON.stringify(checkEventIds(eventIds));
    const src = parseSource(entry.source);
    const key = { ids, id: String(entry.resourceId), accountId: String(entry.accountId) };
    await this.ctx.write(() => src.table === 'designs' ? this.clearDesign.run(key) : this.clearDocument.run({ ...key, collection: src.collection }));
  }
}
