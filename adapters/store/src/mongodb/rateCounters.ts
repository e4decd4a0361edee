// Rate-limit counts on MongoDB: one document per key ({_id: key, count, resetAt}), counted with an
// atomic $inc while its window lasts; the server's TTL monitor deletes ended windows (index in
// indexes.ts). No upsert: a window that ended is restarted in place, a missing one inserted, and
// two processes starting the same window at once meet on _id and the loser counts in the winner's.
import { checkNonEmpty, checkPositiveMs } from '../common/validate.ts';
import type { RateCount, RateCounters } from '../port.ts';
import { isDuplicateKey, type MongoContext } from './context.ts';
import { COLLECTIONS } from './indexes.ts';

interface CounterDoc { _id: string; count: number; resetAt: Date }

const MAX_KEY_CHARS = 200;

export class MongoRateCounters implements RateCounters {
  constructor(private readonly ctx: MongoContext) {}

  async hit(key: string, windowMs: number): Promise<RateCount> {
    checkNonEmpty(key, 'key', MAX_KEY_CHARS);
    checkPositiveMs(windowMs, 'windowMs');
    const coll = this.ctx.db.collection<CounterDoc>(COLLECTIONS.rateCounters);
    for (;;) {
      const now = this.ctx.now();
      const live = await coll.findOneAndUpdate({ _id: key, resetAt: { $gt: now } }, { $inc: { count: 1 } }, { returnDocument: 'after' });
      if (live) return answer(live, now);
      const resetAt = new Date(now.getTime() + Math.ceil(windowMs));
      const restarted = await coll.findOneAndUpdate({ _id: key, resetAt: { $lte: now } }, { $set: { count: 1, resetAt } }, { returnDocument: 'after' });
      if (restarted) return answer(restarted, now);
      try {
        await coll.insertOne({ _id: key, count: 1, resetAt });
        return { count: 1, ttlMs: Math.max(1, resetAt.getTime() - now.getTime()) };
      } catch (err) {
        if (!isDuplicateKey(err)) throw err;
      }
    }
  }
}

function answer(doc: CounterDoc, now: Date): RateCount {
  return { count: doc.count, ttlMs: Math.max(1, doc.resetAt.getTime() - now.getTime()) };
}
