// The exact B-rep kernel (replicad-opencascadejs, ~23 MB of WASM): loaded lazily, once per thread,
// and only by the threads that need exact shapes (surface models to sew, production STEP files).
import { createRequire } from 'node:module';

// The generated typings of the OCCT bindings are 1.6 MB; the few dozen calls made with it do not need them.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type OC = any;

let ocPromise: Promise<OC> | null = null;

export function loadExactKernel(): Promise<OC> {
  if (!ocPromise) {
    const require = createRequire(import.meta.url);
    const wasmPath = require.resolve('replicad-opencascadejs/wasm');
    ocPromise = import('replicad-opencascadejs').then((m) =>
      (m.default as (o: object) => Promise<OC>)({ locateFile: () => wasmPath, print: () => {}, printErr: () => {} }));
    ocPromise.catch(() => { ocPromise = null; });
  }
  return ocPromise;
}

let fileCounter = 0;
/** A fresh name in the kernel's in-memory file system. */
export function scratchName(ext: string): string { return `/kerf-${process.pid}-${++fileCounter}.${ext}`; }
