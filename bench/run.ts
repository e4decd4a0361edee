// `npm run bench [-- --only import,throughput,rss,idle-rss,assembly,real-assembly,files,cold,fairness,quotes,steady,brake,nest] [--quick]`
// Prints each sub-bench and writes every figure to bench/results.json (sub-benches not run keep
// their previous figures). Speed lives here, never in tests.
import { availableParallelism, cpus } from 'node:os';
import { readFileSync, readdirSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { argv } from 'node:process';
import { analyze, analyzeModel, createEngine, IMPORT_PARAMS, loadOcct, productionFilesForModel } from '@kerf/engine';
import { generatedAssembly } from './assembly.ts';
import { benchFairness } from './fairness.ts';
import { benchCold } from './cold-start.ts';
import { benchQuotes } from './quotes.ts';
import { benchNest } from './nest.ts';
import { benchSteady } from './steady.ts';
import { benchRealAssembly } from './real-assembly.ts';
import { benchBrake } from './brake.ts';
import { benchIdleRss } from './idle-rss.ts';

const ROOT = new URL('../', import.meta.url).pathname;
const RESULTS = join(ROOT, 'bench/results.json');
const SUBS = ['import', 'throughput', 'rss', 'idle-rss', 'assembly', 'real-assembly', 'files', 'cold', 'fairness', 'quotes', 'steady', 'brake', 'nest'] as const;
type Sub = (typeof SUBS)[number];

function args(): { only: Set<Sub>; quick: boolean } {
  const i = argv.indexOf('--only');
  const list = i >= 0 ? (argv[i + 1] ?? '').split(',').filter(Boolean) : [...SUBS];
  for (const s of list) if (!(SUBS as readonly string[]).includes(s)) { console.error(`unknown sub-bench '${s}'; choose from ${SUBS.join(', ')}`); process.exit(2); }
  return { only: new Set(list as Sub[]), quick: argv.includes('--quick') };
}

const median = (xs: number[]): number => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; };
const mb = (b: number): number => Math.round((b / 1048576) * 10) / 10;
const r2 = (x: number): number => Math.round(x * 100) / 100;

function fixtureFiles(): Array<{ name: string; bytes: Uint8Array }> {
  const dirs = ['fixtures/sheet', 'fixtures/tubes', 'fixtures/assembly', '../shared/corpus/real'];
  const out: Array<{ name: string; bytes: Uint8Array }> = [];
  for (const d of dirs) {
    const dir = join(ROOT, d);
    if (!existsSync(dir)) continue;
    for (const f of readdirSync(dir).filter((x) => /\.(step|stp)$/i.test(x)).sort()) out.push({ name: `${d.split('/').pop()}/${f}`, bytes: new Uint8Array(readFileSync(join(dir, f))) });
  }
  return out;
}

async function timeIt(fn: () => Promise<unknown> | unknown, runs: number): Promise<number> {
  const ts: number[] = [];
  for (let i = 0; i < runs; i++) { const t0 = performance.now(); await fn(); ts.push(performance.now() - t0); }
  return median(ts);
}

/** analyze() vs the bare occt-import-js read of the same file, same process, medians. */
async function benchImport(quick: boolean): Promise<object> {
  const occt = await loadOcct();
  const runs = quick ? 3 : 5;
  const rows: Array<{ file: string; kb: number; import_ms: number; analyze_ms: number; overhead_pct: number; error?: string }> = [];
  for (const f of fixtureFiles()) {
    try { await analyze(f.bytes); } catch { /* warm-up; errors are reported below */ }
    const importMs = await timeIt(() => occt.ReadStepFile(new Uint8Array(f.bytes), IMPORT_PARAMS), runs);
    let analyzeMs = NaN, error: string | undefined;
    try { analyzeMs = await timeIt(() => analyze(f.bytes), runs); } catch (e) { error = (e as { code?: string }).code ?? String(e); }
    const row = { file: f.name, kb: Math.round(f.bytes.length / 1024), import_ms: r2(importMs), analyze_ms: r2(analyzeMs), overhead_pct: r2(((analyzeMs - importMs) / importMs) * 100), ...(error ? { error } : {}) };
    rows.push(row);
    console.log(`  ${row.file.padEnd(52)} import ${row.import_ms.toFixed(1).padStart(8)} ms  analyze ${row.analyze_ms.toFixed(1).padStart(8)} ms  +${row.overhead_pct.toFixed(0)} %${error ? '  ' + error : ''}`);
  }
  const ok = rows.filter((r) => !r.error);
  const totalImport = ok.reduce((s, r) => s + r.import_ms, 0), totalAnalyze = ok.reduce((s, r) => s + r.analyze_ms, 0);
  const summary = { files: rows.length, total_import_ms: r2(totalImport), total_analyze_ms: r2(totalAnalyze), overall_overhead_pct: r2(((totalAnalyze - totalImport) / totalImport) * 100), median_overhead_pct: r2(median(ok.map((r) => r.overhead_pct))), target_overhead_pct: 30 };
  console.log(`  overall: analysis adds ${summary.overall_overhead_pct} % to import (median ${summary.median_overhead_pct} %, target <= 30 %)`);
  return { summary, rows };
}

