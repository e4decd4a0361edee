// The job queue on MongoDB: every state change is one findOneAndUpdate/updateOne guarded by the
// state it expects, so a job is handed to exactly one worker without transactions.
import type { ClientSession, Collection, Document } from 'mongodb';
import { newId } from '@kerf/common';
import { checkDesignError, checkKinds, checkNewJob, limitReached, type CheckedJob } from '../common/records.ts';
import { checkNonEmpty, checkPositiveMs } from '../common/validate.ts';
import type { DesignError, Job, JobLimit, JobQueue, NewJob } from '../port.ts';
import { duplicateKeyFields, isDuplicateKey, isoOrNull, plainJson, type MongoContext } from './context.ts';
import { COLLECTIONS } from './indexes.ts';

function toJob<P>(d: Document): Job<P> {
  return {
    id: d._id, kind: d.kind, resourceId: d.resourceId, accountId: d.accountId, payload: d.payload as P,
    status: d.status, attempts: d.attempts, maxAttempts: d.maxAttempts, workerId: d.workerId ?? null,
    leaseUntil: isoOrNull(d.leaseUntil), runAfter: (d.runAfter as Date).toISOString(), lastError: d.lastError ?? null,
    exhausted: d.attempts > d.maxAttempts, createdAt: (d.createdAt as Date).toISOString(), updatedAt: (d.updatedAt as Date).toISOString(),
  };
}

const LEASE_EXPIRED: DesignError = { code: 'lease_expired', message: 'every run of this job died before reporting a result' };

/** Retries of an enqueue that raced with another enqueue finishing the same active job. */
const ENQUEUE_RACE_RETRIES = 3;

export class MongoJobs implements JobQueue {
  readonly col: Collection<Document>;
  constructor(private readonly ctx: MongoContext) {
    this.col = ctx.db.collection(COLLECTIONS.jobs);
  }

  /** Inserts the job, or returns the active one for (kind, resourceId). `created` tells which. */
  async enqueueChecked<P>(job: CheckedJob, session?: ClientSession): Promise<{ job: Job<P>; created: boolean }> {
    for (let i = 0; i < ENQUEUE_RACE_RETRIES; i++) {
      const now = this.ctx.now();
      const doc: Document = {
        _id: newId('job', now), kind: job.kind, resourceId: job.resourceId, accountId: job.accountId,
        payload: plainJson(job.payload, 'payload'), status: 'queued', active: true, attempts: 0, maxAttempts: job.maxAttempts,
        workerId: null, leaseUntil: null, runAfter: new Date(now.getTime() + job.delayMs), lastError: null, createdAt: now, updatedAt: now,
      };
      // a duplicate key aborts a transaction, so a limited job is never inserted in one (designs.ts holds it first instead)
      const inserted = job.limit ? await this.insertInSlot(doc, job.limit) : await this.insertOrDuplicate(doc, session);
      if (inserted) return { job: toJob<P>(doc), created: true };
      const existing = await this.col.findOne({ kind: job.kind, resourceId: job.resourceId, active: true }, { session });
      if (existing) return { job: toJob<P>(existing), created: false };
      // The active job finished between our insert and our read: try again.
    }
    throw new Error(`enqueue of ${job.kind} ${job.resourceId} kept racing`);
  }

  /** false when the job's (kind, resource) already has an active job. */
  private async insertOrDuplicate(doc: Document, session?: ClientSession): Promise<boolean> {
    try {
      await this.col.insertOne(doc, { session });
      return true;
    } catch (err) {
      if (!isDuplicateKey(err)) throw err;
      return false;
    }
  }

  /**
   * A limited job takes one of the account's `max` admission slots: the partial unique index
   * `admission_slot` (indexes.ts) holds each (account, slot) for one active job at a time, so the
   * limit holds across processes without transactions, and a slot frees itself when its job stops
   * being active. false when the job's (kind, resource) already has an active job.
   */
  private async insertInSlot(doc: Document, limit: JobLimit): Promise<boolean> {
    if (await this.col.findOne({ kind: doc.kind, resourceId: doc.resourceId, active: true })) return false;
    const taken = new Set((await this.col.find({ accountId: doc.accountId, active: true, admissionSlot: { $exists: true } }, { projection: { admissionSlot: 1 } }).toArray()).map((d) => d.admissionSlot as number));
    // the lowest free slots in turn; one taken meanwhile by another process is a duplicate key, and the next is tried
    for (let slot = 0; slot < limit.max; slot++) {
      if (taken.has(slot)) continue;
      try {
        await this.col.insertOne({ ...doc, admissionSlot: slot });
        return true;
      } catch (err) {
        if (!isDuplicateKey(err)) throw err;
        if (!duplicateKeyFields(err).includes('admissionSlot')) return false;
      }
    }
    throw limitReached(limit);
  }

  async enqueue<P = unknown>(job: NewJob<P>): Promise<Job<P>> {
    return (await this.enqueueChecked<P>(checkNewJob(job))).job;
  }

