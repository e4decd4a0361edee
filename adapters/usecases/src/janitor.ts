// The janitor: what crashes leave behind in the store is removed when the service starts and then
// every hour. Retention (README "Crash leftovers"): partial uploads and stored bytes that no put
// recorded are deleted once they are an hour old; anything younger may belong to a put under way.
import type { UseCaseContext } from './context.ts';
import { Poller } from './poller.ts';

/** Leftovers younger than this may still be in use by a put under way. */
export const JANITOR_RETENTION_MS = 60 * 60 * 1000;
/** How often the janitor looks again after its pass at start. */
export const JANITOR_INTERVAL_MS = 60 * 60 * 1000;

export class Janitor {
  private readonly poller: Poller;

  constructor(private readonly ctx: UseCaseContext, opts: { intervalMs?: number; retentionMs?: number } = {}) {
    const retentionMs = opts.retentionMs ?? JANITOR_RETENTION_MS;
    this.poller = new Poller(async () => {
      const swept = await this.ctx.store.blobs.sweep(retentionMs);
      if (swept.partial + swept.unrecorded > 0) this.ctx.log.info({ ...swept }, 'janitor removed crash leftovers');
    }, opts.intervalMs ?? JANITOR_INTERVAL_MS, (err) => this.ctx.log.error({ err }, 'janitor pass failed'));
  }

  /** A pass now, then one every interval. */
  start(): void { this.poller.start(); }

  stop(): Promise<void> { return this.poller.stop(); }
}