/** Same job list through a 1-thread pool and an all-cores pool, cold and in steady state.
 * A new worker spends its first ~100 analyses with V8 compiling occt-import-js's hot WASM functions
 * to optimized code on background threads. In a 1-thread pool that compiler runs on the idle second
 * core for free, so the cold ratio understates what a long-lived service gets; the steady-state
 * passes, timed after every thread has analysed the whole list once more, are the service's real
 * throughput. Both are reported, with the CPU the process used, so neither hides the other. */
const STEADY_PASSES = 7; // the median ratio is reported: one pass is too noisy on a shared VM

async function benchThroughput(quick: boolean): Promise<object> {
  const files = fixtureFiles().filter((f) => f.name.startsWith('sheet/') || f.name.startsWith('tubes/'));
  const jobs = quick ? 40 : 120;
  const list = Array.from({ length: jobs }, (_, i) => files[i % files.length].bytes);
  type Pass = { seconds: number; parts_per_second: number; cpu_cores: number };
  const pass = async (engine: ReturnType<typeof createEngine>): Promise<Pass> => {
    const t0 = performance.now(), c0 = process.cpuUsage();
    const designs = await Promise.all(list.map((b) => engine.analyze(b).catch(() => null)));
    const seconds = (performance.now() - t0) / 1000, cpu = process.cpuUsage(c0);
    const parts = designs.reduce((s, d) => s + (d ? d.parts.reduce((n, p) => n + p.instance_count, 0) : 0), 0);
    return { seconds: r2(seconds), parts_per_second: r2(parts / seconds), cpu_cores: r2((cpu.user + cpu.system) / 1e6 / seconds) };
  };
  const cores = availableParallelism();
  const target = cores === 2 ? 1.8 : 0.9 * cores;
  const one = createEngine({ threads: 1, maxQueue: jobs, timeoutMs: 300000 });
  const all = createEngine({ threads: cores, maxQueue: jobs, timeoutMs: 300000 });
  try {
    // thread start, tsx and WASM instantiation are not throughput
    for (const e of [one, all]) await Promise.all(Array.from({ length: e.stats().threads }, () => e.analyze(list[0]).catch(() => null)));
    const cold = { one: await pass(one), all: await pass(all) };
    // until every thread has analysed the whole list once more
    await pass(one);
    for (let k = 0; k < cores; k++) await pass(all);
    // the two pools take turns, so a machine that drifts slower or faster during the run moves both
    const pairs: Array<{ one: Pass; all: Pass; ratio: number }> = [];
    for (let k = 0; k < STEADY_PASSES; k++) {
      const p1 = await pass(one), pn = await pass(all);
      pairs.push({ one: p1, all: pn, ratio: r2(pn.parts_per_second / p1.parts_per_second) });
    }
    const mid = [...pairs].sort((x, y) => x.ratio - y.ratio)[Math.floor(STEADY_PASSES / 2)];
    const line = (label: string, p: Pass): void => console.log(`  ${label.padEnd(18)}: ${p.parts_per_second} parts/s (${jobs} files in ${p.seconds} s, ${p.cpu_cores} cores busy)`);
    line('1 thread cold', cold.one); line(`${cores} threads cold`, cold.all);
    line('1 thread steady', mid.one); line(`${cores} threads steady`, mid.all);
    const coldRatio = r2(cold.all.parts_per_second / cold.one.parts_per_second);
    console.log(`  scaling ratio ${mid.ratio} on ${cores} cores in steady state (median of ${STEADY_PASSES}: ${pairs.map((p) => p.ratio).join(', ')}; target >= ${target}); cold workers ${coldRatio}`);
    return { cores, cpu: cpus()[0]?.model ?? 'unknown', jobs, one_thread: { cold: cold.one, steady: mid.one }, all_cores: { threads: cores, cold: cold.all, steady: mid.all }, scaling_ratio: mid.ratio, steady_ratios: pairs.map((p) => p.ratio), cold_scaling_ratio: coldRatio, target };
  } finally { await Promise.all([one.close(), all.close()]); }
}

/** RSS over 500 consecutive in-process analyses: flat after warm-up. The warm-up is one pass over the
 * whole file list: occt's WASM memory grows to fit the largest file once and never shrinks, which is
 * a high-water mark, not a leak. Samples are taken after a full GC (`npm run bench` passes --expose-gc). */
