// Jobs that misbehave on purpose, to prove the pool contains them. The pool loads this module into
// its workers when a test passes it as `opsModule`; production workers never see these names.
import { threadId } from 'node:worker_threads';
import type { JobHandler } from '../../src/pool/protocol.ts';

let lastBytes: Uint8Array | null = null;

const TEST_OPS: Record<string, JobHandler> = {
  echo: (x: unknown) => x,
  threadId: () => threadId,
  spin: () => { for (;;) { /* never returns: only a terminated thread ends this */ } },
  // holds its thread for `ms`, then answers: a busy thread that ends on its own
  block: (ms: number) => { const end = Date.now() + ms; while (Date.now() < end) { /* busy */ } return 'done'; },
  exhaustWasm: () => {
    const mem = new WebAssembly.Memory({ initial: 1, maximum: 65536 });
    for (;;) mem.grow(256); // 16 MB at a time until the guard refuses
  },
  exhaustHeap: () => {
    const hoard: number[][] = [];
    for (;;) hoard.push(new Array(1 << 20).fill(Math.random()));
  },
  // holds `heapMb` of JS heap, then grows a WASM memory to `wasmMb`: each alone is within a budget their sum exceeds
  heapThenWasm: (heapMb: number, wasmMb: number) => {
    const hoard = Array.from({ length: heapMb }, () => new Array(131072).fill(1.5)); // 1 MB of JS heap each
    const mem = new WebAssembly.Memory({ initial: 1, maximum: 65536 });
    mem.grow(wasmMb * 16 - 1); // 64 KiB pages
    return hoard.length + mem.buffer.byteLength;
  },
  bytes: (n: number) => { lastBytes = new Uint8Array(n).fill(7); return { data: lastBytes }; },
  // a transferred buffer is detached on the sending side; a copied one keeps its bytes
  lastBytesDetached: () => lastBytes !== null && lastBytes.buffer.byteLength === 0,
};

export default TEST_OPS;
