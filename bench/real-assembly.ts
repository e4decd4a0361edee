// Real assemblies (fixtures/real/*.step[.gz], exported by commercial CAD, several instances per part):
// analyze() against the bare occt-import-js read of the same bytes in the same process, alternated so
// both see the same load; the figure is the ratio of their medians (issue #32.6: at most 1.2).
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { loadavg } from 'node:os';
import { gunzipSync } from 'node:zlib';
import { analyze, IMPORT_PARAMS, loadOcct } from '@kerf/engine';

const TARGET_RATIO = 1.2;
const median = (xs: number[]): number => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; };
const r2 = (x: number): number => Math.round(x * 100) / 100;
const cpuMs = (): number => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };

export async function benchRealAssembly(root: string, quick: boolean): Promise<object> {
  const dir = join(root, 'fixtures/real');
  const files = existsSync(dir) ? readdirSync(dir).filter((f) => /\.(step|stp)(\.gz)?$/i.test(f)).sort() : [];
  const occt = await loadOcct();
  // BENCH_REAL_ASSEMBLY_PASSES: more alternated passes where the machine is loaded (medians of more samples)
  const passes = Number(process.env.BENCH_REAL_ASSEMBLY_PASSES) || (quick ? 1 : 3);
  const rows = [];
  for (const f of files) {
    const raw = readFileSync(join(dir, f));
    const bytes = new Uint8Array(f.endsWith('.gz') ? gunzipSync(raw) : raw);
    const design = await analyze(bytes); // warm-up of both paths
    const bare: number[] = [], full: number[] = [], bareCpu: number[] = [], fullCpu: number[] = [];
    for (let i = 0; i < passes; i++) {
      let t = performance.now(), c = cpuMs();
      occt.ReadStepFile(new Uint8Array(bytes), IMPORT_PARAMS);
      bare.push(performance.now() - t); bareCpu.push(cpuMs() - c);
      t = performance.now(); c = cpuMs();
      await analyze(bytes);
      full.push(performance.now() - t); fullCpu.push(cpuMs() - c);
    }
    const row = {
      file: f, kb: Math.round(bytes.length / 1024), unique_parts: design.parts.length, instances: design.part_instances.length,
      import_ms: r2(median(bare)), analyze_ms: r2(median(full)), ratio: r2(median(full) / median(bare)), target_ratio: TARGET_RATIO,
      // the process's CPU time (every thread: the GC's helpers too) for the same calls: on a loaded
      // machine the wall clock counts the time other processes held the cores, this does not
      import_cpu_ms: r2(median(bareCpu)), analyze_cpu_ms: r2(median(fullCpu)), cpu_ratio: r2(median(fullCpu) / median(bareCpu)),
      load_average: r2(loadavg()[0]),
    };
    rows.push(row);
    console.log(`  ${f} (${row.kb} KB, ${row.unique_parts} parts, ${row.instances} instances): import ${row.import_ms} ms, analyze ${row.analyze_ms} ms: ratio ${row.ratio} (target <= ${TARGET_RATIO}; medians of ${passes}); CPU time: import ${row.import_cpu_ms} ms, analyze ${row.analyze_cpu_ms} ms: ratio ${row.cpu_ratio}; load average ${row.load_average}`);
  }
  return { rows };
}
