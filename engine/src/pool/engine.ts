// createEngine(): the engine behind a bounded queue and a pool of worker threads (piscina). Each job
// runs in a worker; a job over its time limit or memory limit takes down only its own worker and
// fails with analysis_timeout / analysis_failed; the queue is bounded (queue_full); a worker whose
// memory (JS heap + WASM, which never shrinks) passes a ceiling is replaced after its job.
//
// The pool keeps its own queue and hands piscina at most one job per thread, so a job's time limit
// starts when it starts running, not when it was queued, and piscina never queues anything.
import { availableParallelism } from 'node:os';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Piscina } from 'piscina';
import { EngineError, type Design } from '../contract.ts';
import { compileOcct, releaseOcctModule } from '../import/occt.ts';
import type { AnalyzeOptions } from '../analyze.ts';
import type { GenerateOptions, ProductionFileOptions, ProductionFiles } from '../files/generate.ts';
import type { DesignFileOptions } from '../design-files.ts';
import type { DfmImageOptions, DfmImagesOptions } from '../dfm/image.ts';
import type { DfmReport } from '../dfm/report.ts';
import type { PartPrices } from '../pricing/part-prices.ts';
import type { EngineJob, ExtraJob, JobArgs, JobOp, JobReply, JobRequest, JobValue, WorkerSettings } from './protocol.ts';

export interface EngineOptions {
  /** worker threads; default: every core */
  threads?: number;
  /** per worker: JS heap and WASM memory together, MB (the heap alone is also held to it by V8); default 2048 */
  maxMemoryMb?: number;
  /** per job, from the moment it starts running, ms; default 120000 */
  timeoutMs?: number;
  /** jobs waiting for a thread beyond the running ones; default 256 */
  maxQueue?: number;
  /** a worker above this (JS heap + WASM) after a job is replaced, MB; default maxMemoryMb / 2 */
  recycleMemoryMb?: number;
  /**
   * once the pool has been idle this long, every thread that ran a job is stopped, so its WASM memory
   * (which never shrinks) goes back to the OS, and a fresh one (no WASM memory yet) takes its place,
   * ready for the next job. ms; default 20000; 0: threads are never retired
   */
  idleTimeoutMs?: number;
}

/** `retiredThreads`: threads stopped after the pool idled (idleTimeoutMs); `recycledWorkers`: replaced after a job over the memory ceiling */
export interface EngineStats { threads: number; running: number; queued: number; completed: number; failed: number; recycledWorkers: number; retiredThreads: number }

export interface Engine {
  analyze(stepBytes: Uint8Array, options?: AnalyzeOptions): Promise<Design>;
  /** dfm() of engine/src/dfm, same arguments */
  dfm(...args: JobArgs<'dfm'>): Promise<DfmReport>;
  /** partPrices() of engine/src/pricing, same arguments (without the `dfm` hook: a function cannot cross threads) */
  partPrices(...args: JobArgs<'partPrices'>): Promise<PartPrices>;
  generateProductionFiles(stepBytes: Uint8Array, options?: Omit<GenerateOptions, 'onFile'>): Promise<ProductionFiles>;
  /** analyzeWithFiles() of engine/src/files: the design and its parts' production files from one import */
  analyzeWithFiles(stepBytes: Uint8Array, options?: Omit<AnalyzeOptions & ProductionFileOptions, 'onFile'>): Promise<{ design: Design; files: ProductionFiles }>;
  /** designFile() of engine/src/design-files.ts: design model, design image, a part's source STEP */
  designFile(stepBytes: Uint8Array, options: DesignFileOptions): Promise<Uint8Array | null>;
  /** dfmImage() of engine/src/dfm/image.ts: a part's DFM image (findings on its flat or a formed view) */
  dfmImage(stepBytes: Uint8Array, options: DfmImageOptions): Promise<Uint8Array | null>;
  /** dfmImages() of engine/src/dfm/image.ts: several parts' DFM images from one analysis, in order */
  dfmImages(stepBytes: Uint8Array, options: DfmImagesOptions): Promise<(Uint8Array | null)[]>;
  stats(): EngineStats;
  /** Finishes running and queued jobs, then stops the threads; `force` fails them instead. */
  close(options?: { force?: boolean }): Promise<void>;
}

