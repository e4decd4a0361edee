// WASM memory is invisible to V8's heap limits (resourceLimits bounds only the JS heap), so each
// worker caps its WASM memory plus its JS heap itself, as one budget: every emscripten module here (occt-import-js, OCCT, manifold) grows its
// memory through WebAssembly.Memory.prototype.grow from JS, and a refused grow makes the module's
// malloc fail, which aborts the job with an exception instead of taking the process down.

import { getHeapStatistics } from 'node:v8';

const WASM_PAGE_BYTES = 65536;

const memories = new Set<WeakRef<WebAssembly.Memory>>();
let limitBytes = Infinity;
let tripped = false;

function track(m: WebAssembly.Memory): void {
  for (const r of memories) if (r.deref() === m) return;
  memories.add(new WeakRef(m));
}

/** Bytes held by every live WebAssembly.Memory this thread has grown or created. */
export function wasmBytes(): number {
  let total = 0;
  for (const r of memories) {
    const m = r.deref();
    if (!m) { memories.delete(r); continue; }
    total += m.buffer.byteLength;
  }
  return total;
}

let installed = false;
/** Caps this thread's WASM memory plus its JS heap (one budget, so a worker never holds twice its
 * limit). Idempotent; the last limit wins. */
export function installMemoryGuard(maxBytes: number): void {
  limitBytes = maxBytes;
  if (installed) return;
  installed = true;
  const proto = WebAssembly.Memory.prototype;
  const grow = proto.grow;
  proto.grow = function guardedGrow(this: WebAssembly.Memory, delta: number): number {
    track(this);
    // the JS heap counts too: V8's own limit alone would let heap and WASM each reach the budget
    const after = wasmBytes() + delta * WASM_PAGE_BYTES + getHeapStatistics().used_heap_size;
    if (after > limitBytes) {
      tripped = true;
      throw new RangeError(`memory limit of ${Math.round(limitBytes / 1048576)} MB (JS heap + WASM) reached`);
    }
    return grow.call(this, delta);
  };
}

/** Whether a grow was refused since the last reset: the module that asked is now unusable. */
export function memoryLimitTripped(): boolean { return tripped; }
export function resetMemoryTrip(): void { tripped = false; }
