// One pool thread: runs a job, reports errors as codes (EngineError survives no thread boundary as
// a class), and transfers large result buffers instead of copying them.
import { threadId } from 'node:worker_threads';
import { Piscina, transferableSymbol, valueSymbol } from 'piscina';
import { EngineError, type EngineErrorCode } from '../contract.ts';
import { useOcctModule } from '../import/occt.ts';
import { installMemoryGuard, memoryLimitTripped, resetMemoryTrip, wasmBytes } from './memory-guard.ts';
import type { EngineJob, ExtraJob, JobHandler, JobHandlers, JobOp, JobReply, JobRequest, JobValue } from './protocol.ts';

/** Engine entry points by name, loaded on first use so a thread only pays for what it runs. */
const OPS: { [Op in JobOp]: () => Promise<JobHandlers[Op]> } = {
  analyze: async () => (await import('../analyze.ts')).analyze,
  files: async () => (await import('../files/generate.ts')).generateProductionFiles,
  analyzeWithFiles: async () => (await import('../files/generate.ts')).analyzeWithFiles,
  designFile: async () => (await import('../design-files.ts')).designFile,
  dfmImage: async () => (await import('../dfm/image.ts')).dfmImage,
  dfmImages: async () => (await import('../dfm/image.ts')).dfmImages,
  dfm: async () => (await import('../dfm/index.ts')).dfm,
  partPrices: async () => (await import('../pricing/index.ts')).partPrices,
};

async function runEngineJob<Op extends JobOp>(job: EngineJob<Op>): Promise<JobValue<Op>> {
  const handler = await OPS[job.op]();
  return handler(...job.args);
}

/**
 * An operation of the extra module (tests'): only a name the engine lacks, so an extra module can
 * add operations but not replace one; the module is imported only when a job names one.
 */
async function runExtraJob(job: ExtraJob, opsModule: string | undefined): Promise<unknown> {
  const extra = !Object.hasOwn(OPS, job.op) && opsModule ? ((await import(opsModule)) as { default?: Record<string, JobHandler> }).default : undefined;
  if (!extra || !Object.hasOwn(extra, job.op)) throw new EngineError('invalid_configuration', `unknown engine operation '${job.op}'`);
  return extra[job.op](...job.args);
}

function collectBuffers(value: unknown, out: Set<ArrayBuffer>, depth = 0): void {
  if (depth > 6 || value === null || typeof value !== 'object') return;
  if (ArrayBuffer.isView(value)) {
    const buf = value.buffer;
    // only a view that owns its whole buffer may be moved: anything else would detach shared data
    if (buf instanceof ArrayBuffer && value.byteOffset === 0 && value.byteLength === buf.byteLength && buf.byteLength >= TRANSFER_MIN_BYTES) out.add(buf);
    return;
  }
  for (const v of Array.isArray(value) ? value : Object.values(value)) collectBuffers(v, out, depth + 1);
}
/** Below this a copy is cheaper than the transfer bookkeeping, bytes */
const TRANSFER_MIN_BYTES = 4096;

function memoryNow(): { heapBytes: number; wasmBytes: number } {
  return { heapBytes: process.memoryUsage().heapUsed, wasmBytes: wasmBytes() };
}

function codeOf(err: unknown): EngineErrorCode {
  const c = (err as { code?: unknown })?.code;
  const known: EngineErrorCode[] = ['invalid_step', 'empty_model', 'unsupported_geometry', 'analysis_timeout', 'analysis_failed', 'queue_full', 'invalid_configuration'];
  return typeof c === 'string' && (known as string[]).includes(c) ? (c as EngineErrorCode) : 'analysis_failed';
}

export default async function runJob(req: JobRequest): Promise<unknown> {
  installMemoryGuard(req.settings.memoryLimitBytes);
  resetMemoryTrip();
  if (req.occtModule) useOcctModule(req.occtModule);
  let reply: JobReply;
  try {
    const value = 'extra' in req.job ? await runExtraJob(req.job, req.settings.opsModule) : await runEngineJob(req.job);
    const memory = memoryNow();
    reply = { ok: true, value, memory, recycle: memory.heapBytes + memory.wasmBytes > req.settings.recycleBytes };
  } catch (err) {
    const tripped = memoryLimitTripped();
    const memory = memoryNow();
    reply = {
      ok: false,
      error: tripped
        ? { code: 'analysis_failed', message: `the job exceeded the worker memory limit of ${Math.round(req.settings.memoryLimitBytes / 1048576)} MB` }
        : { code: codeOf(err), message: (err as Error)?.message ?? String(err) },
      memory,
      // a module whose grow was refused, or that aborted, is in an undefined state: never reuse it
      recycle: tripped || err instanceof WebAssembly.RuntimeError || memory.heapBytes + memory.wasmBytes > req.settings.recycleBytes,
    };
  }
  reply.threadId = threadId;
  const buffers = new Set<ArrayBuffer>();
  if (reply.ok) collectBuffers(reply.value, buffers);
  if (buffers.size === 0) return reply;
  const payload = reply;
  return Piscina.move({
    get [transferableSymbol]() { return [...buffers]; },
    get [valueSymbol]() { return payload; },
  });
}
