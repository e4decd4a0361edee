// Leases on the embedded store: a row per lease name in the store's database; taking and renewing
// are one upsert that applies only while the lease is free, ended or the holder's own.
import { checkLease } from '../common/leases.ts';
import type { Leases } from '../port.ts';
import type { SqliteContext } from './context.ts';

export class SqliteLeases implements Leases {
  private readonly take;
  private readonly drop;
  constructor(private readonly ctx: SqliteContext) {
    this.take = ctx.db.prepare(`INSERT INTO leases (name, holder, until) VALUES (@name, @holder, @until)
      ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, until = excluded.until WHERE leases.holder = excluded.holder OR leases.until <= @now`);
    this.drop = ctx.db.prepare('DELETE FROM leases WHERE name = @name AND holder = @holder');
  }

  async acquire(name: string, holder: string, ttlMs: number): Promise<boolean> {
    const lease = checkLease(name, holder, ttlMs);
    const now = this.ctx.now();
    const params = { name: lease.name, holder: lease.holder, now: now.toISOString(), until: new Date(now.getTime() + lease.ttlMs).toISOString() };
    return this.ctx.write(() => this.take.run(params).changes > 0);
  }

  async release(name: string, holder: string): Promise<boolean> {
    const lease = checkLease(name, holder);
    return this.ctx.write(() => this.drop.run({ name: lease.name, holder: lease.holder }).changes > 0);
  }
}
