import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { EnginePool, createEngine } from '../src/pool/engine.ts';
import type { Design } from '../src/contract.ts';
import { defaultCatalog } from '../src/catalog/index.ts';
import { partPrices } from '../src/pricing/index.ts';
import { corpusPath } from './corpus-dir.ts';

const withTestOps = { opsModule: new URL('./helpers/test-ops.ts', import.meta.url).href };

const L_BRACKET = new Uint8Array(readFileSync(new URL('../../fixtures/sheet/l_t2_r2.step', import.meta.url)));
const PLATE = new Uint8Array(readFileSync(new URL('../../fixtures/sheet/plate_t3_holes_slot.step', import.meta.url)));

test('a job that hangs fails with analysis_timeout; the other jobs complete', async () => {
  // the limit applies to every job: it must leave a cold worker's first analysis room on a loaded machine
  const pool = new EnginePool({ threads: 2, timeoutMs: 15_000 }, withTestOps);
  try {
    const hang = pool.runExtra('spin', []);
    const others = [pool.run('analyze', [L_BRACKET, {}]), pool.run('analyze', [PLATE, {}]), pool.runExtra('echo', ['after'])];
    await assert.rejects(hang, (e: { code?: string }) => e.code === 'analysis_timeout');
    const done = await Promise.all(others);
    assert.equal((done[0] as Design).status, 'ready');
    assert.equal((done[1] as Design).parts.length, 1);
    assert.equal(done[2], 'after');
    // the pool is whole again: a fresh thread replaced the stopped one
    assert.equal(await pool.runExtra('echo', [42]), 42);
  } finally { await pool.close(); }
});

test('a job that exhausts WASM memory or the JS heap fails with analysis_failed; others complete', async () => {
  const pool = new EnginePool({ threads: 2, maxMemoryMb: 192, timeoutMs: 60000 }, withTestOps);
  try {
    const wasm = assert.rejects(pool.runExtra('exhaustWasm', []), (e: { code?: string; message?: string }) => e.code === 'analysis_failed' && /memory limit/.test(e.message ?? ''));
    const heap = assert.rejects(pool.runExtra('exhaustHeap', []), (e: { code?: string }) => e.code === 'analysis_failed');
    const ok = pool.run('analyze', [L_BRACKET, {}]);
    await wasm;
    await heap;
    assert.equal(((await ok) as Design).status, 'ready');
    assert.ok(pool.stats().recycledWorkers >= 1, 'the worker whose WASM grow was refused is replaced');
    assert.equal(await pool.runExtra('echo', ['alive']), 'alive');
  } finally { await pool.close(); }
});

test('maxMemoryMb is one budget per worker: JS heap and WASM memory together', async () => {
  const pool = new EnginePool({ threads: 1, maxMemoryMb: 256, timeoutMs: 60000 }, withTestOps);
  try {
    await assert.rejects(pool.runExtra('heapThenWasm', [160, 160]), (e: { code?: string; message?: string }) => e.code === 'analysis_failed' && /memory limit of 256 MB/.test(e.message ?? ''));
    assert.ok(await pool.runExtra('heapThenWasm', [40, 40]), 'a job within the budget runs');
  } finally { await pool.close(); }
});

test('the queue is bounded and says so with queue_full', async () => {
  // the one thread is held by a job that ends on its own, so the test does not hang on how long a
  // stopped thread's replacement takes to start (timeouts have a test of their own above)
  const pool = new EnginePool({ threads: 1, maxQueue: 2, timeoutMs: 120_000 }, withTestOps);
  try {
    const jobs = [pool.runExtra('block', [1500]), pool.runExtra('echo', [1]), pool.runExtra('echo', [2])];
    await assert.rejects(pool.runExtra('echo', [3]), (e: { code?: string; message?: string }) => e.code === 'queue_full' && /queue is full/.test(e.message ?? ''));
    const settled = await Promise.all(jobs);
    assert.deepEqual(settled, ['done', 1, 2]);
    // room again once the queue has drained
    assert.equal(await pool.runExtra('echo', [4]), 4);
  } finally { await pool.close(); }
});

