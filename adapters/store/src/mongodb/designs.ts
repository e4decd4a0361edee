import type { ClientSession, Collection, Document } from 'mongodb';
import { newId } from '@kerf/common';
import { checkDesignError, checkDesignStatuses, checkNewDesign, checkNewJob } from '../common/records.ts';
import { resolveList } from '../common/validate.ts';
import {
  StoreError, type DesignRecord, type DesignRepo, type DesignStatus, type DesignTransition, type ListOptions, type NewDesign, type Page,
} from '../port.ts';
import { isDuplicateKey, keysetFilter, keysetSort, maybeTransaction, plainJson, toPage, type MongoContext } from './context.ts';
import { COLLECTIONS } from './indexes.ts';
import { eventsToRecord } from './audience.ts';
import type { MongoJobs } from './jobs.ts';

/**
 * Without transactions (and always for a limited job: see jobs.ts insertInSlot), a design's job is
 * inserted first but held back this long, then released once the design exists. A crash in between leaves either a held job that finds no design (and
 * is completed as a no-op) or a design whose job runs after the hold: never a design without a job.
 */
const JOB_HOLD_MS = 60 * 1000;

function toDesign<R>(d: Document): DesignRecord<R> {
  return {
    id: d._id, accountId: d.accountId, status: d.status, name: d.name, sourceBlobKey: d.sourceBlobKey, sourceSize: d.sourceSize,
    sourceSha256: d.sourceSha256, options: d.options ?? {}, result: (d.result ?? null) as R | null, error: d.error ?? null,
    createdAt: (d.createdAt as Date).toISOString(), updatedAt: (d.updatedAt as Date).toISOString(),
  };
}

export class MongoDesigns implements DesignRepo {
  private readonly col: Collection<Document>;
  private readonly accounts: Collection<Document>;
  constructor(private readonly ctx: MongoContext, private readonly jobs: MongoJobs) {
    this.col = ctx.db.collection(COLLECTIONS.designs);
    this.accounts = ctx.db.collection(COLLECTIONS.accounts);
  }

  async create<R = unknown>(accountId: string, input: NewDesign): Promise<DesignRecord<R>> {
    const d = checkNewDesign(input);
    if (!(await this.accounts.findOne({ _id: String(accountId) } as Document, { projection: { _id: 1 } }))) {
      throw new StoreError('invalid_argument', `account ${accountId} does not exist`, 'accountId');
    }
    const now = this.ctx.now();
    const id = d.id ?? newId('des', now);
    if (d.id !== undefined && (await this.col.findOne({ _id: id } as Document, { projection: { _id: 1 } }))) {
      throw new StoreError('duplicate', `design id ${id} is taken`, 'id');
    }
    const doc = {
      _id: id, accountId: String(accountId), status: 'queued', name: d.name, sourceBlobKey: d.sourceBlobKey, sourceSize: d.sourceSize,
      sourceSha256: d.sourceSha256, options: plainJson(d.options, 'options'), result: null, error: null, createdAt: now, updatedAt: now,
    };
    const job = d.job ? checkNewJob({ ...d.job, resourceId: id, accountId }) : null;
    const insertDesign = async (session?: ClientSession) => {
      try {
        await this.col.insertOne(doc as Document, { session });
      } catch (err) {
        if (isDuplicateKey(err)) throw new StoreError('duplicate', `design id ${id} is taken`, 'id');
        throw err;
      }
    };
    if (!job) {
      await insertDesign();
    } else if (this.ctx.transactions && !job.limit) {
      await maybeTransaction(this.ctx, async (session) => {
        await insertDesign(session);
        await this.jobs.enqueueChecked(job, session);
      });
    } else {
      const held = await this.jobs.enqueueChecked({ ...job, delayMs: Math.max(job.delayMs, JOB_HOLD_MS) });
      try {
        await insertDesign();
      } catch (err) {
        if (held.created) await this.jobs.col.deleteOne({ _id: held.job.id, status: 'queued' } as Document);
        throw err;
      }
      if (held.created) {
        await this.jobs.col.updateOne({ _id: held.job.id, status: 'queued' } as Document, { $set: { runAfter: new Date(now.getTime() + job.delayMs) } });
      }
    }
    return toDesign<R>(doc);
  }

  async exists(designId: string): Promise<boolean> {
    return (await this.col.countDocuments({ _id: String(designId) } as Document, { limit: 1 })) > 0;
  }

  async get<R = unknown>(accountId: string, designId: string): Promise<DesignRecord<R> | null> {
    const d = await this.col.findOne({ _id: String(designId), accountId: String(accountId) } as Document);
    return d ? toDesign<R>(d) : null;
  }

  async transition<R = unknown>(accountId: string, designId: string, from: DesignStatus | DesignStatus[], change: DesignTransition<R>): Promise<DesignRecord<R> | null> {
    const fromList = checkDesignStatuses(from);
    checkDesignStatuses(change?.status, 'status');
    checkDesignError(change.error);
    const set: Document = { status: change.status, updatedAt: this.ctx.now() };
    if (change.result !== undefined) set.result = change.result === null ? null : plainJson(change.result, 'result');
    if (change.error !== undefined) set.error = change.error === null ? null : { code: change.error.code, message: change.error.message };
    const events = await eventsToRecord(this.ctx, accountId, change.events);
    const d = await this.col.findOneAndUpdate(
      { _id: String(designId), accountId: String(accountId), status: { $in: fromList } } as Document,
      events.length ? { $set: set, $push: { outbox: { $each: events } } } as Document : { $set: set },
      { returnDocument: 'after' },
    );
    if (d && events.length) this.ctx.recorded.emit();
    return d ? toDesign<R>(d) : null;
  }

  async list<R = unknown>(accountId: string, opts: ListOptions & { status?: DesignStatus } = {}): Promise<Page<DesignRecord<R>>> {
    const list = resolveList(opts);
    const scope = `designs:${opts.status ?? '*'}`;
    const filter: Document = { accountId: String(accountId), ...keysetFilter(scope, list, '_id') };
    if (opts.status !== undefined) { checkDesignStatuses(opts.status, 'status'); filter.status = opts.status; }
    const docs = await this.col.find(filter).sort(keysetSort(list, '_id')).limit(list.limit + 1).toArray();
    return toPage(scope, list, docs, (x) => toDesign<R>(x));
  }
}