interface QueuedJob { job: EngineJob | ExtraJob; resolve(v: unknown): void; reject(e: unknown): void }

const DEFAULT_MAX_MEMORY_MB = 2048;
const DEFAULT_TIMEOUT_MS = 120_000;
const DEFAULT_MAX_QUEUE = 256;
/** Long enough that a steady stream of jobs keeps its threads warm, short enough that an idle service gives its memory back, ms */
const DEFAULT_IDLE_TIMEOUT_MS = 20_000;
const MB = 1048576;
/** Built (dist/*.js): the compiled worker. Sources run through tsx (development, tests): worker.mjs,
 * which registers tsx in the thread first (a worker thread does not inherit a `register()`ed loader). */
const WORKER_FILE = import.meta.url.endsWith('.ts') ? './worker.mjs' : './worker.js';

function positiveInt(name: string, v: number | undefined, fallback: number): number {
  if (v === undefined) return fallback;
  if (typeof v !== 'number' || !Number.isFinite(v) || v <= 0 || Math.floor(v) !== v) {
    throw new EngineError('invalid_configuration', `${name} must be a positive integer, got ${String(v)}`);
  }
  return v;
}

/** Internal: the pool with a generic run(); createEngine() exposes only the engine's operations. */
export class EnginePool {
  private readonly piscina: Piscina;
  private readonly queue: QueuedJob[] = [];
  private running = 0;
  private completed = 0;
  private failed = 0;
  private recycled = 0;
  private retired = 0;
  /** threads that have run a job since they started: the ones an idle pool retires */
  private readonly used = new Set<number>();
  private readonly idleTimeoutMs: number;
  private idleTimer: NodeJS.Timeout | null = null;
  private replacing = 0;
  private closing = false;
  private readonly settings: WorkerSettings;
  readonly threads: number;
  private readonly timeoutMs: number;
  private readonly maxQueue: number;
  private readonly maxMemoryMb: number;
  private idleWaiters: Array<() => void> = [];
  /** compiled here on the first job and posted with every job; undefined if it failed (each worker then compiles its own) */
  private occtModule: Promise<WebAssembly.Module | undefined> | null = null;

  /** `opsModule`: file URL or path of a module whose default export adds operations to the workers (tests' misbehaving jobs) */
  constructor(options: EngineOptions = {}, internal: { opsModule?: string } = {}) {
    this.threads = positiveInt('threads', options.threads, Math.max(1, availableParallelism()));
    this.maxMemoryMb = positiveInt('maxMemoryMb', options.maxMemoryMb, DEFAULT_MAX_MEMORY_MB);
    this.timeoutMs = positiveInt('timeoutMs', options.timeoutMs, DEFAULT_TIMEOUT_MS);
    this.maxQueue = options.maxQueue === 0 ? 0 : positiveInt('maxQueue', options.maxQueue, DEFAULT_MAX_QUEUE);
    this.idleTimeoutMs = options.idleTimeoutMs === 0 ? 0 : positiveInt('idleTimeoutMs', options.idleTimeoutMs, DEFAULT_IDLE_TIMEOUT_MS);
    const recycleMb = positiveInt('recycleMemoryMb', options.recycleMemoryMb, Math.max(1, Math.floor(this.maxMemoryMb / 2)));
    this.settings = { memoryLimitBytes: this.maxMemoryMb * MB, recycleBytes: recycleMb * MB };
    // a URL, so the worker's import() finds it wherever the worker file lives (a path is the caller's, from cwd)
    if (internal.opsModule) this.settings.opsModule = internal.opsModule.startsWith('file:') ? internal.opsModule : pathToFileURL(internal.opsModule).href;
    this.piscina = new Piscina({
      filename: fileURLToPath(new URL(WORKER_FILE, import.meta.url)),
      minThreads: this.threads,
      maxThreads: this.threads,
      // threads are stopped only on purpose: after a job over the memory ceiling, or when the pool
      // has idled (retireIdleThreads); piscina then starts a fresh one at once
      idleTimeout: Number.MAX_SAFE_INTEGER,
      maxQueue: this.threads, // never used: at most `threads` jobs are handed over
      resourceLimits: { maxOldGenerationSizeMb: this.maxMemoryMb },
    });
    // a worker that dies between jobs is replaced by piscina; nothing is waiting on it
    this.piscina.on('error', () => {});
  }

