// The relay: hands each event recorded in the store's outbox on to the webhook endpoints that
// subscribe to it (outbox-events.ts records them).
import type { OutboxEntry, OutboxEventHead } from '@kerf/store';
import { type UseCaseContext, EVENTS_COLLECTION, Poller } from '../core/index.ts';
import { scheduleDelivery } from './delivery.ts';
import { activeEndpoints, type EndpointDoc } from './endpoint-records.ts';

/**
 * One pass over the outbox: hands on up to `limit` records' events; returns how many records it
 * cleared. A record whose events cannot be handed on now stays for the next pass and does not hold
 * up the others.
 */
export async function relayEvents(ctx: UseCaseContext, limit = 50): Promise<number> {
  const endpointsOf = new Map<string, Promise<EndpointDoc[]>>(); // an account's endpoints, listed once per pass
  let cleared = 0;
  // page by position: records that fail stay behind without taking every page's room
  for (let after: string | null = null, page: Array<OutboxEntry<OutboxEventHead>> = []; after === null || page.length === limit;) {
    page = await ctx.store.outbox.heads({ limit, after });
    if (page.length === 0) break;
    after = page[page.length - 1].position;
    cleared += await relayPage(ctx, page, endpointsOf);
  }
  if (cleared > 0) ctx.notifyJobs();
  return cleared;
}

/**
 * Hands on a page's records side by side: their writes go to the store together (one group commit
 * for the page's events, one for its clears, rather than two commits per record). A record's own
 * events still go in order.
 */
async function relayPage(ctx: UseCaseContext, entries: Array<OutboxEntry<OutboxEventHead>>, endpointsOf: Map<string, Promise<EndpointDoc[]>>): Promise<number> {
  const cleared = await Promise.all(entries.map(async (entry) => {
    try {
      let subscribers = endpointsOf.get(entry.accountId);
      if (!subscribers) endpointsOf.set(entry.accountId, subscribers = activeEndpoints(ctx, entry.accountId));
      const endpoints = await subscribers;
      const delivered = entry.events
        .map((event) => ({ event, to: endpoints.filter((e) => (e.events as string[]).includes(event.type)) }))
        .filter((d) => d.to.length > 0);
      if (delivered.length > 0) {
        // kept (the payload copied by the store) before any delivery job can look for it
        await ctx.store.outbox.keep(entry, delivered.map((d) => d.event.id), EVENTS_COLLECTION);
        for (const { event, to } of delivered) for (const endpoint of to) await scheduleDelivery(ctx, entry.accountId, event, endpoint.id);
      }
      await ctx.store.outbox.clear(entry, entry.events.map((e) => e.id));
      return 1;
    } catch (err) {
      ctx.log.error({ err, source: entry.source, resource_id: entry.resourceId }, 'handing on events failed; retried on the next pass');
      return 0;
    }
  }));
  return cleared.reduce((a: number, b) => a + b, 0);
}

export interface EventRelayOptions {
  /** How often the outbox is looked at when nothing woke the relay (other processes' events). */
  pollMs?: number;
  /**
   * The relay's lease on the store: one process's relay at a time walks the outbox (the others
   * would read and hand on the same records again). A holder that dies is replaced within about
   * leaseMs + pollMs. Default 5 s.
   */
  leaseMs?: number;
  /**
   * Called instead of a pass when this relay is woken (its process recorded events) while another
   * process holds the lease: pass the wake on to that process (e.g. over the cluster's IPC), so
   * those events go out at once rather than at the holder's next poll.
   */
  elsewhere?: () => void;
}

/** The store lease naming which process's relay hands events on. */
const RELAY_LEASE = 'event_relay';
const DEFAULT_RELAY_LEASE_MS = 5_000;

/**
 * Runs relayEvents whenever woken (by its store's writes that record events, or wake()) and every
 * `pollMs`, while this process holds the relay's lease
 * (see EventRelayOptions.leaseMs); several processes may run one each. Events written by a process
 * that does not hold it are found by the holder's next pass, within `pollMs`, or at once when the
 * wake is passed on (EventRelayOptions.elsewhere).
 */
export class EventRelay {
  private readonly poller: Poller;
  private readonly holder: string;
  private readonly leaseMs: number;
  private readonly pollMs: number;
  private readonly elsewhere: (() => void) | undefined;
  /** Until when (this process's clock) the lease is taken as held without asking the store again. */
  private heldUntil = 0;
  /** Not before this (this process's clock) is a lease held by another asked for again. */
  private nextAsk = 0;
  /** A wake (this process recorded events) since the last pass began. */
  private woken = false;
  private unlisten: (() => void) | null = null;

  constructor(private readonly ctx: UseCaseContext, opts: EventRelayOptions = {}) {
    this.holder = ctx.newId('relay');
    this.leaseMs = opts.leaseMs ?? DEFAULT_RELAY_LEASE_MS;
    this.pollMs = opts.pollMs ?? 250;
    this.elsewhere = opts.elsewhere;
    this.poller = new Poller(async () => {
      const woken = this.woken;
      this.woken = false;
      if (!(await this.holding())) {
        if (woken) this.elsewhere?.();
        return;
      }
      while (this.poller.started && (await relayEvents(ctx)) > 0 && (await this.holding())) { /* until the outbox is empty */ }
    }, this.pollMs, (err) => ctx.log.error({ err }, 'event relay failed; retrying'));
  }

  /** Starts, woken by every write of this process's store that records events. */
  start(): void {
    this.unlisten ??= this.ctx.store.outbox.onRecorded(() => this.wake());
    this.poller.start();
  }

  wake(): void {
    if (!this.poller.started) return;
    const now = Date.now();
    // known to be another's (asked lately): its holder should look, not this relay
    if (this.elsewhere && now >= this.heldUntil && now < this.nextAsk) {
      this.elsewhere();
      return;
    }
    this.woken = true;
    this.poller.wake();
  }

  /** Another process passed its wake on (EventRelayOptions.elsewhere): a pass if this relay holds the lease, never passed on again. */
  wakeFromElsewhere(): void {
    this.poller.wake();
  }

  /** Stops, and gives the lease up so another process's relay takes over at once. */
  async stop(): Promise<void> {
    this.unlisten?.();
    this.unlisten = null;
    await this.poller.stop();
    if (this.heldUntil === 0) return;
    this.heldUntil = 0;
    await this.ctx.store.leases.release(RELAY_LEASE, this.holder).catch((err: unknown) => this.ctx.log.error({ err }, 'releasing the event relay lease failed; it ends by itself'));
  }

  /**
   * Whether this relay holds the lease, renewed a third of the way through, so a renewal that is
   * late or slow still lands before it ends; asked of the store at most once per `pollMs` while
   * another holds it, not on every wake.
   */
  private async holding(): Promise<boolean> {
    const now = Date.now();
    if (now < this.heldUntil) return true;
    if (now < this.nextAsk) return false;
    const held = await this.ctx.store.leases.acquire(RELAY_LEASE, this.holder, this.leaseMs);
    this.heldUntil = held ? now + this.leaseMs / 3 : 0;
    this.nextAsk = held ? 0 : now + this.pollMs;
    return held;
  }
}
