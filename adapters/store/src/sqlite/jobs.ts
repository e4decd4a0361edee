import { newId } from '@kerf/common';
import { checkDesignError, checkKinds, checkNewJob, limitReached, type CheckedJob } from '../common/records.ts';
import { checkNonEmpty, checkPositiveMs } from '../common/validate.ts';
import type { DesignError, Job, JobQueue, JobStatus, NewJob } from '../port.ts';
import { parseJson, toJson, type SqliteContext } from './context.ts';

interface JobRow {
  id: string;
  kind: string;
  resource_id: string;
  account_id: string;
  payload: string;
  status: JobStatus;
  attempts: number;
  max_attempts: number;
  worker_id: string | null;
  lease_until: string | null;
  run_after: string;
  last_error: string | null;
  created_at: string;
  updated_at: string;
}

function toJob<P>(r: JobRow): Job<P> {
  return {
    id: r.id, kind: r.kind, resourceId: r.resource_id, accountId: r.account_id,
    payload: JSON.parse(r.payload) as P, status: r.status, attempts: r.attempts, maxAttempts: r.max_attempts,
    workerId: r.worker_id, leaseUntil: r.lease_until, runAfter: r.run_after,
    lastError: parseJson<DesignError>(r.last_error), exhausted: r.attempts > r.max_attempts,
    createdAt: r.created_at, updatedAt: r.updated_at,
  };
}

export const LEASE_EXPIRED: DesignError = { code: 'lease_expired', message: 'every run of this job died before reporting a result' };

export class SqliteJobs implements JobQueue {
  private readonly insert;
  private readonly active;
  private readonly next;
  private readonly take;
  private readonly activeCount;
  private readonly renew;
  private readonly done;
  private readonly running;
  private readonly requeue;
  private readonly putBack;
  private readonly dead;
  private readonly bury;
  private readonly byId;
  private readonly byResource;
  private readonly claimTx;
  private readonly failTx;