  /** Runs one of the engine's operations in a worker. */
  run<Op extends JobOp>(op: Op, args: JobArgs<Op>): Promise<JobValue<Op>> {
    // one of the engine's jobs (TypeScript does not narrow the generic pair to the union's member)
    const job = { op, args } as EngineJob;
    // the worker ran this operation: its reply's value, cloned across the thread, is the operation's
    return this.enqueue(job) as Promise<JobValue<Op>>;
  }

  /** Runs an operation the `opsModule` adds (tests' misbehaving jobs). */
  runExtra(op: string, args: unknown[]): Promise<unknown> {
    return this.enqueue({ extra: true, op, args });
  }

  private enqueue(job: EngineJob | ExtraJob): Promise<unknown> {
    if (this.idleTimer) { clearTimeout(this.idleTimer); this.idleTimer = null; }
    if (this.closing) return Promise.reject(new EngineError('queue_full', 'the engine is shutting down and accepts no new jobs'));
    if (this.running >= this.threads && this.queue.length >= this.maxQueue) {
      return Promise.reject(new EngineError('queue_full', `the engine queue is full (${this.maxQueue} waiting, ${this.running} running); retry later`));
    }
    return new Promise((resolve, reject) => {
      this.queue.push({ job, resolve, reject });
      this.pump();
    });
  }

  private pump(): void {
    // while a thread is being replaced piscina still counts it as idle: hand over nothing until it is gone
    if (this.replacing > 0) return;
    while (this.running < this.threads && this.queue.length > 0) {
      const job = this.queue.shift()!;
      this.running++;
      this.start(job).finally(() => {
        this.running--;
        this.pump();
        if (this.running === 0 && this.queue.length === 0) {
          for (const w of this.idleWaiters.splice(0)) w();
          this.armIdleTimer();
        }
      });
    }
  }

