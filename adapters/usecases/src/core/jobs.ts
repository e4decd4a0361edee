// Job workers: each service process runs one JobWorker that claims jobs from the shared store queue
// (atomic claim + lease: every job runs in exactly one process at a time), keeps the lease alive
// while the job runs, and records the outcome. A process that dies leaves its jobs to be reclaimed
// when their leases end.
import { randomBytes } from 'node:crypto';
import type { Job } from '@kerf/store';
import { EngineError } from '@kerf/engine';
import type { UseCaseContext } from './context.ts';
import { UseCaseError } from './errors.ts';
import { Poller } from './poller.ts';

export type JobHandler = (ctx: UseCaseContext, job: Job) => Promise<void>;

/**
 * Thrown by a job handler to be run again after `delayMs` (its own back-off schedule), while the
 * queue has attempts left; once they run out the job fails and its handler's `failed` is called.
 */
export class RetryJobLater extends Error {
  constructor(readonly error: FinalFailure, readonly delayMs: number) {
    super(error.message);
    this.name = 'RetryJobLater';
  }
}

/** The outcome is final (bad input, not a crash): record it on the resource, never retry. */
export interface FinalFailure { code: string; message: string }

export interface JobKindHandlers {
  run: JobHandler;
  /** Called once a job has failed for good, to mark its resource failed. */
  failed(ctx: UseCaseContext, job: Job, error: FinalFailure): Promise<void>;
  /** What the resource says when every run of its job died (default: the analysis crashed). */
  crashed?: string;
  /**
   * A job the service queues for itself (reconciling a charge), not one a customer's request asked
   * for: never refused, and run in a lane of its own (JobWorkerOptions.systemConcurrency) so that
   * neither kind of work can take the other's slots.
   */
  system?: boolean;
}

export interface JobWorkerOptions {
  workerId?: string;
  /** Lease per claim; renewed every third of it while the job runs. */
  leaseMs?: number;
  /** Customer jobs (every kind not marked `system`) run at once in this process. */
  concurrency?: number;
  /**
   * Customer jobs one account may run at once in this process; default concurrency - 1 (at least 1),
   * so one account's heavy jobs never hold every slot and another account's job starts at once.
   */
  maxPerAccount?: number;
  /** System jobs run at once in this process, beside the customer ones; default 1. */
  systemConcurrency?: number;
  /** Idle poll interval: how soon work enqueued by another process is noticed. */
  pollMs?: number;
}

const DEFAULT_LEASE_MS = 30_000;
const DEFAULT_POLL_MS = 250;
/**
 * A job that meets a full engine queue waits this long (ms, times a random 1..2 so deferred jobs do
 * not all come back at once) and keeps its attempts: a busy engine says nothing about the job.
 */
const ENGINE_BUSY_RETRY_MS = 1000;

/** The engine (or a queue in front of it) had no room: run the job again later. */
function engineBusy(err: unknown): boolean {
  return (err instanceof EngineError || err instanceof UseCaseError) && err.code === 'queue_full';
}

export class JobWorker {
  readonly workerId: string;
  private readonly leaseMs: number;
  private readonly poller: Poller;
  /** Customer and system jobs claim from lanes of their own: what each may run, what it runs. */
  private readonly lanes: Array<{ kinds: string[]; slots: number; running: Set<Promise<void>>; perAccount: number; byAccount: Map<string, number> }>;
  private current = new Map<string, Job>();
  private released = new Set<string>();

  constructor(private readonly ctx: UseCaseContext, private readonly handlers: Record<string, JobKindHandlers>, opts: JobWorkerOptions = {}) {
    this.workerId = opts.workerId ?? `wrk_${process.pid}_${randomBytes(4).toString('hex')}`;
    this.leaseMs = opts.leaseMs ?? DEFAULT_LEASE_MS;
    const kinds = (system: boolean) => Object.keys(handlers).filter((k) => !!handlers[k].system === system);
    const slots = Math.max(1, opts.concurrency ?? 1);
    const systemSlots = Math.max(1, opts.systemConcurrency ?? 1);
    this.lanes = [
      { kinds: kinds(false), slots, running: new Set<Promise<void>>(), perAccount: Math.max(1, Math.min(slots, opts.maxPerAccount ?? slots - 1)), byAccount: new Map<string, number>() },
      // the service's own work: no account to keep apart
      { kinds: kinds(true), slots: systemSlots, running: new Set<Promise<void>>(), perAccount: systemSlots, byAccount: new Map<string, number>() },
    ].filter((lane) => lane.kinds.length > 0);
    this.poller = new Poller(() => this.claimJobs(), opts.pollMs ?? DEFAULT_POLL_MS, (err) => this.ctx.log.error({ err }, 'job claim failed'));
  }

  start(): void {
    this.poller.start();
  }

  /** Look for work now (after an enqueue in this process). */
  wake(): void {
    this.poller.wake();
  }