  constructor(private readonly ctx: SqliteContext) {
    const { db } = ctx;
    this.insert = db.prepare(`INSERT INTO jobs (id, kind, resource_id, account_id, payload, status, attempts, max_attempts,
        run_after, created_at, updated_at)
      VALUES (@id, @kind, @resourceId, @accountId, @payload, 'queued', 0, @maxAttempts, @runAfter, @now, @now)
      ON CONFLICT (kind, resource_id) WHERE status IN ('queued', 'running') DO NOTHING RETURNING *`);
    this.active = db.prepare(`SELECT * FROM jobs WHERE kind = ? AND resource_id = ? AND status IN ('queued', 'running')`);
    // Fair across accounts: the account with the fewest jobs of these kinds running goes first, then
    // the one whose last claim is oldest (round-robin), then its oldest job.
    this.next = db.prepare(`SELECT j.id FROM jobs j
      WHERE ((j.status = 'queued' AND j.run_after <= @now) OR (j.status = 'running' AND j.lease_until <= @now AND j.attempts <= j.max_attempts))
        AND (@kinds IS NULL OR j.kind IN (SELECT value FROM json_each(@kinds)))
        AND (@exclude IS NULL OR j.account_id NOT IN (SELECT value FROM json_each(@exclude)))
      ORDER BY
        (SELECT COUNT(*) FROM jobs r WHERE r.account_id = j.account_id AND r.status = 'running' AND r.lease_until > @now
          AND (@kinds IS NULL OR r.kind IN (SELECT value FROM json_each(@kinds)))),
        (SELECT MAX(c.claimed_at) FROM jobs c WHERE c.account_id = j.account_id AND c.claimed_at IS NOT NULL
          AND (@kinds IS NULL OR c.kind IN (SELECT value FROM json_each(@kinds)))),
        j.created_at, j.id
      LIMIT 1`);
    this.take = db.prepare(`UPDATE jobs SET status = 'running', worker_id = @workerId, lease_until = @leaseUntil,
        attempts = attempts + 1, claimed_at = @now, updated_at = @now WHERE id = @id RETURNING *`);
    this.activeCount = db.prepare(`SELECT COUNT(*) AS n FROM jobs WHERE account_id = @accountId AND status IN ('queued', 'running')
        AND (@kinds IS NULL OR kind IN (SELECT value FROM json_each(@kinds)))`);
    this.renew = db.prepare(`UPDATE jobs SET lease_until = @leaseUntil, updated_at = @now
      WHERE id = @id AND worker_id = @workerId AND status = 'running'`);
    this.done = db.prepare(`UPDATE jobs SET status = 'done', lease_until = NULL, updated_at = @now
      WHERE id = @id AND worker_id = @workerId AND status = 'running'`);
    this.running = db.prepare(`SELECT * FROM jobs WHERE id = ? AND worker_id = ? AND status = 'running'`);
    this.requeue = db.prepare(`UPDATE jobs SET status = 'queued', worker_id = NULL, lease_until = NULL, run_after = @runAfter,
        last_error = @error, updated_at = @now WHERE id = @id RETURNING *`);
    this.putBack = db.prepare(`UPDATE jobs SET status = 'queued', worker_id = NULL, lease_until = NULL, run_after = @runAfter,
        attempts = MAX(attempts - 1, 0), updated_at = @now WHERE id = @id AND worker_id = @workerId AND status = 'running'`);
    this.dead = db.prepare(`UPDATE jobs SET status = 'failed', lease_until = NULL, last_error = @error, updated_at = @now
      WHERE id = @id RETURNING *`);
    this.bury = db.prepare(`UPDATE jobs SET status = 'failed', lease_until = NULL, last_error = @error, updated_at = @now
      WHERE status = 'running' AND lease_until <= @now AND attempts > max_attempts`);
    this.byId = db.prepare('SELECT * FROM jobs WHERE id = ?');
    this.byResource = db.prepare('SELECT * FROM jobs WHERE resource_id = ? ORDER BY created_at, id');

    // IMMEDIATE takes the write lock before reading, so two processes never pick the same row.
    this.claimTx = db.transaction((workerId: string, leaseMs: number, kinds: string[] | null, exclude: string[] | null): JobRow | null => {
      const now = this.ctx.now();
      const nowIso = now.toISOString();
      // Its exhausted run died too: stop, rather than crash workers forever.
      this.bury.run({ now: nowIso, error: JSON.stringify(LEASE_EXPIRED) });
      const row = this.next.get({ now: nowIso, kinds: kinds === null ? null : JSON.stringify(kinds), exclude: exclude === null ? null : JSON.stringify(exclude) }) as { id: string } | undefined;
      if (!row) return null;
      return this.take.get({ id: row.id, workerId, leaseUntil: new Date(now.getTime() + leaseMs).toISOString(), now: nowIso }) as JobRow;
    });
    this.failTx = db.transaction((jobId: string, workerId: string, error: DesignError, retry: boolean, retryDelayMs: number): JobRow | null => {
      const row = this.running.get(jobId, workerId) as JobRow | undefined;
      if (!row) return null;
      const now = this.ctx.now();
      const params = { id: jobId, error: JSON.stringify(error), now: now.toISOString() };
      if (retry && row.attempts < row.max_attempts) {
        return this.requeue.get({ ...params, runAfter: new Date(now.getTime() + retryDelayMs).toISOString() }) as JobRow;
      }
      return this.dead.get(params) as JobRow;
    });
  }

