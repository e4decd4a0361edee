import type { Store } from '@kerf/store';
import type { EngineApi } from './engine-api.ts';
import type { Links } from './links.ts';
import type { PaymentProcessor } from './payments.ts';
import type { QuoteCaching } from './quote-caching.ts';
import type { UrlSigner } from './signed-urls.ts';
import type { WebhookSender } from './webhook-sender.ts';

export interface Logger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

/** What the use cases that keep nothing need: the engine, where resources live, a clock, ids. */
export interface EngineContext {
  engine: EngineApi;
  links: Links;
  log: Logger;
  now(): Date;
  /** A new id with the contract's type prefix (`dfm`, `quo`, ...). */
  newId(prefix: string): string;
}

/** What every other use case runs against; the service builds one per process. */
export interface UseCaseContext extends EngineContext {
  store: Store;
  signer: UrlSigner;
  /** Wakes this process's job workers after an enqueue (other processes poll). */
  notifyJobs(): void;
  /** Sends webhook deliveries (the webhooks adapter); without it, deliveries fail and are logged. */
  webhooks?: WebhookSender;
  /** Aborted when the service shuts down: long waits (`Prefer: wait`) answer at once. */
  shutdown?: AbortSignal;
  /**
   * Aborted when the client this work is for has gone away (an interactive request whose connection
   * closed): engine work still waiting for it is dropped instead of run for nobody.
   */
  signal?: AbortSignal;
  /** Customer jobs (analyses, production files, file quotes) an account may have queued or running at once (default DEFAULT_MAX_ACTIVE_JOBS_PER_ACCOUNT). */
  maxActiveJobsPerAccount?: number;
  /** Set while a job runs: the work it queues was admitted with the request that started it (job-admission.ts). */
  admitted?: boolean;
  /** Charges cards (carts, later dropship); without it, paying answers payment_processor_unavailable. */
  payments?: PaymentProcessor;
  /** How long a recorded charge may stay unanswered before the reconciler looks it up; default 60 s. */
  paymentReconcileAfterMs?: number;
  /**
   * Reuse within an account: one stored DFM report per (design, configuration, catalog version) in
   * quotes, and an earlier analysis of the same uploaded bytes; and the in-process engine's kept DFM
   * reports and priced quotes. Default QUOTE_CACHING (NO_QUOTE_CACHING: the bench's "before");
   * read it with quoteCaching(ctx).
   */
  quoteCache?: QuoteCaching;
  /**
   * Where uploads wait on disk while they arrive (spoolUpload); the janitor removes what a crash
   * leaves there. Default the OS temp dir, which no janitor sweeps: the service always sets it.
   */
  uploadSpoolDir?: string;
  /**
   * The largest upload the transports take, bytes (default 50 MiB); a gzip-compressed one may expand
   * to COMPRESSED_EXPANSION_FACTOR times it (designs/received-file.ts).
   */
  maxUploadBytes?: number;
}
