// The composition root: config -> store -> engine -> use-case context -> one fastify instance with
// the transports registered as plugins -> job worker; and their orderly shutdown. `kerf serve` and
// the end-to-end tests both start the service through here.
import { createHash } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import pino, { type Logger } from 'pino';
import { newId } from '@kerf/common';
import { openStore, type Store } from '@kerf/store';
import { answerClientError, restApi, restLinks, MAX_PARAM_LENGTH, statusOf } from '@kerf/rest';
import { mcpHttp } from '@kerf/mcp';
import { EventRelay, Janitor, NO_QUOTE_CACHING, QUOTE_CACHING, JobWorker, JOB_HANDLERS, WEBHOOK_JOB_HANDLERS, loadSigningSecret, paymentUpdated, UrlSigner, type EngineApi, type PaymentProcessor, type UseCaseContext } from '@kerf/usecases';
import { boundedRateCounters, RateLimiter } from '@kerf/usecases';
import { createWebhookSender } from '@kerf/webhooks';
import { paymentProcessorFromEnv, paymentRoutes } from '@kerf/payments';
import { consentPort, createProvider, oauthServer } from '@kerf/oauth';
import { webSite } from '@kerf/web';
import { engineThreadsPerAccount, type ServiceConfig } from './config.ts';
import { createEngine } from './engine.ts';
import { genRequestId } from './request-id.ts';
import { onRelayWake, wakeOtherRelays } from './cluster.ts';

export interface Service {
  app: FastifyInstance;
  store: Store;
  ctx: UseCaseContext;
  worker: JobWorker;
  /** Delivers webhooks (a worker of its own: deliveries wait on receivers, not on the engine). */
  webhookWorker: JobWorker;
  /** Hands events recorded with state changes on to their webhook deliveries. */
  relay: EventRelay;
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
  /**
   * The store's clock (job leases, retry delays such as the webhook back-off); default the real
   * clock. Tests that move time forward pass the same clock as `now`.
   */
  storeNow?: () => Date;
  /** The card processor; default from the environment (STRIPE_SECRET_KEY: Stripe, else the embedded one). */
  payments?: PaymentProcessor;
}