  async claim<P = unknown>(workerId: string, leaseMs: number, opts: { kinds?: string[]; excludeAccounts?: string[] } = {}): Promise<Job<P> | null> {
    checkNonEmpty(workerId, 'workerId', 200);
    checkPositiveMs(leaseMs, 'leaseMs');
    const kinds = checkKinds(opts.kinds);
    const exclude = opts.excludeAccounts?.length ? checkKinds(opts.excludeAccounts) : null;
    const now = this.ctx.now();
    // Its exhausted run died too: stop, rather than crash workers forever.
    await this.col.updateMany(
      { status: 'running', leaseUntil: { $lte: now }, $expr: { $gt: ['$attempts', '$maxAttempts'] } },
      { $set: { status: 'failed', active: false, leaseUntil: null, lastError: LEASE_EXPIRED, updatedAt: now } },
    );
    const filter: Document = {
      $or: [
        { status: 'queued', runAfter: { $lte: now } },
        { status: 'running', leaseUntil: { $lte: now }, $expr: { $lte: ['$attempts', '$maxAttempts'] } },
      ],
    };
    const ofKinds: Document = kinds === null ? {} : { kind: { $in: kinds } };
    Object.assign(filter, ofKinds);
    // excluded accounts are never ranked, so the per-account take below never names one
    if (exclude) filter.accountId = { $nin: exclude };
    // Fair across accounts (see JobQueue.claim): rank the accounts with claimable work, then take the
    // oldest job of the first whose job is still there (another worker may have taken it meanwhile).
    const waiting = (await this.col.aggregate([{ $match: filter }, { $group: { _id: '$accountId' } }]).toArray()).map((d) => String(d._id));
    if (waiting.length === 0) return null;
    const served = await this.col.aggregate([
      { $match: { accountId: { $in: waiting }, claimedAt: { $ne: null }, ...ofKinds } },
      { $group: { _id: '$accountId', last: { $max: '$claimedAt' }, running: { $sum: { $cond: [{ $and: [{ $eq: ['$status', 'running'] }, { $gt: ['$leaseUntil', now] }] }, 1, 0] } } } },
    ]).toArray();
    const rank = new Map(served.map((d) => [String(d._id), { running: Number(d.running), last: (d.last as Date).getTime() }]));
    const order = waiting.sort((a, b) => ((rank.get(a)?.running ?? 0) - (rank.get(b)?.running ?? 0)) || ((rank.get(a)?.last ?? 0) - (rank.get(b)?.last ?? 0)));
    for (const accountId of order) {
      const d = await this.col.findOneAndUpdate(
        { ...filter, accountId },
        { $set: { status: 'running', workerId, leaseUntil: new Date(now.getTime() + leaseMs), claimedAt: now, updatedAt: now }, $inc: { attempts: 1 } },
        { sort: { createdAt: 1, _id: 1 }, returnDocument: 'after' },
      );
      if (d) return toJob<P>(d);
    }
    return null;
  }

  async countActive(accountId: string, opts: { kinds?: string[] } = {}): Promise<number> {
    const kinds = checkKinds(opts.kinds);
    return this.col.countDocuments({ accountId: String(accountId), status: { $in: ['queued', 'running'] }, ...(kinds === null ? {} : { kind: { $in: kinds } }) });
  }

  async renewLease(jobId: string, workerId: string, leaseMs: number): Promise<boolean> {
    checkPositiveMs(leaseMs, 'leaseMs');
    const now = this.ctx.now();
    const r = await this.col.updateOne(
      { _id: String(jobId), workerId: String(workerId), status: 'running' } as Document,
      { $set: { leaseUntil: new Date(now.getTime() + leaseMs), updatedAt: now } },
    );
    return r.matchedCount === 1;
  }

  async complete(jobId: string, workerId: string): Promise<boolean> {
    const r = await this.col.updateOne(
      { _id: String(jobId), workerId: String(workerId), status: 'running' } as Document,
      { $set: { status: 'done', active: false, leaseUntil: null, updatedAt: this.ctx.now() } },
    );
    return r.matchedCount === 1;
  }

  async fail(jobId: string, workerId: string, error: DesignError, opts: { retry?: boolean; retryDelayMs?: number } = {}): Promise<Job | null> {
    checkDesignError(error);
    const delay = opts.retryDelayMs ?? 0;
    if (!Number.isFinite(delay) || delay < 0) checkPositiveMs(delay, 'retryDelayMs');
    const current = await this.col.findOne({ _id: String(jobId), workerId: String(workerId), status: 'running' } as Document);
    if (!current) return null;
    const now = this.ctx.now();
    const lastError = { code: error.code, message: error.message };
    const retry = opts.retry !== false && current.attempts < current.maxAttempts;
    const set: Document = retry
      ? { status: 'queued', workerId: null, leaseUntil: null, runAfter: new Date(now.getTime() + delay), lastError, updatedAt: now }
      : { status: 'failed', active: false, leaseUntil: null, lastError, updatedAt: now };
    // Guarded by the attempt count read above: if another worker reclaimed it meanwhile, no-op.
    const d = await this.col.findOneAndUpdate(
      { _id: String(jobId), workerId: String(workerId), status: 'running', attempts: current.attempts } as Document,
      { $set: set },
      { returnDocument: 'after' },
    );
    return d ? toJob(d) : null;
  }

  async defer(jobId: string, workerId: string, delayMs: number): Promise<boolean> {
    if (!Number.isFinite(delayMs) || delayMs < 0) checkPositiveMs(delayMs, 'delayMs');
    const now = this.ctx.now();
    const r = await this.col.updateOne(
      { _id: String(jobId), workerId: String(workerId), status: 'running', attempts: { $gt: 0 } } as Document,
      { $set: { status: 'queued', workerId: null, leaseUntil: null, runAfter: new Date(now.getTime() + delayMs), updatedAt: now }, $inc: { attempts: -1 } },
    );
    return r.matchedCount === 1;
  }

  async get<P = unknown>(jobId: string): Promise<Job<P> | null> {
    const d = await this.col.findOne({ _id: String(jobId) } as Document);
    return d ? toJob<P>(d) : null;
  }

  async listForResource(resourceId: string): Promise<Job[]> {
    const docs = await this.col.find({ resourceId: String(resourceId) }).sort({ createdAt: 1, _id: 1 }).toArray();
    return docs.map((d) => toJob(d));
  }
}
