import { IDEMPOTENCY_STALE_MS, IDEMPOTENCY_TTL_MS } from '../common/constants.ts';
import { checkIdempotencyKey, checkResponse, decide, newSeed, RELEASED_AT } from '../common/idempotencyRules.ts';
import { checkNonEmpty, checkPositiveMs } from '../common/validate.ts';
import type { IdempotencyBegin, IdempotencyRepo } from '../port.ts';
import { parseJson, toJson, type SqliteContext } from './context.ts';

const PURGE_INTERVAL_MS = 60 * 60 * 1000;

interface IdemRow {
  fingerprint: string;
  state: 'started' | 'finished';
  status: number | null;
  body: string | null;
  headers: string | null;
  updated_at: string;
  expires_at: string;
  seed: string | null;
}

export class SqliteIdempotency implements IdempotencyRepo {
  private readonly beginTx;
  private readonly finishStmt;
  private readonly abandonStmt;
  private readonly touchStmt;
  private readonly purgeStmt;

  constructor(private readonly ctx: SqliteContext) {
    const { db } = ctx;
    const find = db.prepare('SELECT * FROM idempotency_keys WHERE account_id = ? AND key = ?');
    const start = db.prepare(`INSERT INTO idempotency_keys (account_id, key, fingerprint, state, status, body, headers, created_at, updated_at, expires_at, seed)
      VALUES (@accountId, @key, @fingerprint, 'started', NULL, NULL, NULL, @now, @now, @expires, @seed)
      ON CONFLICT (account_id, key) DO UPDATE SET fingerprint = excluded.fingerprint, state = 'started', status = NULL,
        body = NULL, headers = NULL, created_at = excluded.created_at, updated_at = excluded.updated_at, expires_at = excluded.expires_at, seed = excluded.seed`);
    // the same request again after its run stopped: same seed, same expiry
    const resume = db.prepare(`UPDATE idempotency_keys SET updated_at = @now, seed = @seed WHERE account_id = @accountId AND key = @key`);
    this.beginTx = db.transaction((accountId: string, key: string, fingerprint: string, staleAfterMs: number): IdempotencyBegin => {
      const now = this.ctx.now();
      const row = find.get(accountId, key) as IdemRow | undefined;
      const decision = decide(row ? {
        fingerprint: row.fingerprint, state: row.state, status: row.status, body: parseJson(row.body),
        headers: parseJson<Record<string, string>>(row.headers), updatedAt: new Date(row.updated_at), expiresAt: new Date(row.expires_at),
      } : null, fingerprint, now, staleAfterMs);
      if (!decision.take) return decision.answer;
      if (decision.resume && row?.seed) {
        resume.run({ accountId, key, now: now.toISOString(), seed: row.seed });
        return { state: 'started', seed: row.seed, resumed: true };
      }
      const seed = newSeed();
      start.run({ accountId, key, fingerprint, now: now.toISOString(), expires: new Date(now.getTime() + IDEMPOTENCY_TTL_MS).toISOString(), seed });
      return { state: 'started', seed, resumed: false };
    });
    this.finishStmt = db.prepare(`UPDATE idempotency_keys SET state = 'finished', status = @status, body = @body, headers = @headers, updated_at = @now
      WHERE account_id = @accountId AND key = @key AND state = 'started'`);
    this.abandonStmt = db.prepare(`DELETE FROM idempotency_keys WHERE account_id = ? AND key = ? AND state = 'started'`);
    this.touchStmt = db.prepare(`UPDATE idempotency_keys SET updated_at = ? WHERE account_id = ? AND key = ? AND state = 'started'`);
    this.purgeStmt = db.prepare('DELETE FROM idempotency_keys WHERE expires_at <= ?');
  }

  private lastPurge = 0;

  async begin(accountId: string, key: string, fingerprint: string, opts: { staleAfterMs?: number } = {}): Promise<IdempotencyBegin> {
    checkIdempotencyKey(key);
    checkNonEmpty(fingerprint, 'fingerprint', 200);
    const stale = opts.staleAfterMs === undefined ? IDEMPOTENCY_STALE_MS : checkPositiveMs(opts.staleAfterMs, 'staleAfterMs');
    return this.ctx.write(() => {
      // Expired rows are ignored anyway; deleting them now and then keeps the table small.
      if (this.ctx.now().getTime() - this.lastPurge >= PURGE_INTERVAL_MS) this.purgeExpired();
      return this.beginTx.immediate(String(accountId), key, fingerprint, stale);
    });
  }

  async finish(accountId: string, key: string, response: { status: number; body: unknown; headers?: Record<string, string> }): Promise<boolean> {
    checkResponse(response);
    const params = {
      accountId: String(accountId), key: String(key), status: response.status,
      body: toJson(response.body ?? null, 'body'), headers: toJson(response.headers ?? {}, 'headers'), now: this.ctx.now().toISOString(),
    };
    return (await this.ctx.write(() => this.finishStmt.run(params))).changes === 1;
  }

  async abandon(accountId: string, key: string): Promise<boolean> {
    return (await this.ctx.write(() => this.abandonStmt.run(String(accountId), String(key)))).changes === 1;
  }

  async renew(accountId: string, key: string): Promise<boolean> {
    const now = this.ctx.now().toISOString();
    return (await this.ctx.write(() => this.touchStmt.run(now, String(accountId), String(key)))).changes === 1;
  }

  async release(accountId: string, key: string): Promise<boolean> {
    return (await this.ctx.write(() => this.touchStmt.run(RELEASED_AT.toISOString(), String(accountId), String(key)))).changes === 1;
  }

  /** Deletes expired records, synchronously (at open, or inside a group's write); also ignored once expired. */
  purgeExpired(): number {
    this.lastPurge = this.ctx.now().getTime();
    return this.purgeStmt.run(this.ctx.now().toISOString()).changes;
  }
}
