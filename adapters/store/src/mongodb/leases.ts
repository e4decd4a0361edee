// Leases on MongoDB: a document per lease name ({_id: name, holder, until}). A renewal or a take-over
// of an ended lease is one conditional update; a lease never taken is inserted, and two processes
// inserting at once meet on _id: the loser does not hold it.
import { checkLease } from '../common/leases.ts';
import type { Leases } from '../port.ts';
import { isDuplicateKey, type MongoContext } from './context.ts';
import { COLLECTIONS } from './indexes.ts';

interface LeaseDoc { _id: string; holder: string; until: Date }

export class MongoLeases implements Leases {
  constructor(private readonly ctx: MongoContext) {}

  async acquire(name: string, holder: string, ttlMs: number): Promise<boolean> {
    const lease = checkLease(name, holder, ttlMs);
    const coll = this.ctx.db.collection<LeaseDoc>(COLLECTIONS.leases);
    const now = this.ctx.now();
    const until = new Date(now.getTime() + lease.ttlMs);
    const taken = await coll.updateOne({ _id: lease.name, $or: [{ holder: lease.holder }, { until: { $lte: now } }] }, { $set: { holder: lease.holder, until } });
    if (taken.matchedCount > 0) return true;
    try {
      await coll.insertOne({ _id: lease.name, holder: lease.holder, until });
      return true;
    } catch (err) {
      if (isDuplicateKey(err)) return false; // held by another
      throw err;
    }
  }

  async release(name: string, holder: string): Promise<boolean> {
    const lease = checkLease(name, holder);
    const done = await this.ctx.db.collection<LeaseDoc>(COLLECTIONS.leases).deleteOne({ _id: lease.name, holder: lease.holder });
    return done.deletedCount > 0;
  }
}
