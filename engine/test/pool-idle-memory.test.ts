// Its own file (its own process): the pool lets go of the compiled importer only while this thread
// runs no import of its own, which other pool tests do (their in-process comparisons).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { EnginePool } from '../src/pool/engine.ts';
import { compileOcct } from '../src/import/occt.ts';

const L_BRACKET = new Uint8Array(readFileSync(new URL('../../fixtures/sheet/l_t2_r2.step', import.meta.url)));

test('once its threads are retired, the pool lets go of the compiled importer (its optimized code is freed) and compiles it again for the next job', async () => {
  const pool = new EnginePool({ threads: 1, idleTimeoutMs: 300, timeoutMs: 60000 });
  try {
    const first = await pool.run('analyze', [L_BRACKET, {}]);
    const compiled = await compileOcct(); // the module the pool compiled in this thread and posted to its worker
    const t0 = Date.now();
    while ((await compileOcct()) === compiled) {
      if (Date.now() - t0 > 10_000) assert.fail('the compiled module was still held 10 s after the pool idled');
      await new Promise((r) => setTimeout(r, 50));
    }
    assert.equal(pool.stats().retiredThreads, 1);
    const again = await pool.run('analyze', [L_BRACKET, {}]);
    assert.ok(first.parts.length > 0); assert.deepEqual(again.parts.map((p) => p.id), first.parts.map((p) => p.id), 'the next job runs on the module compiled again');
  } finally { await pool.close(); }
});