test('100 concurrent analyses finish with bounded memory', async () => {
  const engine = createEngine({ threads: 2, maxQueue: 128, timeoutMs: 60000 });
  try {
    // both threads warm (tsx, OCCT loaded): the baseline 100 queued jobs are measured against
    await Promise.all([engine.analyze(L_BRACKET), engine.analyze(PLATE)]);
    const warmRss = process.memoryUsage().rss;
    let peakRss = 0, peakFirstHalf = 0;
    let done = 0;
    const sampler = setInterval(() => {
      const rss = process.memoryUsage().rss;
      peakRss = Math.max(peakRss, rss);
      if (done < 50) peakFirstHalf = peakRss;
    }, 20);
    const jobs = Array.from({ length: 100 }, (_, i) => engine.analyze(i % 2 ? L_BRACKET : PLATE).then((d) => { done++; return d; }));
    const designs = await Promise.all(jobs);
    clearInterval(sampler);
    assert.equal(designs.length, 100);
    assert.ok(designs.every((d) => d.status === 'ready' && d.parts.length === 1));
    // identical input gives identical parts whichever thread ran it
    assert.equal(new Set(designs.filter((_, i) => i % 2).map((d) => d.parts[0].id)).size, 1);
    const stats = engine.stats();
    assert.equal(stats.completed, 102, "the 2 warm-up jobs and the 100");
    assert.equal(stats.running + stats.queued, 0);
    // 100 jobs queued at once cost no more than the two running: the queue holds only their inputs
    const mb = (b: number): string => `${(b / 1048576).toFixed(0)} MB`;
    assert.ok(peakRss < warmRss + 256 * 1048576, `peak RSS ${mb(peakRss)} vs ${mb(warmRss)} with two warm threads`);
    // and the second 50 do not grow it: nothing is kept per job
    assert.ok(peakRss <= peakFirstHalf + 64 * 1048576, `peak ${mb(peakFirstHalf)} after 50 jobs, ${mb(peakRss)} after 100`);
  } finally { await engine.close(); }
});

test('large results are transferred out of the worker, not copied; small ones are copied', async () => {
  const pool = new EnginePool({ threads: 1 }, withTestOps);
  try {
    const big = (await pool.runExtra('bytes', [1 << 20])) as { data: Uint8Array };
    assert.equal(big.data.byteLength, 1 << 20);
    assert.equal(big.data[12345], 7);
    assert.equal(await pool.runExtra('lastBytesDetached', []), true, 'the worker no longer holds the 1 MB it sent');
    await pool.runExtra('bytes', [16]);
    assert.equal(await pool.runExtra('lastBytesDetached', []), false, 'a 16-byte result is cheaper to copy');
  } finally { await pool.close(); }
});

test('production files come back from a worker as transferred Uint8Arrays', async () => {
  const engine = createEngine({ threads: 1 });
  try {
    const files = await engine.generateProductionFiles(PLATE, { kinds: ['production_step', 'production_model'] });
    const [partId] = Object.keys(files);
    const step = files[partId].production_step!;
    assert.ok(step instanceof Uint8Array && step.byteLength > 1000);
    assert.match(new TextDecoder().decode(step.subarray(0, 20)), /^ISO-10303-21;/);
    assert.equal(new TextDecoder().decode(files[partId].production_model!.subarray(0, 4)), 'glTF');
  } finally { await engine.close(); }
});

test('DFM and part prices in a worker: their arguments cross the thread, the answer is the in-process one', async () => {
  const engine = createEngine({ threads: 1 });
  try {
    const design = await engine.analyze(L_BRACKET, { fileName: 'l.step', createdAt: '2026-11-23T15:00:00.000Z' });
    const request = { items: [{ design_id: design.id, quantity: 10, quantity_options: [1, 100], configuration: { defaults: { material_id: 'mat_mild_steel_2_0mm' } } }] };
    const context = { now: '2026-11-23T15:00:00.000Z', dfmIds: ['dfm_pool'] };
    const catalog = defaultCatalog();
    assert.deepEqual(await engine.partPrices(request, { [design.id]: design }, catalog, context), partPrices(request, { [design.id]: design }, catalog, context));
    const report = await engine.dfm(design, request.items[0].configuration, catalog, { id: 'dfm_pool', now: context.now });
    assert.equal(report.status, 'ready');
    await assert.rejects(engine.partPrices({ items: [{ ...request.items[0], quantity: 0 }] }, { [design.id]: design }, catalog, context), { code: 'invalid_configuration' });
  } finally { await engine.close(); }
});

