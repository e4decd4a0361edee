// Idempotency records on MongoDB: the unique (accountId, key) index decides which of several
// concurrent first requests starts; a takeover of an expired or stale record is a compare-and-set
// on the fields read.
import type { Collection, Document } from 'mongodb';
import { IDEMPOTENCY_STALE_MS, IDEMPOTENCY_TTL_MS } from '../common/constants.ts';
import { checkIdempotencyKey, checkResponse, decide, newSeed, RELEASED_AT } from '../common/idempotencyRules.ts';
import { checkNonEmpty, checkPositiveMs } from '../common/validate.ts';
import type { IdempotencyBegin, IdempotencyRepo } from '../port.ts';
import { isDuplicateKey, plainJson, type MongoContext } from './context.ts';
import { COLLECTIONS } from './indexes.ts';

/** Rounds of read-then-write before concluding that another request holds the key. */
const BEGIN_ROUNDS = 4;

export class MongoIdempotency implements IdempotencyRepo {
  private readonly col: Collection<Document>;
  constructor(private readonly ctx: MongoContext) {
    this.col = ctx.db.collection(COLLECTIONS.idempotency);
  }

  async begin(accountId: string, key: string, fingerprint: string, opts: { staleAfterMs?: number } = {}): Promise<IdempotencyBegin> {
    checkIdempotencyKey(key);
    checkNonEmpty(fingerprint, 'fingerprint', 200);
    const stale = opts.staleAfterMs === undefined ? IDEMPOTENCY_STALE_MS : checkPositiveMs(opts.staleAfterMs, 'staleAfterMs');
    const owner = String(accountId);
    for (let round = 0; round < BEGIN_ROUNDS; round++) {
      const now = this.ctx.now();
      const existing = await this.col.findOne({ accountId: owner, key });
      const decision = decide(existing ? {
        fingerprint: existing.fingerprint, state: existing.state, status: existing.status ?? null, body: existing.body ?? null,
        headers: existing.headers ?? null, updatedAt: existing.updatedAt, expiresAt: existing.expiresAt,
      } : null, fingerprint, now, stale);
      if (!decision.take) return decision.answer;
      const resumed = decision.resume && typeof existing?.seed === 'string';
      const seed: string = resumed ? existing!.seed : newSeed();
      // a resumed request keeps its seed and expiry: it is the same request
      const fresh = resumed ? { updatedAt: now } : { fingerprint, state: 'started', status: null, body: null, headers: null, createdAt: now, updatedAt: now, expiresAt: new Date(now.getTime() + IDEMPOTENCY_TTL_MS), seed };
      if (!existing) {
        try {
          await this.col.insertOne({ accountId: owner, key, ...fresh });
          return { state: 'started', seed, resumed: false };
        } catch (err) {
          if (!isDuplicateKey(err)) throw err;
          continue; // another request inserted first: read what it wrote
        }
      }
      const taken = await this.col.updateOne(
        { _id: existing._id, state: existing.state, fingerprint: existing.fingerprint, updatedAt: existing.updatedAt },
        { $set: fresh },
      );
      if (taken.matchedCount === 1) return { state: 'started', seed, resumed };
    }
    return { state: 'in_progress' };
  }

  async finish(accountId: string, key: string, response: { status: number; body: unknown; headers?: Record<string, string> }): Promise<boolean> {
    checkResponse(response);
    const r = await this.col.updateOne(
      { accountId: String(accountId), key: String(key), state: 'started' },
      { $set: { state: 'finished', status: response.status, body: plainJson(response.body ?? null, 'body'), headers: plainJson(response.headers ?? {}, 'headers'), updatedAt: this.ctx.now() } },
    );
    return r.matchedCount === 1;
  }

  async renew(accountId: string, key: string): Promise<boolean> {
    return this.touch(accountId, key, this.ctx.now());
  }

  async release(accountId: string, key: string): Promise<boolean> {
    return this.touch(accountId, key, RELEASED_AT);
  }

  private async touch(accountId: string, key: string, at: Date): Promise<boolean> {
    const r = await this.col.updateOne({ accountId: String(accountId), key: String(key), state: 'started' }, { $set: { updatedAt: at } });
    return r.matchedCount === 1;
  }

  async abandon(accountId: string, key: string): Promise<boolean> {
    const r = await this.col.deleteOne({ accountId: String(accountId), key: String(key), state: 'started' });
    return r.deletedCount === 1;
  }
}
