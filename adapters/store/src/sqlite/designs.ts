import { newId } from '@kerf/common';
import { checkDesignError, checkDesignStatuses, checkNewDesign, checkNewJob } from '../common/records.ts';
import { resolveList } from '../common/validate.ts';
import {
  StoreError, type DesignError, type DesignRecord, type DesignRepo, type DesignStatus, type DesignTransition,
  type ListOptions, type NewDesign, type Page,
} from '../port.ts';
import { isForeignKeyViolation, isUniqueViolation, parseJson, toJson, type SqliteContext } from './context.ts';
import type { SqliteJobs } from './jobs.ts';
import { keyset, toPage } from './paging.ts';
import { appendEvents, outboxSource } from './outbox.ts';
import { checkOutboxEventList } from '../common/outbox.ts';

interface DesignRow {
  id: string;
  account_id: string;
  status: DesignStatus;
  name: string;
  source_blob_key: string;
  source_size: number;
  source_sha256: string;
  options: string;
  result: string | null;
  error: string | null;
  created_at: string;
  updated_at: string;
}

function toDesign<R>(r: DesignRow): DesignRecord<R> {
  return {
    id: r.id, accountId: r.account_id, status: r.status, name: r.name, sourceBlobKey: r.source_blob_key,
    sourceSize: r.source_size, sourceSha256: r.source_sha256, options: JSON.parse(r.options) as Record<string, unknown>,
    result: parseJson<R>(r.result), error: parseJson<DesignError>(r.error), createdAt: r.created_at, updatedAt: r.updated_at,
  };
}

export class SqliteDesigns implements DesignRepo {
  private readonly insert;
  private readonly byId;
  private readonly anyById;
  constructor(private readonly ctx: SqliteContext, private readonly jobs: SqliteJobs) {
    this.insert = ctx.db.prepare(`INSERT INTO designs (id, account_id, status, name, source_blob_key, source_size, source_sha256,
        options, result, error, created_at, updated_at)
      VALUES (@id, @accountId, 'queued', @name, @key, @size, @sha256, @options, NULL, NULL, @now, @now) RETURNING *`);
    this.byId = ctx.db.prepare('SELECT * FROM designs WHERE id = ? AND account_id = ?');
    this.anyById = ctx.db.prepare('SELECT 1 FROM designs WHERE id = ?');
  }

  async create<R = unknown>(accountId: string, input: NewDesign): Promise<DesignRecord<R>> {
    const d = checkNewDesign(input);
    const now = this.ctx.now();
    const id = d.id ?? newId('des', now);
    const job = d.job ? checkNewJob({ ...d.job, resourceId: id, accountId }) : null;
    const write = this.ctx.db.transaction(() => {
      const row = this.insert.get({
        id, accountId, name: d.name, key: d.sourceBlobKey, size: d.sourceSize, sha256: d.sourceSha256,
        options: toJson(d.options, 'options'), now: now.toISOString(),
      }) as DesignRow;
      if (job) this.jobs.enqueueSync(job);
      return row;
    });
    try {
      return toDesign<R>(await this.ctx.write(() => write.immediate()));
    } catch (err) {
      if (isUniqueViolation(err)) throw new StoreError('duplicate', `design id ${id} is taken`, 'id');
      if (isForeignKeyViolation(err)) throw new StoreError('invalid_argument', `account ${accountId} does not exist`, 'accountId');
      throw err;
    }
  }

  async exists(designId: string): Promise<boolean> {
    return this.anyById.get(String(designId)) !== undefined;
  }

  async get<R = unknown>(accountId: string, designId: string): Promise<DesignRecord<R> | null> {
    const row = this.byId.get(String(designId), String(accountId)) as DesignRow | undefined;
    return row ? toDesign<R>(row) : null;
  }

  async transition<R = unknown>(accountId: string, designId: string, from: DesignStatus | DesignStatus[], change: DesignTransition<R>): Promise<DesignRecord<R> | null> {
    const fromList = checkDesignStatuses(from);
    checkDesignStatuses(change?.status, 'status');
    checkDesignError(change.error);
    const sets = ['status = @status', 'updated_at = @now'];
    const params: Record<string, unknown> = { id: String(designId), accountId: String(accountId), status: change.status, now: this.ctx.now().toISOString(), from: JSON.stringify(fromList) };
    if (change.result !== undefined) { sets.push('result = @result'); params.result = change.result === null ? null : toJson(change.result, 'result'); }
    if (change.error !== undefined) { sets.push('error = @error'); params.error = change.error === null ? null : JSON.stringify({ code: change.error.code, message: change.error.message }); }
    const events = checkOutboxEventList(change.events);
    const update = this.ctx.db.prepare(`UPDATE designs SET ${sets.join(', ')}
      WHERE id = @id AND account_id = @accountId AND status IN (SELECT value FROM json_each(@from)) RETURNING *`);
    const row = await this.ctx.write(() => {
      const row = update.get(params) as DesignRow | undefined;
      if (row) appendEvents(this.ctx.db, { source: outboxSource(null), accountId: String(accountId), id: String(designId) }, events, params.now as string);
      return row;
    });
    return row ? toDesign<R>(row) : null;
  }

  async list<R = unknown>(accountId: string, opts: ListOptions & { status?: DesignStatus } = {}): Promise<Page<DesignRecord<R>>> {
    const list = resolveList(opts);
    const scope = `designs:${opts.status ?? '*'}`;
    const ks = keyset(scope, list);
    const params: unknown[] = [String(accountId)];
    let statusClause = '';
    if (opts.status !== undefined) { checkDesignStatuses(opts.status, 'status'); statusClause = 'AND status = ?'; params.push(opts.status); }
    const rows = this.ctx.db.prepare(`SELECT * FROM designs WHERE account_id = ? ${statusClause} ${ks.where} ${ks.orderBy} LIMIT ?`)
      .all(...params, ...ks.params, list.limit + 1) as DesignRow[];
    return toPage(scope, list, rows, (r) => toDesign<R>(r));
  }
}