test('engine errors keep their code across the thread boundary', async () => {
  const engine = createEngine({ threads: 1 });
  try {
    await assert.rejects(engine.analyze(new TextEncoder().encode('not a step file')), (e: { code?: string }) => e.code === 'invalid_step');
  } finally { await engine.close(); }
});

test('bad options are invalid_configuration; a closed engine takes no jobs', async () => {
  assert.throws(() => createEngine({ threads: 0 }), { code: 'invalid_configuration' });
  assert.throws(() => createEngine({ timeoutMs: -5 }), { code: 'invalid_configuration' });
  const pool = new EnginePool({ threads: 1 }, withTestOps);
  const pending = pool.runExtra('echo', ['last']);
  const closing = pool.close();
  await assert.rejects(pool.runExtra('echo', ['late']), { code: 'queue_full' });
  assert.equal(await pending, 'last', 'graceful close finishes the running job');
  await closing;
});

test('a real file that needs more memory than the limit fails with analysis_failed, not a crash', async () => {
  const big = new Uint8Array(readFileSync(corpusPath('ender3-sheetmetal-enclosure-top.step')));
  const pool = new EnginePool({ threads: 1, maxMemoryMb: 16, timeoutMs: 60000 }, withTestOps);
  try {
    await assert.rejects(pool.run('analyze', [big, {}]), (e: { code?: string; message?: string }) => e.code === 'analysis_failed' && /memory limit/.test(e.message ?? ''));
    assert.equal(await pool.runExtra('echo', ['still here']), 'still here');
  } finally { await pool.close(); }
});

test('a healthy worker whose memory passes the recycle ceiling is replaced after its job, which still succeeds', async () => {
  const engine = createEngine({ threads: 1, recycleMemoryMb: 1, timeoutMs: 60000 });
  try {
    // any worker's JS heap plus WASM memory passes 1 MB once it has analysed a file
    const first = await engine.analyze(L_BRACKET);
    assert.equal(first.status, 'ready');
    assert.ok(engine.stats().recycledWorkers >= 1, `recycled ${engine.stats().recycledWorkers}`);
    const second = await engine.analyze(PLATE);
    assert.equal(second.parts.length, 1, 'the fresh worker analyses the next file');
    assert.ok(engine.stats().recycledWorkers >= 2);
  } finally { await engine.close(); }
  const roomy = createEngine({ threads: 1, timeoutMs: 60000 });
  try {
    await roomy.analyze(L_BRACKET); await roomy.analyze(PLATE);
    assert.equal(roomy.stats().recycledWorkers, 0, 'below the default ceiling a worker is kept');
  } finally { await roomy.close(); }
});

test('once the pool has idled for idleTimeoutMs, threads that ran jobs are retired (their WASM memory goes with them) and fresh ones take the next job', async () => {
  const waitFor = async (what: string, ok: () => boolean): Promise<void> => {
    for (const t0 = Date.now(); !ok(); await new Promise((r) => setTimeout(r, 50))) {
      if (Date.now() - t0 > 10_000) assert.fail(`timed out waiting for ${what}`);
    }
  };
  const pool = new EnginePool({ threads: 2, idleTimeoutMs: 300, timeoutMs: 60000 }, withTestOps);
  try {
    const first = new Set(await Promise.all([pool.runExtra('threadId', []), pool.runExtra('threadId', [])]));
    await waitFor('the threads that ran jobs to be retired', () => pool.stats().retiredThreads === first.size);
    const next = await pool.runExtra('threadId', []);
    assert.ok(!first.has(next), `a fresh thread runs the next job (${String(next)} was one of ${[...first].join(', ')})`);
    await waitFor('the thread that ran it to be retired too', () => pool.stats().retiredThreads === first.size + 1);
    await new Promise((r) => setTimeout(r, 800));
    assert.equal(pool.stats().retiredThreads, first.size + 1, 'fresh threads that ran nothing are left alone');
    assert.equal(pool.stats().recycledWorkers, 0, 'retiring is not recycling');
  } finally { await pool.close(); }
  const kept = new EnginePool({ threads: 1, idleTimeoutMs: 0, timeoutMs: 60000 }, withTestOps);
  try {
    const id = await kept.runExtra('threadId', []);
    await new Promise((r) => setTimeout(r, 600));
    assert.equal(await kept.runExtra('threadId', []), id, 'idleTimeoutMs 0 keeps threads for ever');
    assert.equal(kept.stats().retiredThreads, 0);
  } finally { await kept.close(); }
});