async function benchRss(quick: boolean): Promise<object> {
  const files = fixtureFiles().filter((f) => f.name.startsWith('sheet/') || f.name.startsWith('tubes/'));
  const measured = quick ? 200 : 500, warmup = files.length, every = 25;
  if (typeof globalThis.gc !== 'function') console.log('  (run with --expose-gc for samples after a full GC)');
  const samples: Array<{ analyses: number; rss_mb: number; heap_mb: number }> = [];
  for (let i = 1; i <= warmup + measured; i++) {
    try { await analyze(files[i % files.length].bytes); } catch { /* negative fixtures refuse or fail: still work done */ }
    if (i === warmup || (i > warmup && (i - warmup) % every === 0)) {
      globalThis.gc?.();
      const m = process.memoryUsage();
      samples.push({ analyses: i - warmup, rss_mb: mb(m.rss), heap_mb: mb(m.heapUsed) });
    }
  }
  const base = samples[0];
  const last = samples[samples.length - 1];
  const growth = r2(((last.rss_mb - base.rss_mb) / base.rss_mb) * 100);
  console.log(`  RSS after a ${warmup}-file warm-up: ${base.rss_mb} MB; after ${measured} more analyses: ${last.rss_mb} MB; growth ${growth} % (target < 10 %); JS heap ${base.heap_mb} -> ${last.heap_mb} MB`);
  return { analyses: measured, warmup, rss_after_warmup_mb: base.rss_mb, rss_final_mb: last.rss_mb, growth_pct: growth, heap_after_warmup_mb: base.heap_mb, heap_final_mb: last.heap_mb, samples };
}

/** A generated assembly of 200+ solids: import alone and full analysis, time and memory. */
async function benchAssembly(): Promise<object> {
  const solids = 210;
  const bytes = await generatedAssembly(solids);
  const occt = await loadOcct();
  occt.ReadStepFile(new Uint8Array(bytes), IMPORT_PARAMS); // warm-up: first read pays one-time OCCT set-up
  const before = process.memoryUsage().rss;
  const tImport = await timeIt(() => occt.ReadStepFile(new Uint8Array(bytes), IMPORT_PARAMS), 1);
  const t0 = performance.now();
  const design = await analyze(bytes);
  const analyzeMs = performance.now() - t0;
  const after = process.memoryUsage().rss;
  const out = { solids, kb: Math.round(bytes.length / 1024), unique_parts: design.parts.length, instances: design.part_instances.length, import_ms: r2(tImport), analyze_ms: r2(analyzeMs), rss_before_mb: mb(before), rss_after_mb: mb(after) };
  console.log(`  ${solids} solids (${out.kb} KB): ${out.unique_parts} unique parts, ${out.instances} instances; import ${out.import_ms} ms, analyze ${out.analyze_ms} ms; RSS ${out.rss_before_mb} -> ${out.rss_after_mb} MB`);
  return out;
}

/** Time per production file kind (median over parts of the sheet and tube fixtures). */
async function benchFiles(): Promise<object> {
  const files = fixtureFiles().filter((f) => /^(sheet|tubes)\//.test(f.name));
  const perKind = new Map<string, number[]>();
  const sizes = new Map<string, number[]>();
  for (const f of files) {
    let model;
    try { model = await analyzeModel(f.bytes); } catch { continue; }
    await productionFilesForModel(f.bytes, model.parts, {
      onFile: (e) => { (perKind.get(e.kind) ?? perKind.set(e.kind, []).get(e.kind)!).push(e.ms); (sizes.get(e.kind) ?? sizes.set(e.kind, []).get(e.kind)!).push(e.bytes); },
    }).catch((e) => console.log(`  ${f.name}: ${(e as Error).message}`));
  }
  const rows = [...perKind.entries()].map(([kind, ms]) => ({ kind, parts: ms.length, median_ms: r2(median(ms)), max_ms: r2(Math.max(...ms)), median_kb: r2(median(sizes.get(kind)!) / 1024) }));
  for (const r of rows) console.log(`  ${r.kind.padEnd(28)} ${String(r.parts).padStart(3)} parts  median ${r.median_ms.toFixed(1).padStart(7)} ms  max ${r.max_ms.toFixed(1).padStart(7)} ms  ${r.median_kb} KB`);
  return { rows };
}

async function main(): Promise<void> {
  const { only, quick } = args();
  const results: Record<string, unknown> = existsSync(RESULTS) ? JSON.parse(readFileSync(RESULTS, 'utf8')) : {};
  results.environment = { node: process.version, cores: availableParallelism(), cpu: cpus()[0]?.model ?? 'unknown', date: new Date().toISOString(), quick };
  const benches: Record<Sub, () => Promise<object>> = {
    import: () => benchImport(quick), throughput: () => benchThroughput(quick), rss: () => benchRss(quick), 'idle-rss': () => benchIdleRss(ROOT, quick), assembly: () => benchAssembly(), 'real-assembly': () => benchRealAssembly(ROOT, quick), files: () => benchFiles(), cold: () => benchCold(ROOT, quick), fairness: () => benchFairness(quick), quotes: () => benchQuotes(quick), steady: () => benchSteady(ROOT, quick), brake: () => benchBrake(ROOT, quick), nest: () => benchNest(ROOT, quick),
  };
  for (const s of SUBS) {
    if (!only.has(s)) continue;
    console.log(`\n== ${s}`);
    results[s] = await benches[s]();
    writeFileSync(RESULTS, JSON.stringify(results, null, 2) + '\n');
  }
  console.log(`\nresults: ${RESULTS}`);
}

await main();
