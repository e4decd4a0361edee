// The janitor: what crashes leave behind in the store is removed when the service starts and then
// every hour. Retention (docs/configuration.md "Crash leftovers"): partial uploads, stored bytes that no put
// recorded, uploaded sources whose design was never created, and uploads spooled to disk by a
// request that never finished (the context's uploadSpoolDir) are deleted once they are an hour old;
// anything younger may belong to a write under way. It also prunes what the OAuth server
// leaves behind (oauth-prune.ts) and the sign-in throttle's spent records (web-accounts.ts).
import { type UseCaseContext, Poller } from './core/index.ts';
import { sourceKey, sweepSpools } from './designs/index.ts';
import { pruneOAuthRecords, pruneSignInRecords, type PruneCursors } from './identity/index.ts';

/** Sources looked at per pass; the rest wait for the next pass. */
const SOURCES_PER_PASS = 1000;
const SOURCE_KEY = new RegExp(`^${sourceKey('([^/]+)').replace(/[.]/g, '\\.')}$`);

/** Leftovers younger than this may still be in use by a put under way. */
export const JANITOR_RETENTION_MS = 60 * 60 * 1000;
/** How often the janitor looks again after its pass at start. */
export const JANITOR_INTERVAL_MS = 60 * 60 * 1000;

export class Janitor {
  private readonly poller: Poller;
  private readonly pruneCursors: PruneCursors = new Map();

  constructor(private readonly ctx: UseCaseContext, opts: { intervalMs?: number; retentionMs?: number } = {}) {
    const retentionMs = opts.retentionMs ?? JANITOR_RETENTION_MS;
    this.poller = new Poller(async () => {
      const spoolDir = this.ctx.uploadSpoolDir;
      const spools = spoolDir ? await sweepSpools(spoolDir, this.ctx.now().getTime() - retentionMs) : 0;
      const swept = { ...(await this.ctx.store.blobs.sweep(retentionMs)), sources: await this.orphanSources(retentionMs), spools };
      if (swept.partial + swept.unrecorded + swept.sources + swept.spools > 0) this.ctx.log.info({ ...swept }, 'janitor removed crash leftovers');
      const oauth = await pruneOAuthRecords(this.ctx.store, this.ctx.now(), this.pruneCursors);
      if (oauth.expired + oauth.polls + oauth.clients > 0) this.ctx.log.info({ ...oauth }, 'janitor pruned OAuth records');
      const signIn = await pruneSignInRecords(this.ctx.store, this.ctx.now(), this.pruneCursors);
      if (signIn > 0) this.ctx.log.info({ signIn }, 'janitor pruned sign-in throttle records');
    }, opts.intervalMs ?? JANITOR_INTERVAL_MS, (err) => this.ctx.log.error({ err }, 'janitor pass failed'));
  }

  /** Uploads stored for a design that was never created (the process died between the two writes). */
  private async orphanSources(retentionMs: number): Promise<number> {
    const { blobs, designs } = this.ctx.store;
    let removed = 0;
    for (const key of await blobs.listOlder({ prefix: 'designs/', suffix: '/source.step', olderThanMs: retentionMs, limit: SOURCES_PER_PASS })) {
      const id = SOURCE_KEY.exec(key)?.[1];
      if (id && !(await designs.exists(id)) && (await blobs.delete(key))) removed++;
    }
    return removed;
  }

  /** A pass now, then one every interval. */
  start(): void { this.poller.start(); }

  stop(): Promise<void> { return this.poller.stop(); }
}
