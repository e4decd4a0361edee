import { availableParallelism } from 'node:os';
// Service configuration from the environment (docs/configuration.md "Configuration"). Bad values fail at start
// with the variable named, never at the first request.
export interface ServiceConfig {
  port: number;
  host: string;
  dataDir: string;
  baseUrl: string;
  mongodbUrl: string | undefined;
  maxUploadBytes: number;
  /** 'pool' (worker threads, default) or 'inprocess' */
  engine: 'pool' | 'inprocess';
  /** engine worker threads (jobs run at once per process) */
  engineThreads: number;
  /** per engine job, ms */
  analysisTimeoutMs: number;
  /** per engine worker, MB */
  engineMaxMemoryMb: number;
  /** engine jobs waiting for a thread, per process (beyond them: queue_full) */
  engineMaxQueue: number;
  /** an engine thread idle this long is stopped so its memory goes back to the OS, ms; 0: never */
  engineIdleTimeoutMs: number;
  /** analyses (and other engine jobs) one account runs at once per process; default engineThreads - 1, at least 1 (engineThreadsPerAccount()) */
  engineThreadsPerAccount?: number;
  /** the whole request (headers and body) must arrive within this, ms; else 408 and the connection closes */
  requestTimeoutMs: number;
  /** the request's headers must arrive within this, ms */
  headersTimeoutMs: number;
  /** a connection with no traffic either way for this long is closed, ms (above the longest Prefer: wait) */
  idleTimeoutMs: number;
  /** analyses an account may have queued or running at once; more uploads are refused with 429 */
  maxActiveJobsPerAccount: number;
  /** a running request's Idempotency-Key is free again this long after its process died, ms */
  idempotencyLeaseMs: number;
  /** which proxies' X-Forwarded-For to believe for the client address (fastify trustProxy): false, a hop count, or addresses/CIDRs */
  trustProxy: boolean | number | string;
  jobLeaseMs: number;
  jobPollMs: number;
  /**
   * requests per account (else client address) per window, over every transport; `counters`: 'store' (default: the
   * store's, shared by every process on it) or 'memory' (this process only, at most `maxKeys` keys)
   */
  rateLimit: { max: number; windowMs: number; counters?: 'store' | 'memory'; maxKeys?: number } | false;
  logLevel: string;
  /** seconds to let running jobs finish on SIGTERM before releasing them */
  shutdownGraceMs: number;
  /** allow webhook URLs on http:// loopback (local development and tests only) */
  webhookAllowHttpLoopback: boolean;
  /** webhook deliveries in flight at once per process */
  webhookConcurrency: number;
  /** how long a recorded card charge may go unanswered before the reconciler looks it up at the processor, ms */
  paymentReconcileAfterMs: number;
  /** fetch OAuth Client ID Metadata Documents from loopback https with any certificate (tests only) */
  oauthAllowLoopbackClientMetadata: boolean;
  /** KERF_SIGNUP=closed: no sign-up page; accounts come from `kerf admin create-account` */
  signupOpen: boolean;
  /** KERF_SIGNUP_RATE_LIMIT: web sign-up attempts per client address per hour (each may create an account and hash a password); false: none */
  signupRateLimit: { max: number; windowMs: number } | false;
  /** KERF_WORKERS: HTTP service processes sharing the port and the store (node:cluster); 1 runs no cluster */
  workers: number;
  /** KERF_QUOTE_CACHE=0: every quote item stores a fresh DFM report and every upload is analysed (the bench's before); default on */
  quoteCache: boolean;
  /** KERF_GROUP_COMMIT=0: the embedded store commits each write on its own (the bench's before); default on */
  groupCommit: boolean;
}

export class ConfigError extends Error {
  readonly code = 'invalid_config';
}

function int(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max) throw new ConfigError(`${name} must be an integer in ${min}..${max}, got '${raw}'`);
  return n;
}

function flag(env: NodeJS.ProcessEnv, name: string): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '' || raw === '0' || raw === 'false') return false;
  if (raw === '1' || raw === 'true') return true;
  throw new ConfigError(`${name} must be 1 or 0, got '${raw}'`);
}

function engineKind(raw: string | undefined): 'pool' | 'inprocess' {
  if (!raw || raw === 'pool') return 'pool';
  if (raw === 'inprocess') return 'inprocess';
  throw new ConfigError(`KERF_ENGINE must be 'pool' or 'inprocess', got '${raw}'`);
}

/** KERF_TRUST_PROXY: unset (trust no proxy), a hop count, or comma-separated addresses/CIDRs of the proxies. */
function rateCounterKind(raw: string | undefined): 'store' | 'memory' {
  if (!raw || raw === 'store') return 'store';
  if (raw === 'memory') return 'memory';
  throw new ConfigError(`KERF_RATE_LIMIT_STORE must be store or memory, got '${raw}'`);
}

function perHour(max: number): { max: number; windowMs: number } | false {
  return max === 0 ? false : { max, windowMs: 60 * 60 * 1000 };
}

function trustProxy(raw: string | undefined): boolean | number | string {
  if (!raw || raw === '0' || raw === 'false') return false;
  if (/^\d+$/.test(raw)) return Number(raw);
  if (!/^[0-9A-Fa-f.:/,\s]+$/.test(raw)) throw new ConfigError(`KERF_TRUST_PROXY must be a hop count or proxy addresses/CIDRs separated by commas, got '${raw}'`);
  return raw;
}

