// Steady per-file analysis (issue #18, target 2): 20 small generated sheet, tube and assembly
// fixtures analysed one after another in one process, after a warm-up pass, against the bare
// occt-import-js read of the same files measured in the same passes (what analysis adds to the
// import). The baseline is the read through occt-import-js's stock glue, what the issue compares
// with; the engine reads through a faster equivalent of that glue (engine/src/import/occt-glue.ts),
// timed in its own row. With KERF_BENCH_BEFORE=<checkout>/engine/src/index.ts an older engine (a `git worktree`
// of an earlier commit) is loaded beside this one and timed in the same passes, so the before/after
// ratio comes from one run on one machine state. Times are CPU time of the process (process.cpuUsage):
// on this shared 2-core VM wall time per file varies 2x with the other tenants' load, CPU time by a
// few per cent.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { analyze, IMPORT_PARAMS, loadOcct } from '@kerf/engine';

/** The set: 11 sheet parts, 7 tubes, 2 small assemblies (the kinds the issue timed, 16-184 KB). */
export const STEADY_FILES = [
  'sheet/l_t2_r2.step', 'sheet/u_t1.5_r1.5.step', 'sheet/z_t2_r3.step', 'sheet/hat_t2_r2.4.step',
  'sheet/tray_t1.5_r1.5.step', 'sheet/plate_t3_holes_slot.step', 'sheet/l_t3_r3_countersunk.step',
  'sheet/hem_open_t3_r3.step', 'sheet/offset_t1.5_r2_45.step', 'sheet/mixed_angles_t2_r2.step',
  'sheet/c_purlin_t2_r3.step',
  'tubes/round-32x2-l100.step', 'tubes/round-50x3-l250-holes.step', 'tubes/square-40x3-r4.5-l300.step',
  'tubes/rect-60x40x3-r6-mitre45.step', 'tubes/rect-60x30x2.5-r5-l400-slots.step',
  'tubes/square-40x2-sharp-l200-cross-hole.step', 'tubes/round-42.4x2.6-miter45-both.step',
  'assembly/asm_achiral_mirror.step', 'assembly/asm_instanced_products.step',
];

const median = (xs: number[]): number => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; };
const r1 = (x: number): number => Math.round(x * 10) / 10;

type Analyze = (bytes: Uint8Array) => Promise<unknown>;

export async function benchSteady(root: string, quick: boolean): Promise<object> {
  const files = STEADY_FILES.map((f) => ({ name: f, bytes: new Uint8Array(readFileSync(join(root, 'fixtures', f))) }));
  const stock = await loadOcct('stock'), fast = await loadOcct();
  const beforePath = process.env.KERF_BENCH_BEFORE;
  const before: Analyze | null = beforePath ? ((await import(beforePath)) as { analyze: Analyze }).analyze : null;
  const runs: Array<{ label: string; run: (b: Uint8Array) => unknown }> = [
    { label: 'import', run: (b) => stock.ReadStepFile(new Uint8Array(b), IMPORT_PARAMS) },
    { label: 'import_fast', run: (b) => fast.ReadStepFile(new Uint8Array(b), IMPORT_PARAMS) },
    { label: 'analyze', run: (b) => analyze(b) },
    ...(before ? [{ label: 'before', run: (b: Uint8Array) => before(b) }] : []),
  ];
  // warm-up: V8 tiers up the hot WASM and JS over the first passes; the service runs warm
  for (let k = 0; k < (quick ? 1 : 2); k++) for (const r of runs) for (const f of files) await r.run(f.bytes);
  const passes = quick ? 3 : 7;
  // per run, per file: ms of each pass; the runs alternate within a pass so machine drift moves all
  const ms = new Map(runs.map((r) => [r.label, files.map(() => [] as number[])]));
  const totals = new Map(runs.map((r) => [r.label, [] as number[]]));
  const walls = new Map(runs.map((r) => [r.label, [] as number[]]));
  for (let p = 0; p < passes; p++) {
    for (const r of runs) {
      let sum = 0;
      const w0 = performance.now();
      for (let i = 0; i < files.length; i++) {
        const c0 = process.cpuUsage();
        await r.run(files[i].bytes);
        const c = process.cpuUsage(c0), t = (c.user + c.system) / 1000;
        ms.get(r.label)![i].push(t);
        sum += t;
      }
      totals.get(r.label)!.push(sum);
      walls.get(r.label)!.push(performance.now() - w0);
    }
  }
  const perFile = (label: string): number[] => ms.get(label)!.map(median);
  const imp = perFile('import'), impFast = perFile('import_fast'), ana = perFile('analyze');
  const overheads = files.map((_, i) => ((ana[i] - imp[i]) / imp[i]) * 100);
  const total = (label: string): number => median(totals.get(label)!);
  const wall = (label: string): number => median(walls.get(label)!);
  const out: Record<string, unknown> = {
    files: files.length, passes,
    import_total_ms: r1(total('import')), import_fast_total_ms: r1(total('import_fast')), analyze_total_ms: r1(total('analyze')),
    import_fast_speedup: Math.round((total('import') / total('import_fast')) * 100) / 100,
    wall_ms: Object.fromEntries(runs.map((r) => [r.label, r1(wall(r.label))])),
    overall_overhead_pct: r1(((total('analyze') - total('import')) / total('import')) * 100),
    overall_overhead_over_fast_import_pct: r1(((total('analyze') - total('import_fast')) / total('import_fast')) * 100),
    median_overhead_pct: r1(median(overheads)), target_median_overhead_pct: 10,
    rows: files.map((f, i) => ({ file: f.name, import_ms: r1(imp[i]), import_fast_ms: r1(impFast[i]), analyze_ms: r1(ana[i]), overhead_pct: r1(overheads[i]), ...(before ? { before_ms: r1(perFile('before')[i]) } : {}) })),
  };
  for (const row of out.rows as Array<Record<string, number | string>>) {
    console.log(`  ${String(row.file).padEnd(44)} import ${String(row.import_ms).padStart(6)} ms  fast glue ${String(row.import_fast_ms).padStart(6)} ms  analyze ${String(row.analyze_ms).padStart(6)} ms  +${row.overhead_pct} %${before ? `  before ${row.before_ms} ms` : ''}`);
  }
  console.log(`  ${files.length} files, median of ${passes} passes, CPU ms: import ${out.import_total_ms} ms (fast glue ${out.import_fast_total_ms} ms, ${out.import_fast_speedup}x), analyze ${out.analyze_total_ms} ms; analysis adds ${out.overall_overhead_pct} % overall (${out.overall_overhead_over_fast_import_pct} % over the fast-glue read), median ${out.median_overhead_pct} % per file (target <= 10 %); wall ms ${JSON.stringify(out.wall_ms)}`);
  if (before) {
    out.before = beforePath;
    out.before_total_ms = r1(total('before'));
    out.speedup = Math.round((total('before') / total('analyze')) * 100) / 100;
    console.log(`  before (${beforePath}): ${out.before_total_ms} ms; speed-up ${out.speedup}x (target >= 1.5x)`);
  }
  return out;
}
