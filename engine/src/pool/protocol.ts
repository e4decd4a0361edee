// Messages between the pool and its workers (structured-clone safe: no callbacks), typed by
// operation: a job names one of the engine's operations and carries that operation's arguments; the
// reply carries its value.
import type { EngineErrorCode, Design } from '../contract.ts';
import type { AnalyzeOptions } from '../analyze.ts';
import type { GenerateOptions, ProductionFileOptions, ProductionFiles } from '../files/generate.ts';
import type { DesignFileOptions } from '../design-files.ts';
import type { DfmImageOptions, DfmImagesOptions } from '../dfm/image.ts';
import type { dfm, DfmReport } from '../dfm/report.ts';
import type { partPrices, PartPrices } from '../pricing/part-prices.ts';

/** The engine's operations a worker runs, by name: each one's arguments and value. */
export interface EngineOps {
  analyze: { args: [stepBytes: Uint8Array, options: AnalyzeOptions]; value: Design };
  files: { args: [stepBytes: Uint8Array, options: Omit<GenerateOptions, 'onFile'>]; value: ProductionFiles };
  analyzeWithFiles: { args: [stepBytes: Uint8Array, options: Omit<AnalyzeOptions & ProductionFileOptions, 'onFile'>]; value: { design: Design; files: ProductionFiles } };
  designFile: { args: [stepBytes: Uint8Array, options: DesignFileOptions]; value: Uint8Array | null };
  dfmImage: { args: [stepBytes: Uint8Array, options: DfmImageOptions]; value: Uint8Array | null };
  dfmImages: { args: [stepBytes: Uint8Array, options: DfmImagesOptions]; value: (Uint8Array | null)[] };
  dfm: { args: Parameters<typeof dfm>; value: DfmReport };
  partPrices: { args: Parameters<typeof partPrices>; value: PartPrices };
}

export type JobOp = keyof EngineOps;
export type JobArgs<Op extends JobOp> = EngineOps[Op]['args'];
export type JobValue<Op extends JobOp> = EngineOps[Op]['value'];
/** The function that runs each operation in a worker. */
export type JobHandlers = { [Op in JobOp]: (...args: JobArgs<Op>) => JobValue<Op> | Promise<JobValue<Op>> };

/** A job of one of the engine's operations: its name and its arguments. */
export type EngineJob<Op extends JobOp = JobOp> = { [K in Op]: { op: K; args: JobArgs<K> } }[Op];

/**
 * A job of an operation a module adds to the workers (engine/test's misbehaving jobs), by name: not
 * one of the engine's, so its arguments and value are whatever that module's function takes.
 */
export interface ExtraJob { extra: true; op: string; args: unknown[] }
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type JobHandler = (...args: any[]) => Promise<unknown> | unknown;

export interface WorkerSettings {
  /** memory budget per worker, JS heap and WASM together, bytes */
  memoryLimitBytes: number;
  /** after a job, a worker above this (JS heap + WASM) exits and is replaced, bytes */
  recycleBytes: number;
  /** file URL of a module whose default export adds operations (name -> JobHandler) to the engine's own */
  opsModule?: string;
}

export interface JobRequest {
  job: EngineJob | ExtraJob;
  settings: WorkerSettings;
  /** occt-import-js compiled once by the pool's thread: posting it shares the compiled code, so no worker compiles its own */
  occtModule?: WebAssembly.Module;
}

interface JobMemory { heapBytes: number; wasmBytes: number }

/** A job's outcome; `value` is the value of the job's operation. */
export type JobReply =
  | { ok: true; value: unknown; recycle: boolean; memory: JobMemory; threadId?: number }
  | { ok: false; error: { code: EngineErrorCode; message: string }; recycle: boolean; memory: JobMemory; threadId?: number };