/**
 * Engine jobs one account runs at once in a process: by default every thread but one, so one
 * account's heavy jobs never hold all of them and another account's part starts at once (with one
 * thread nothing can be kept free: the worker's claim takes accounts in turn instead).
 */
export function engineThreadsPerAccount(config: Pick<ServiceConfig, 'engineThreads' | 'engineThreadsPerAccount'>): number {
  return Math.min(config.engineThreads, config.engineThreadsPerAccount ?? Math.max(1, config.engineThreads - 1));
}

export function configFromEnv(env: NodeJS.ProcessEnv = process.env): ServiceConfig {
  const port = int(env, 'PORT', 8080, 0, 65535);
  const baseUrl = (env.KERF_BASE_URL || `http://localhost:${port}`).replace(/\/+$/, '');
  if (!/^https?:\/\/[^/]+/.test(baseUrl)) throw new ConfigError(`KERF_BASE_URL must be an http(s) URL, got '${baseUrl}'`);
  const rateMax = int(env, 'KERF_RATE_LIMIT', 600, 0, 1_000_000);
  return {
    port,
    // loopback unless the operator widens it (HOST=0.0.0.0 in a container, behind a proxy)
    host: env.HOST || '127.0.0.1',
    dataDir: env.KERF_DATA_DIR || './data',
    baseUrl,
    mongodbUrl: env.MONGODB_URL || undefined,
    maxUploadBytes: int(env, 'KERF_MAX_UPLOAD_BYTES', 50 * 1024 * 1024, 1, 2 ** 31),
    engine: engineKind(env.KERF_ENGINE),
    engineThreads: int(env, 'KERF_ENGINE_THREADS', Math.min(2, availableParallelism()), 1, 64),
    analysisTimeoutMs: int(env, 'KERF_ANALYSIS_TIMEOUT_MS', 120_000, 1000, 3_600_000),
    engineMaxMemoryMb: int(env, 'KERF_ENGINE_MAX_MEMORY_MB', 2048, 64, 65536),
    engineMaxQueue: int(env, 'KERF_ENGINE_MAX_QUEUE', 256, 1, 100_000),
    engineIdleTimeoutMs: int(env, 'KERF_ENGINE_IDLE_TIMEOUT_MS', 20_000, 0, 86_400_000),
    ...(env.KERF_ENGINE_THREADS_PER_ACCOUNT ? { engineThreadsPerAccount: int(env, 'KERF_ENGINE_THREADS_PER_ACCOUNT', 1, 1, 64) } : {}),
    requestTimeoutMs: int(env, 'KERF_REQUEST_TIMEOUT_MS', 120_000, 500, 3_600_000),
    headersTimeoutMs: int(env, 'KERF_HEADERS_TIMEOUT_MS', 20_000, 500, 600_000),
    idleTimeoutMs: int(env, 'KERF_IDLE_TIMEOUT_MS', 75_000, 500, 3_600_000),
    maxActiveJobsPerAccount: int(env, 'KERF_MAX_ACTIVE_JOBS_PER_ACCOUNT', 20, 1, 100_000),
    idempotencyLeaseMs: int(env, 'KERF_IDEMPOTENCY_LEASE_MS', 30_000, 300, 3_600_000),
    trustProxy: trustProxy(env.KERF_TRUST_PROXY),
    jobLeaseMs: int(env, 'KERF_JOB_LEASE_MS', 30_000, 500, 3_600_000),
    jobPollMs: int(env, 'KERF_JOB_POLL_MS', 250, 10, 60_000),
    rateLimit: rateMax === 0 ? false : { max: rateMax, windowMs: int(env, 'KERF_RATE_LIMIT_WINDOW_MS', 60_000, 100, 3_600_000), counters: rateCounterKind(env.KERF_RATE_LIMIT_STORE) },
    logLevel: env.LOG_LEVEL || 'info',
    shutdownGraceMs: int(env, 'KERF_SHUTDOWN_GRACE_MS', 10_000, 0, 600_000),
    webhookAllowHttpLoopback: flag(env, 'KERF_WEBHOOK_ALLOW_HTTP_LOOPBACK'),
    webhookConcurrency: int(env, 'KERF_WEBHOOK_CONCURRENCY', 8, 1, 256),
    paymentReconcileAfterMs: int(env, 'KERF_PAYMENT_RECONCILE_AFTER_MS', 60_000, 100, 86_400_000),
    oauthAllowLoopbackClientMetadata: flag(env, 'KERF_OAUTH_ALLOW_LOOPBACK_CLIENT_METADATA'),
    signupOpen: (env.KERF_SIGNUP ?? 'open') !== 'closed',
    signupRateLimit: perHour(int(env, 'KERF_SIGNUP_RATE_LIMIT', 5, 0, 1_000_000)),
    workers: env.KERF_WORKERS === 'auto' ? availableParallelism() : int(env, 'KERF_WORKERS', 1, 1, 64),
    quoteCache: env.KERF_QUOTE_CACHE === undefined || env.KERF_QUOTE_CACHE === '' ? true : flag(env, 'KERF_QUOTE_CACHE'),
    groupCommit: env.KERF_GROUP_COMMIT === undefined || env.KERF_GROUP_COMMIT === '' ? true : flag(env, 'KERF_GROUP_COMMIT'),
  };
}
