// One pool thread: runs a job, reports errors as codes (EngineError survives no thread boundary as
// a class), and transfers large result buffers instead of copying them.
import { threadId } from 'node:worker_threads';
import { Piscina } from 'piscina';
import { EngineError, type EngineErrorCode } from '../contract.ts';
import { useOcctModule } from '../import/occt.ts';
import { installMemoryGuard, memoryLimitTripped, resetMemoryTrip, wasmBytes } from './memory-guard.ts';
import type { JobHandler, JobReply, JobRequest } from './protocol.ts';

/** Engine entry points by name, loaded on first use so a thread only pays for what it runs. */
const OPS: Record<string, () => Promise<JobHandler>> = {
  analyze: async () => (await import('../analyze.ts')).analyze,
  files: async () => (await import('../files/generate.ts')).generateProductionFiles,
  analyzeWithFiles: async () => (await import('../files/generate.ts')).analyzeWithFiles,
  designFile: async () => (await import('../design-files.ts')).designFile,
  dfmImage: async () => (await import('../dfm/image.ts')).dfmImage as JobHandler,
  dfmImages: async () => (await import('../dfm/image.ts')).dfmImages as JobHandler,
  dfm: async () => (await import('../dfm/index.ts')).dfm as JobHandler,
  partPrices: async () => (await import('../pricing/index.ts')).partPrices as JobHandler,
};

/**
 * The handler for `op`: the engine's own first, so an extra module can add operations but not
 * replace one; the extra module is imported only when a job names something the engine lacks.
 */
async function handlerFor(op: string, opsModule: string | undefined): Promise<JobHandler | null> {
  if (Object.hasOwn(OPS, op)) return OPS[op]();
  if (!opsModule) return null;
  const extra = ((await import(opsModule)) as { default?: Record<string, JobHandler> }).default;
  return extra && Object.hasOwn(extra, op) ? extra[op] : null;
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
    const handler = await handlerFor(req.op, req.settings.opsModule);
    if (!handler) throw new EngineError('invalid_configuration', `unknown engine operation '${req.op}'`);
    const value = await handler(...req.args);
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
  (reply as JobReply & { threadId: number }).threadId = threadId;
  const buffers = new Set<ArrayBuffer>();
  if (reply.ok) collectBuffers(reply.value, buffers);
  if (buffers.size === 0) return reply;
  const payload = reply;
  const transferable = {
    get [Piscina.transferableSymbol]() { return [...buffers]; },
    get [Piscina.valueSymbol]() { return payload; },
  };
  return Piscina.move(transferable as unknown as Parameters<typeof Piscina.move>[0]);
}