export async function startService(config: ServiceConfig, options: StartOptions = {}): Promise<Service> {
  const log = options.logger ?? pino({ level: config.logLevel, base: { pid: process.pid } });
  const storeClock = options.storeNow ? { now: options.storeNow } : {};
  const store = await openStore(config.mongodbUrl ? { mongodbUrl: config.mongodbUrl, ...storeClock } : { dataDir: config.dataDir, groupCommit: config.groupCommit, ...storeClock });
  const engine = options.engine ?? (await createEngine(config, log));
  const secret = await loadSigningSecret(store);
  let worker: JobWorker | null = null;
  let webhookWorker: JobWorker | null = null;
  let relay: EventRelay | null = null;
  const shutdown = new AbortController();
  const now = options.now ?? (() => new Date());
  const ctx: UseCaseContext = {
    store,
    engine,
    links: restLinks(config.baseUrl),
    signer: new UrlSigner(secret, now),
    log: log.child({ component: 'usecases' }),
    now,
    newId,
    notifyJobs: () => { worker?.wake(); relay?.wake(); webhookWorker?.wake(); },
    webhooks: createWebhookSender({ allowHttpLoopback: config.webhookAllowHttpLoopback }),
    shutdown: shutdown.signal,
    maxActiveJobsPerAccount: config.maxActiveJobsPerAccount,
    maxUploadBytes: config.maxUploadBytes,
    quoteCache: config.quoteCache ? QUOTE_CACHING : NO_QUOTE_CACHING,
    payments: options.payments ?? paymentProcessorFromEnv({ store, baseUrl: config.baseUrl, now }),
    paymentReconcileAfterMs: config.paymentReconcileAfterMs,
    // uploads wait where the janitor sweeps: the embedded store's temp dir (a crashed upload's spool
    // goes with its partial writes), with MongoDB a folder of the data dir
    uploadSpoolDir: await uploadSpoolDir(config),
  };
  // Payments that settle later (processing, then succeeded or failed) finish their carts here;
  // the reconcile job finds whatever this misses (another process heard it, or none did).
  const stopPaymentUpdates = ctx.payments!.onPaymentUpdated((payment) => paymentUpdated(ctx, payment).catch((err: unknown) => {
    log.error({ err, payment_intent_id: payment.id }, 'settling a cart after a payment update failed; the reconciler retries');
  }));
  // one account runs at most engineThreadsPerAccount analyses at once: the rest of the threads stay
  // free for the others (docs/operations.md, Limits)
  worker = new JobWorker(ctx, JOB_HANDLERS, { leaseMs: config.jobLeaseMs, pollMs: config.jobPollMs, concurrency: config.engineThreads, maxPerAccount: engineThreadsPerAccount(config) });
  // The lease is renewed while a delivery waits on its receiver, so no other process repeats it.
  webhookWorker = new JobWorker(ctx, WEBHOOK_JOB_HANDLERS, { leaseMs: config.jobLeaseMs, pollMs: config.jobPollMs, concurrency: config.webhookConcurrency, maxPerAccount: config.webhookConcurrency });
  // in a cluster, a worker that does not hold the relay's lease passes its wakes to the one that does
  relay = new EventRelay(ctx, { pollMs: config.jobPollMs, elsewhere: wakeOtherRelays });
  onRelayWake(() => relay?.wakeFromElsewhere());
  const app = Fastify({
    loggerInstance: log as FastifyBaseLogger,
    genReqId: genRequestId,
    trustProxy: trustedProxies(config.trustProxy),
    // A client that trickles its headers or body, or holds a connection silent, is cut off: each
    // such connection could otherwise hold an upload's buffer for as long as it likes.
    requestTimeout: config.requestTimeoutMs,
    connectionTimeout: config.idleTimeoutMs,
    http: {
      headersTimeout: Math.min(config.headersTimeoutMs, config.requestTimeoutMs),
      // how often Node looks for requests past those limits
      connectionsCheckingInterval: Math.min(30_000, Math.max(100, Math.floor(Math.min(config.headersTimeoutMs, config.requestTimeoutMs) / 4))),
    },
    clientErrorHandler: (err, socket) => answerClientError(err, socket, config.baseUrl, genRequestId({ headers: {} })),
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: MAX_PARAM_LENGTH },
  });
  // Every response of every transport: browsers must not sniff a download or an error into HTML.
  app.addHook('onRequest', (_request, reply, done) => { reply.header('x-content-type-options', 'nosniff'); done(); });
  // One rate limit for every transport, its counts in the store (every process sees them) unless told
  // to keep them in this process; a client's requests to /v1, /mcp, OAuth, the site and the card setup
  // pages share one budget.
  const rateCounters = config.rateLimit && config.rateLimit.counters === 'memory' ? boundedRateCounters(config.rateLimit.maxKeys) : store.rateCounters;
  const rateLimiter = config.rateLimit ? new RateLimiter(config.rateLimit, rateCounters) : undefined;
  await app.register(restApi, { useCases: ctx, baseUrl: config.baseUrl, maxUploadBytes: config.maxUploadBytes, rateLimiter, idempotencyLeaseMs: config.idempotencyLeaseMs });
  await app.register(mcpHttp, { useCases: ctx, baseUrl: config.baseUrl, statusOf, rateLimiter });
  await app.register(paymentRoutes, { processor: ctx.payments!, rateLimiter });
  const oauthProvider = await createProvider({ store, issuer: config.baseUrl, allowLoopbackClientMetadata: config.oauthAllowLoopbackClientMetadata });
  await app.register(oauthServer, { provider: oauthProvider, store, issuer: config.baseUrl, rateCounters, rateLimiter });
  await app.register(webSite, {
    useCases: ctx,
    consent: consentPort(oauthProvider, store, config.baseUrl),
    signupOpen: config.signupOpen,
    cookieSecret: createHash('sha256').update(secret).update('web cookies').digest('base64url'),
    secureCookies: config.baseUrl.startsWith('https:'),
    maxUploadBytes: config.maxUploadBytes,
    rateLimiter,
    // sign-ups per address, in the same counters: each may create an account and runs the slow password hash
    signupLimiter: config.signupRateLimit ? new RateLimiter(config.signupRateLimit, rateCounters, 'signup') : undefined,
  });
  const janitor = new Janitor(ctx);
  if (options.jobs !== false) {
    janitor.start();
    worker.start();
    relay.start();
    webhookWorker.start();
  }

  let closing: Promise<void> | null = null;
  const close = (): Promise<void> => (closing ??= (async () => {
    log.info('shutting down');
    shutdown.abort(); // requests waiting on `Prefer: wait` answer with the current state
    await app.close(); // stops accepting and waits for in-flight requests
    await relay!.stop();
    await janitor.stop();
    await Promise.all([worker!.stop(config.shutdownGraceMs), webhookWorker!.stop(config.shutdownGraceMs)]);
    stopPaymentUpdates();
    await ctx.payments!.close();
    await engine.close();
    await store.close();
    log.info('stopped');
  })());

  return {
    app, store, ctx, worker, webhookWorker, relay, log,
    async listen() {
      return app.listen({ port: config.port, host: config.host });
    },
    close,
  };
}

/** fastify's trustProxy for KERF_TRUST_PROXY; a hop count trusts that many proxies nearest to us. */
function trustedProxies(setting: ServiceConfig['trustProxy']): boolean | string | ((address: string, hop: number) => boolean) {
  return typeof setting === 'number' ? (_address, hop) => hop < setting : setting;
}

/** The embedded store's tmp/ (it exists once the store is open); with MongoDB, `$KERF_DATA_DIR/spool`. */
async function uploadSpoolDir(config: ServiceConfig): Promise<string> {
  if (!config.mongodbUrl) return join(resolve(config.dataDir), 'tmp');
  const dir = join(resolve(config.dataDir), 'spool');
  await mkdir(dir, { recursive: true, mode: 0o700 });
  return dir;
}
