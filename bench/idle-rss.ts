// Memory given back (issue #33.12): a process's RSS fresh (engine created, no job run), at the end of
// a burst of mixed analyses on every engine thread, and after it has been idle, as a ratio to fresh
// (target <= 1.5). Twice, each in a new process: with idle threads retired (the pool's default
// behaviour, with a short idle timeout so the bench does not wait 20 s) and with them kept for ever
// (idleTimeoutMs 0, how the pool behaved before), so the run shows what retiring is worth; and retired
// under V8's --liftoff-only (no optimizing tier for the WASM): what is left after retiring is mostly
// the optimizing compiler's freed but fragmented malloc memory; and retired under a fixed glibc mmap
// threshold (MALLOC_MMAP_SETTINGS), which hands such memory back when it is freed (docs/operations.md
// "Memory given back when idle"). Each row also gives the burst's wall time: what the setting costs.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { argv } from 'node:process';
import { createEngine } from '@kerf/engine';

const THREADS = 2;
/** The idle timeout the "retired" run uses, ms */
const IDLE_TIMEOUT_MS = 2000;
/** How long after the burst the idle figure is taken, beyond the idle timeout, ms */
const SETTLE_MS = 1500;
const mb = (b: number): number => Math.round((b / 1048576) * 10) / 10;
const r2 = (x: number): number => Math.round(x * 100) / 100;
/** glibc: blocks of 64 KB and more are mapped on their own and unmapped when freed (a fixed threshold
 * also stops glibc raising it after each free, which is what leaves large freed blocks in its heaps) */
export const MALLOC_MMAP_SETTINGS = { MALLOC_MMAP_THRESHOLD_: '65536', MALLOC_TRIM_THRESHOLD_: '65536' };

interface Run { idle_timeout_ms: number; fresh_mb: number; peak_mb: number; idle_mb: number; idle_ratio: number; analyses: number; burst_s: number; retired_threads: number }

function files(root: string): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (const d of ['fixtures/sheet', 'fixtures/tubes', 'fixtures/assembly']) {
    for (const f of readdirSync(join(root, d)).filter((x) => /\.(step|stp)$/i.test(x)).sort()) out.push(new Uint8Array(readFileSync(join(root, d, f))));
  }
  return out;
}

const gc = (): void => { (globalThis as { gc?: () => void }).gc?.(); };

/** One run, in this (fresh) process. */
async function child(root: string, idleTimeoutMs: number, rounds: number): Promise<Run> {
  // the inputs are read first: the bench's own buffers are no part of what the pool keeps
  const all = files(root);
  const engine = createEngine({ threads: THREADS, idleTimeoutMs, timeoutMs: 120_000 });
  await new Promise((r) => setTimeout(r, 500));
  gc();
  const fresh = process.memoryUsage().rss;
  let peak = fresh;
  const sample = setInterval(() => { peak = Math.max(peak, process.memoryUsage().rss); }, 100);
  const t0 = performance.now();
  let analyses = 0;
  for (let i = 0; i < rounds; i++) {
    // every file of the round at once: both threads busy, the queue behind them
    await Promise.all(all.map((b) => engine.analyze(b).then(() => { analyses++; }, () => { analyses++; })));
  }
  const burstS = r2((performance.now() - t0) / 1000);
  clearInterval(sample);
  peak = Math.max(peak, process.memoryUsage().rss);
  const until = Date.now() + (idleTimeoutMs || IDLE_TIMEOUT_MS) + SETTLE_MS;
  while (Date.now() < until) await new Promise((r) => setTimeout(r, 100));
  gc();
  const idle = process.memoryUsage().rss;
  const retiredThreads = engine.stats().retiredThreads;
  await engine.close();
  return { idle_timeout_ms: idleTimeoutMs, fresh_mb: mb(fresh), peak_mb: mb(peak), idle_mb: mb(idle), idle_ratio: r2(idle / fresh), analyses, burst_s: burstS, retired_threads: retiredThreads };
}

function spawnRun(root: string, idleTimeoutMs: number, rounds: number, flags: string[] = [], env: Record<string, string> = {}): Run {
  const r = spawnSync(process.execPath, [...flags, '--expose-gc', '--import', 'tsx', 'bench/idle-rss.ts', '--child', String(idleTimeoutMs), String(rounds)], { cwd: root, encoding: 'utf8', maxBuffer: 16 * 1024 * 1024, env: { ...process.env, ...env } });
  const line = r.stdout.split('\n').find((l) => l.startsWith('{'));
  if (r.status !== 0 || !line) throw new Error(`idle-rss child exited ${r.status}: ${r.stderr.slice(0, 800)}`);
  return JSON.parse(line) as Run;
}

export async function benchIdleRss(root: string, quick: boolean): Promise<object> {
  const rounds = quick ? 1 : 3;
  const retired = spawnRun(root, IDLE_TIMEOUT_MS, rounds);
  const kept = spawnRun(root, 0, rounds);
  const liftoff = spawnRun(root, IDLE_TIMEOUT_MS, rounds, ['--liftoff-only']);
  const mmap = spawnRun(root, IDLE_TIMEOUT_MS, rounds, [], MALLOC_MMAP_SETTINGS);
  for (const [name, r] of [['idle threads retired', retired], ['threads kept (before)', kept], ['retired, --liftoff-only', liftoff], ['retired, malloc mmap 64K', mmap]] as const) {
    console.log(`  ${name.padEnd(24)} fresh ${r.fresh_mb} MB, after ${r.analyses} analyses in ${r.burst_s} s ${r.peak_mb} MB peak, idle ${r.idle_mb} MB: ${r.idle_ratio}x fresh (${r.retired_threads} threads retired)`);
  }
  console.log(`  idle RSS / fresh RSS: ${retired.idle_ratio}, with the malloc settings ${mmap.idle_ratio} (target <= 1.5; threads kept: ${kept.idle_ratio}; retired under --liftoff-only: ${liftoff.idle_ratio})`);
  return { threads: THREADS, rounds, idle_ratio: retired.idle_ratio, idle_ratio_malloc_mmap: mmap.idle_ratio, target_ratio: 1.5, retired, kept, liftoff_only: liftoff, malloc_mmap: mmap };
}

if (argv[2] === '--child') {
  const root = new URL('../', import.meta.url).pathname;
  console.log(JSON.stringify(await child(root, Number(argv[3]), Number(argv[4]))));
}