  private async start(job: QueuedJob): Promise<void> {
    this.occtModule ??= compileOcct().catch(() => undefined);
    const occtModule = await this.occtModule;
    const abort = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => { timedOut = true; abort.abort(); }, this.timeoutMs);
    const request: JobRequest = { job: job.job, settings: this.settings, ...(occtModule ? { occtModule } : {}) };
    try {
      const reply: JobReply = await this.piscina.run(request, { signal: abort.signal });
      clearTimeout(timer);
      if (reply.ok) { this.completed++; job.resolve(reply.value); }
      else { this.failed++; job.reject(new EngineError(reply.error.code, reply.error.message)); }
      // the caller has its result; the slot stays taken until the old thread is gone
      if (reply.threadId !== undefined) this.used.add(reply.threadId);
      if (reply.recycle) await this.replaceThread(reply.threadId);
    } catch (err) {
      this.failed++;
      job.reject(this.translate(err, timedOut));
    } finally {
      clearTimeout(timer);
    }
  }

  private armIdleTimer(): void {
    if (this.idleTimeoutMs === 0 || this.closing) return;
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => { this.idleTimer = null; void this.retireIdleThreads(); }, this.idleTimeoutMs);
    this.idleTimer.unref();
  }

  /**
   * The pool has been idle for idleTimeoutMs: every thread that ran a job is stopped (a thread's
   * WASM memory only grows, and stopping the thread is the one way to hand it back) and piscina
   * starts a fresh one in its place. Fresh threads are left alone, so an idle pool retires once.
   */
  private async retireIdleThreads(): Promise<void> {
    if (this.running > 0 || this.queue.length > 0 || this.closing) return;
    const idle = this.piscina.threads.filter((t) => this.used.has(t.threadId));
    this.replacing++;
    try {
      await Promise.all(idle.map(async (worker) => {
        this.used.delete(worker.threadId);
        this.retired++;
        const gone = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
        await worker.terminate();
        await gone;
      }));
      // the workers holding instances of the compiled module are gone: the module goes too (below)
      if (this.running === 0 && this.queue.length === 0 && releaseOcctModule()) this.occtModule = null;
    } finally {
      this.replacing--;
      this.pump();
    }
  }

  /** Stops an idle thread; piscina starts a fresh one to keep minThreads. Resolves once it is gone. */
  private async replaceThread(threadId: number | undefined): Promise<void> {
    const worker = this.piscina.threads.find((t) => t.threadId === threadId);
    if (!worker) return;
    this.recycled++;
    this.replacing++;
    try {
      const gone = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
      await worker.terminate();
      await gone;
    } finally {
      this.replacing--;
    }
  }

  private translate(err: unknown, timedOut: boolean): EngineError {
    if (err instanceof EngineError) return err;
    const e = err as { name?: string; code?: string; message?: string };
    if (timedOut) return new EngineError('analysis_timeout', `the job ran longer than ${this.timeoutMs} ms and was stopped`);
    if (e?.code === 'ERR_WORKER_OUT_OF_MEMORY') return new EngineError('analysis_failed', `the job exceeded the worker memory limit of ${this.maxMemoryMb} MB`);
    // V8 ends a thread that passes its heap limit without a catchable error: the exit is all we see
    if (/worker exited/.test(e?.message ?? '')) return new EngineError('analysis_failed', `the worker running the job died (out of its ${this.maxMemoryMb} MB memory limit or crashed); other jobs are unaffected`);
    return new EngineError('analysis_failed', `the worker running the job failed: ${e?.message ?? String(err)}`);
  }

  stats(): EngineStats {
    return { threads: this.threads, running: this.running, queued: this.queue.length, completed: this.completed, failed: this.failed, recycledWorkers: this.recycled, retiredThreads: this.retired };
  }

  async close(options: { force?: boolean } = {}): Promise<void> {
    this.closing = true;
    if (this.idleTimer) { clearTimeout(this.idleTimer); this.idleTimer = null; }
    if (options.force) {
      for (const job of this.queue.splice(0)) job.reject(new EngineError('analysis_failed', 'the engine was shut down before the job started'));
    }
    if (this.running > 0 || this.queue.length > 0) {
      if (options.force) await this.piscina.destroy();
      else await new Promise<void>((resolve) => this.idleWaiters.push(resolve));
    }
    await this.piscina.destroy();
  }
}

/** File options as they may cross to a worker: a callback cannot cross threads. */
function withoutCallback<T extends ProductionFileOptions>(opts: T | undefined): Omit<T, 'onFile'> {
  const { onFile: _ignored, ...plain } = opts ?? ({} as T);
  return plain;
}

/** The engine with its work spread over worker threads. `analyze()` etc. without a pool still work in-process. */
export function createEngine(options: EngineOptions = {}): Engine {
  const pool = new EnginePool(options);
  return {
    analyze: (bytes, opts) => pool.run('analyze', [bytes, opts ?? {}]),
    dfm: (...args) => pool.run('dfm', args),
    partPrices: (...args) => pool.run('partPrices', args),
    generateProductionFiles: (bytes, opts) => pool.run('files', [bytes, withoutCallback(opts)]),
    analyzeWithFiles: (bytes, opts) => pool.run('analyzeWithFiles', [bytes, withoutCallback(opts)]),
    designFile: (bytes, opts) => pool.run('designFile', [bytes, opts]),
    dfmImage: (bytes, opts) => pool.run('dfmImage', [bytes, opts]),
    dfmImages: (bytes, opts) => pool.run('dfmImages', [bytes, opts]),
    stats: () => pool.stats(),
    close: (o) => pool.close(o),
  };
}
