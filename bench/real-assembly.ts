// Real assemblies (fixtures/real/*.step[.gz], exported by commercial CAD, several instances per part):
// analyze() against the bare occt-import-js read of the same bytes in the same process, alternated so
// both see the same load; the figure is the ratio of their medians (issue #32.6: at most 1.2).
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { analyze, IMPORT_PARAMS, loadOcct } from '@kerf/engine';

const TARGET_RATIO = 1.2;
const median = (xs: number[]): number => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; };
const r2 = (x: number): number => Math.round(x * 100) / 100;

export async function benchRealAssembly(root: string, quick: boolean): Promise<object> {
  const dir = join(root, 'fixtures/real');
  const files = existsSync(dir) ? readdirSync(dir).filter((f) => /\.(step|stp)(\.gz)?$/i.test(f)).sort() : [];
  const occt = await loadOcct();
  const passes = quick ? 1 : 3;
  const rows = [];
  for (const f of files) {
    const raw = readFileSync(join(dir, f));
    const bytes = new Uint8Array(f.endsWith('.gz') ? gunzipSync(raw) : raw);
    const design = await analyze(bytes); // warm-up of both paths
    const bare: number[] = [], full: number[] = [];
    for (let i = 0; i < passes; i++) {
      let t = performance.now();
      occt.ReadStepFile(new Uint8Array(bytes), IMPORT_PARAMS);
      bare.push(performance.now() - t);
      t = performance.now();
      await analyze(bytes);
      full.push(performance.now() - t);
    }
    const row = {
      file: f, kb: Math.round(bytes.length / 1024), unique_parts: design.parts.length, instances: design.part_instances.length,
      import_ms: r2(median(bare)), analyze_ms: r2(median(full)), ratio: r2(median(full) / median(bare)), target_ratio: TARGET_RATIO,
    };
    rows.push(row);
    console.log(`  ${f} (${row.kb} KB, ${row.unique_parts} parts, ${row.instances} instances): import ${row.import_ms} ms, analyze ${row.analyze_ms} ms: ratio ${row.ratio} (target <= ${TARGET_RATIO}; medians of ${passes})`);
  }
  return { rows };
}
