// `kerf serve` over several processes (KERF_WORKERS / --processes): node:cluster forks workers
// that share the listening port (the primary hands connections round-robin) and the store. SQLite
// runs in WAL mode with a busy timeout, so processes read at once and take turns writing; jobs
// are claimed in an IMMEDIATE transaction, so one job is never handed to two processes.
import cluster, { type Worker } from 'node:cluster';
import type { Logger } from 'pino';

/** A worker that dies this soon after it started is not restarted (a bad config would loop). */
const MIN_UPTIME_MS = 5_000;

/**
 * The primary: forks the first worker alone (it runs the store's migrations and makes the demo
 * account), the others once it listens; restarts a worker that dies, and on SIGINT/SIGTERM stops
 * every worker and resolves with 0 once all have exited (1 when a worker could not start).
 */
export function superviseWorkers(count: number, log: Logger): Promise<number> {
  return new Promise<number>((resolve) => {
    let stopping = false;
    let failed = false;
    const started = new Map<Worker, number>();
    const fork = (): Worker => {
      const w = cluster.fork();
      started.set(w, Date.now());
      return w;
    };
    cluster.on('exit', (w, code, signal) => {
      const uptime = Date.now() - (started.get(w) ?? 0);
      started.delete(w);
      if (!stopping) {
        if (uptime < MIN_UPTIME_MS) {
          failed = true;
          log.error({ pid: w.process.pid, code, signal }, 'service worker exited at start: stopping');
          stop('worker_failed');
        } else {
          log.error({ pid: w.process.pid, code, signal }, 'service worker died: starting another');
          fork();
        }
      }
      if (stopping && started.size === 0) resolve(failed ? 1 : 0);
    });
    const stop = (why: string): void => {
      if (stopping) return;
      stopping = true;
      log.info({ why, workers: started.size }, 'stopping service workers');
      for (const w of started.keys()) w.process.kill('SIGTERM');
      if (started.size === 0) resolve(failed ? 1 : 0);
    };
    process.once('SIGINT', () => stop('SIGINT'));
    process.once('SIGTERM', () => stop('SIGTERM'));
    passRelayWakes();
    const first = fork();
    first.once('listening', () => {
      for (let i = 1; i < count && !stopping; i++) fork();
      log.info({ workers: count }, 'kerf service workers started');
    });
  });
}

export const isClusterPrimary = (): boolean => cluster.isPrimary;

/** The message a worker sends when it recorded events while another worker's relay holds the lease. */
const RELAY_WAKE = 'kerf:relay-wake';
/** Wakes a worker records within this long go to the others as one message, ms. */
const RELAY_WAKE_BATCH_MS = 10;
let relayWakeQueued = false;

/**
 * In a worker: asks the other workers' event relays to look at the outbox (the one holding the
 * relay's lease hands on what this worker recorded at once instead of at its next poll). No-op
 * outside a cluster.
 */
export function wakeOtherRelays(): void {
  if (!cluster.isWorker || relayWakeQueued) return;
  relayWakeQueued = true;
  setTimeout(() => {
    relayWakeQueued = false;
    if (process.connected) process.send?.({ type: RELAY_WAKE });
  }, RELAY_WAKE_BATCH_MS).unref();
}

/** In a worker: runs `wake` when another worker passes its relay's wake on. No-op outside a cluster. */
export function onRelayWake(wake: () => void): void {
  if (cluster.isWorker) process.on('message', (msg: unknown) => { if ((msg as { type?: unknown } | null)?.type === RELAY_WAKE) wake(); });
}

/** In the primary: hands a worker's relay wake to every other worker. */
function passRelayWakes(): void {
  cluster.on('message', (from, msg: unknown) => {
    if ((msg as { type?: unknown } | null)?.type !== RELAY_WAKE) return;
    for (const w of Object.values(cluster.workers ?? {})) if (w && w !== from && w.isConnected()) w.send(msg as object);
  });
}

/** A stopped worker lets go of the primary's IPC channel, which would otherwise keep it alive. */
export function leaveCluster(): void {
  if (cluster.isWorker) cluster.worker?.disconnect();
}