  /** Stops claiming, then waits up to `graceMs` for running jobs; unfinished ones are released. */
  async stop(graceMs = 10_000): Promise<void> {
    // a claim under way finishes first, so its job is among those waited for; a store that hangs
    // on it gets the same grace as running jobs, and shutdown goes on
    const graceOver = new Promise((r) => setTimeout(r, graceMs).unref());
    await Promise.race([this.poller.stop(), graceOver]);
    const running = this.lanes.flatMap((lane) => [...lane.running]);
    if (running.length === 0) return;
    await Promise.race([Promise.allSettled(running), graceOver]);
    // Jobs still running are handed back to the queue now rather than when their lease runs out.
    for (const job of this.current.values()) {
      this.released.add(job.id);
      await this.ctx.store.jobs.defer(job.id, this.workerId, 0).catch(() => false);
      this.ctx.log.warn({ job_id: job.id, kind: job.kind }, 'job released at shutdown');
    }
  }

  /** Claims jobs while a lane has room; a claim that fails ends the pass (logged by the poller). */
  private async claimJobs(): Promise<void> {
    for (const lane of this.lanes) {
      while (this.poller.started && lane.running.size < lane.slots) {
        // an account running its share of the lane waits for one of its own jobs to end
        const full = [...lane.byAccount].filter(([, n]) => n >= lane.perAccount).map(([account]) => account);
        const job = await this.ctx.store.jobs.claim(this.workerId, this.leaseMs, { kinds: lane.kinds, excludeAccounts: full });
        if (!job) break;
        lane.byAccount.set(job.accountId, (lane.byAccount.get(job.accountId) ?? 0) + 1);
        const p = this.execute(job).finally(() => {
          const n = (lane.byAccount.get(job.accountId) ?? 1) - 1;
          if (n > 0) lane.byAccount.set(job.accountId, n); else lane.byAccount.delete(job.accountId);
          lane.running.delete(p);
          this.wake();
        });
        lane.running.add(p);
      }
    }
  }

  private async execute(job: Job): Promise<void> {
    const handler = this.handlers[job.kind];
    const jobs = this.ctx.store.jobs;
    let lost = false;
    const renew = setInterval(() => {
      jobs.renewLease(job.id, this.workerId, this.leaseMs).then((ok) => { if (!ok) lost = true; }, () => {});
    }, Math.max(100, Math.floor(this.leaseMs / 3)));
    renew.unref();
    const log = { job_id: job.id, kind: job.kind, resource_id: job.resourceId, attempt: job.attempts };
    this.current.set(job.id, job);
    try {
      if (job.exhausted) {
        // Every earlier run died without reporting (e.g. the file crashes the engine): running it
        // again would only crash again, so the resource is failed for good (store README, `exhausted`).
        this.ctx.log.error(log, 'job exhausted: every run died; not run again');
        const what = handler.crashed ?? 'The analysis';
        const error = { code: 'analysis_failed', message: `${what} crashed repeatedly (${job.attempts - 1} runs died before finishing); it will not be retried. The file may be too large or complex.` };
        await handler.failed(this.ctx, job, error);
        await jobs.fail(job.id, this.workerId, error, { retry: false });
        return;
      }
      this.ctx.log.info(log, 'job started');
      // what the job queues (a file quote's production files) was admitted with its request
      await handler.run({ ...this.ctx, admitted: true }, job);
      if (!(await jobs.complete(job.id, this.workerId))) this.ctx.log.warn(log, 'job finished after its lease was lost');
      else this.ctx.log.info(log, 'job done');
    } catch (err) {
      if (lost || this.released.has(job.id)) { this.ctx.log.warn(log, 'job failed after its lease was lost or released'); return; }
      if (engineBusy(err)) {
        const delayMs = Math.round(ENGINE_BUSY_RETRY_MS * (1 + Math.random()));
        this.ctx.log.warn({ ...log, retry_in_ms: delayMs }, 'engine busy: job deferred, its attempts kept');
        await jobs.defer(job.id, this.workerId, delayMs).catch((e: unknown) => this.ctx.log.error({ ...log, err: e }, 'deferring a job failed'));
        return;
      }
      if (err instanceof RetryJobLater) {
        this.ctx.log.info({ ...log, code: err.error.code, retry_in_ms: err.delayMs }, 'job will run again');
        try {
          const after = await jobs.fail(job.id, this.workerId, err.error, { retry: true, retryDelayMs: err.delayMs });
          if (after && after.status === 'failed') await handler.failed(this.ctx, job, err.error);
        } catch (e) {
          this.ctx.log.error({ ...log, err: e }, 'recording a job failure failed');
        }
        return;
      }
      // The engine's verdict on a file is final, and so is a request the use case refused (a file
      // quote's configuration that does not fit the design); an engine that is merely busy is not.
      const final = err instanceof EngineError || (err instanceof UseCaseError && err.kind === 'invalid');
      const error = final
        ? { code: (err as EngineError | UseCaseError).code, message: (err as Error).message }
        : { code: 'internal_error', message: (err as Error)?.message ?? String(err) };
      this.ctx.log[final ? 'info' : 'error']({ ...log, err }, 'job failed');
      try {
        const after = await jobs.fail(job.id, this.workerId, error, { retry: !final, retryDelayMs: 1000 });
        if (after && after.status === 'failed') await handler.failed(this.ctx, job, final ? error : { code: 'analysis_failed', message: 'The analysis failed repeatedly; the file may be too complex.' });
      } catch (e) {
        this.ctx.log.error({ ...log, err: e }, 'recording a job failure failed');
      }
    } finally {
      clearInterval(renew);
      this.current.delete(job.id);
    }
  }
}
