// The composition root: store + engine + use-case context + fastify app + job worker, and their
// orderly shutdown. `kerf serve` and the end-to-end tests both start the service through here.
import type { FastifyInstance } from 'fastify';
import pino, { type Logger } from 'pino';
import { openStore, type Store } from '@kerf/store';
import { buildApp } from '@kerf/rest';
import type { UseCaseContext } from '@kerf/usecases/context.ts';
import type { EngineApi } from '@kerf/usecases/engine-api.ts';
import { JobWorker } from '@kerf/usecases/jobs.ts';
import { JOB_HANDLERS } from '@kerf/usecases';
import { loadSigningSecret, UrlSigner } from '@kerf/usecases/signed-urls.ts';
import type { ServiceConfig } from './config.ts';
import { createEngine } from './engine.ts';

export interface Service {
  app: FastifyInstance;
  store: Store;
  ctx: UseCaseContext;
  worker: JobWorker;
  log: Logger;
  /** Starts listening; returns the bound address (`http://host:port`). */
  listen(): Promise<string>;
  /** Stop accepting, let jobs finish (or release them), close the engine and the store. */
  close(): Promise<void>;
}

export interface StartOptions {
  logger?: Logger;
  /** Run job workers in this process (default true). */
  jobs?: boolean;
  engine?: EngineApi;
  /** The service clock (created_at, expiry, ship dates); tests inject a fixed one. */
  now?: () => Date;
}

export async function startService(config: ServiceConfig, options: StartOptions = {}): Promise<Service> {
  const log = options.logger ?? pino({ level: config.logLevel, base: { pid: process.pid } });
  const store = await openStore(config.mongodbUrl ? { mongodbUrl: config.mongodbUrl } : { dataDir: config.dataDir });
  const engine = options.engine ?? (await createEngine(config, log));
  const secret = await loadSigningSecret(store);
  let worker: JobWorker | null = null;
  const shutdown = new AbortController();
  const ctx: UseCaseContext = {
    store,
    engine,
    baseUrl: config.baseUrl,
    signer: new UrlSigner(secret, config.baseUrl),
    log: log.child({ component: 'usecases' }),
    now: options.now ?? (() => new Date()),
    notifyJobs: () => worker?.wake(),
    shutdown: shutdown.signal,
  };
  worker = new JobWorker(ctx, JOB_HANDLERS, { leaseMs: config.jobLeaseMs, pollMs: config.jobPollMs, concurrency: config.engineThreads });
  const app = await buildApp(ctx, { maxUploadBytes: config.maxUploadBytes, rateLimit: config.rateLimit, loggerInstance: log });
  if (options.jobs !== false) worker.start();

  let closing: Promise<void> | null = null;
  const close = (): Promise<void> => (closing ??= (async () => {
    log.info('shutting down');
    shutdown.abort(); // requests waiting on `Prefer: wait` answer with the current state
    await app.close(); // stops accepting and waits for in-flight requests
    await worker!.stop(config.shutdownGraceMs);
    await engine.close();
    await store.close();
    log.info('stopped');
  })());

  return {
    app, store, ctx, worker, log,
    async listen() {
      return app.listen({ port: config.port, host: config.host });
    },
    close,
  };
}
