// Messages between the pool and its workers (structured-clone safe).
import type { EngineErrorCode } from '../contract.ts';

export type JobOp = 'analyze' | 'dfm' | 'partPrices' | 'files' | 'analyzeWithFiles' | 'designFile' | 'dfmImage' | 'dfmImages';

export interface WorkerSettings {
  /** memory budget per worker, JS heap and WASM together, bytes */
  memoryLimitBytes: number;
  /** after a job, a worker above this (JS heap + WASM) exits and is replaced, bytes */
  recycleBytes: number;
  /** file URL of a module whose default export adds operations (name -> JobHandler) to the engine's own */
  opsModule?: string;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type JobHandler = (...args: any[]) => Promise<unknown> | unknown;

export interface JobRequest {
  op: JobOp | string;
  args: unknown[];
  settings: WorkerSettings;
  /** occt-import-js compiled once by the pool's thread: posting it shares the compiled code, so no worker compiles its own */
  occtModule?: WebAssembly.Module;
}

export type JobReply =
  | { ok: true; value: unknown; recycle: boolean; memory: { heapBytes: number; wasmBytes: number } }
  | { ok: false; error: { code: EngineErrorCode; message: string }; recycle: boolean; memory: { heapBytes: number; wasmBytes: number } };