  /** Synchronous, for use inside another transaction (design + job written together). */
  /** Inside the caller's immediate transaction: the single writer makes the limit's count and the insert one step. */
  enqueueSync<P>(job: CheckedJob): Job<P> {
    const now = this.ctx.now();
    if (job.limit) {
      const existing = this.active.get(job.kind, job.resourceId) as JobRow | undefined;
      if (existing) return toJob<P>(existing);
      const { n } = this.activeCount.get({ accountId: job.accountId, kinds: JSON.stringify(job.limit.kinds) }) as { n: number };
      if (n >= job.limit.max) throw limitReached(job.limit);
    }
    const inserted = this.insert.get({
      id: newId('job', now), kind: job.kind, resourceId: job.resourceId, accountId: job.accountId,
      payload: toJson(job.payload, 'payload'), maxAttempts: job.maxAttempts,
      runAfter: new Date(now.getTime() + job.delayMs).toISOString(), now: now.toISOString(),
    }) as JobRow | undefined;
    return toJob<P>(inserted ?? (this.active.get(job.kind, job.resourceId) as JobRow));
  }

  async enqueue<P = unknown>(job: NewJob<P>): Promise<Job<P>> {
    const checked = checkNewJob(job);
    return this.ctx.write(() => this.ctx.db.transaction(() => this.enqueueSync<P>(checked)).immediate());
  }

  async claim<P = unknown>(workerId: string, leaseMs: number, opts: { kinds?: string[]; excludeAccounts?: string[] } = {}): Promise<Job<P> | null> {
    checkNonEmpty(workerId, 'workerId', 200);
    checkPositiveMs(leaseMs, 'leaseMs');
    const kinds = checkKinds(opts.kinds);
    const exclude = opts.excludeAccounts?.length ? checkKinds(opts.excludeAccounts) : null;
    const row = await this.ctx.write(() => this.claimTx.immediate(workerId, leaseMs, kinds, exclude));
    return row ? toJob<P>(row) : null;
  }

  async countActive(accountId: string, opts: { kinds?: string[] } = {}): Promise<number> {
    const kinds = checkKinds(opts.kinds);
    return (this.activeCount.get({ accountId: String(accountId), kinds: kinds === null ? null : JSON.stringify(kinds) }) as { n: number }).n;
  }

  async renewLease(jobId: string, workerId: string, leaseMs: number): Promise<boolean> {
    checkPositiveMs(leaseMs, 'leaseMs');
    const now = this.ctx.now();
    const params = { id: String(jobId), workerId: String(workerId), leaseUntil: new Date(now.getTime() + leaseMs).toISOString(), now: now.toISOString() };
    return (await this.ctx.write(() => this.renew.run(params))).changes === 1;
  }

  async complete(jobId: string, workerId: string): Promise<boolean> {
    const params = { id: String(jobId), workerId: String(workerId), now: this.ctx.now().toISOString() };
    return (await this.ctx.write(() => this.done.run(params))).changes === 1;
  }

  async fail(jobId: string, workerId: string, error: DesignError, opts: { retry?: boolean; retryDelayMs?: number } = {}): Promise<Job | null> {
    checkDesignError(error);
    const delay = opts.retryDelayMs ?? 0;
    if (!Number.isFinite(delay) || delay < 0) checkPositiveMs(delay, 'retryDelayMs');
    const row = await this.ctx.write(() => this.failTx.immediate(String(jobId), String(workerId), { code: error.code, message: error.message }, opts.retry !== false, delay));
    return row ? toJob(row) : null;
  }

  async defer(jobId: string, workerId: string, delayMs: number): Promise<boolean> {
    if (!Number.isFinite(delayMs) || delayMs < 0) checkPositiveMs(delayMs, 'delayMs');
    const now = this.ctx.now();
    const params = { id: String(jobId), workerId: String(workerId), runAfter: new Date(now.getTime() + delayMs).toISOString(), now: now.toISOString() };
    return (await this.ctx.write(() => this.putBack.run(params))).changes === 1;
  }

  async get<P = unknown>(jobId: string): Promise<Job<P> | null> {
    const row = this.byId.get(String(jobId)) as JobRow | undefined;
    return row ? toJob<P>(row) : null;
  }

  async listForResource(resourceId: string): Promise<Job[]> {
    return (this.byResource.all(String(resourceId)) as JobRow[]).map((r) => toJob(r));
  }
}
