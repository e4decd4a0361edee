// Cold start of the kerf CLI (issue #18, target 1: `kerf analyze` of one small part <= 1.0 s wall).
// Every figure is a new process, as a user runs it: wall time from spawn to exit, median of the runs.
// In the same run: the commands through tsx (the TypeScript transpiled at run time, as the CLI shipped
// before the build) and compiled (service/dist, what `kerf` runs now); then, in plain node scripts
// on the built engine, what each startup measure is worth on its own: the WASM compile overlapped with
// loading the engine, and V8's Liftoff-only flag, for one part and for 20.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';

const MATERIAL = 'mat_mild_steel_2_0mm';
const PART = 'fixtures/sheet/l_t2_r2.step'; // a 2 mm L bracket, 30 KB
const median = (xs: number[]): number => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; };
const r0 = (x: number): number => Math.round(x);

/** Prints the process's CPU time (all threads) on exit: on a busy machine wall time varies with the load, CPU time much less. */
const CPU_PROBE = `data:text/javascript,process.on('exit',()=>{const u=process.cpuUsage();process.stderr.write('\\nbench-cpu-ms '+(u.user+u.system)/1000+'\\n')})`;

/** Wall and CPU ms of one process; throws with its stderr when it fails. */
function measure(root: string, args: string[]): { wall: number; cpu: number } {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, ['--import', CPU_PROBE, ...args], { cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  const wall = performance.now() - t0;
  if (r.status !== 0) throw new Error(`node ${args.join(' ')} exited ${r.status}: ${r.stderr.slice(0, 500)}`);
  return { wall, cpu: Number(/bench-cpu-ms ([\d.]+)/.exec(r.stderr)?.[1] ?? NaN) };
}

function medianRun(root: string, args: string[], runs: number): { median_ms: number; min_ms: number; cpu_ms: number } {
  const rows = Array.from({ length: runs }, () => measure(root, args));
  return { median_ms: r0(median(rows.map((r) => r.wall))), min_ms: r0(Math.min(...rows.map((r) => r.wall))), cpu_ms: r0(median(rows.map((r) => r.cpu))) };
}

/** A node script on the built engine that prints {first, all} ms: the first part, then 19 more. */
function engineScript(root: string, overlap: boolean, parts: number): string {
  const engine = JSON.stringify(join(root, 'engine/dist/src/index.js'));
  const warmUp = JSON.stringify(join(root, 'engine/dist/src/warm-up.js'));
  return `
    import { readdirSync, readFileSync } from 'node:fs';
    const t0 = performance.now();
    ${overlap ? `(await import(${warmUp})).warmUp();` : ''}
    const { analyze } = await import(${engine});
    const dir = ${JSON.stringify(join(root, 'fixtures/sheet'))};
    const files = [${JSON.stringify(PART.split('/').pop())}, ...readdirSync(dir).filter((f) => f.endsWith('.step')).sort()].slice(0, ${parts});
    let first = 0;
    for (const f of files) { await analyze(new Uint8Array(readFileSync(dir + '/' + f))).catch(() => null); first ||= performance.now() - t0; }
    const cpu = process.cpuUsage();
    console.log(JSON.stringify({ first, all: performance.now() - t0, cpu: (cpu.user + cpu.system) / 1000 }));
  `;
}

function engineRun(root: string, flags: string[], script: string, runs: number): { first_ms: number; all_ms: number; cpu_ms: number } {
  const rows = Array.from({ length: runs }, () => {
    const r = spawnSync(process.execPath, [...flags, '--input-type=module', '-e', script], { cwd: root, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(r.stderr.slice(0, 500));
    return JSON.parse(r.stdout) as { first: number; all: number; cpu: number };
  });
  return { first_ms: r0(median(rows.map((r) => r.first))), all_ms: r0(median(rows.map((r) => r.all))), cpu_ms: r0(median(rows.map((r) => r.cpu))) };
}

export async function benchCold(root: string, quick: boolean): Promise<object> {
  const runs = quick ? 3 : 5;
  // what `kerf` runs: build first (incremental; a no-op when dist/ is current)
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  const build = spawnSync(process.execPath, [tsc, '-b', 'tsconfig.build.json'], { cwd: root, encoding: 'utf8' });
  if (build.status !== 0) console.log(`  (the build reported errors; timing what it emitted)\n${build.stdout.split('\n').slice(0, 5).join('\n')}`);

  const commands: Record<string, string[]> = {
    'analyze (one small part)': ['analyze', PART],
    'dfm (same part)': ['dfm', PART, '--configuration', JSON.stringify({ defaults: { material_id: MATERIAL } })],
    'catalog materials': ['catalog', 'materials'],
  };
  const cli: Array<{ command: string; tsx: object; compiled: object; ratio: number }> = [];
  for (const [command, args] of Object.entries(commands)) {
    const tsx = medianRun(root, ['--import', 'tsx', 'service/src/cli.ts', ...args], runs);
    const compiled = medianRun(root, ['service/dist/src/cli.js', ...args], runs);
    const row = { command, tsx, compiled, ratio: Math.round((tsx.median_ms / compiled.median_ms) * 100) / 100 };
    cli.push(row);
    console.log(`  kerf ${command.padEnd(26)} tsx ${String(tsx.median_ms).padStart(6)} ms (CPU ${tsx.cpu_ms})   compiled ${String(compiled.median_ms).padStart(6)} ms (min ${compiled.min_ms}, CPU ${compiled.cpu_ms})   ${row.ratio}x`);
  }
  console.log('  target: kerf analyze of one small part <= 1000 ms wall');

  const variants: Array<[string, string[], boolean]> = [
    ['TurboFan tier-up, compile after loading', [], false],
    ['TurboFan tier-up, compile overlapped', [], true],
    ['Liftoff only, compile overlapped (the CLI)', ['--liftoff-only'], true],
  ];
  const engine: Array<{ variant: string; one_part: object; twenty_parts: object }> = [];
  for (const [variant, flags, overlap] of variants) {
    const one = engineRun(root, flags, engineScript(root, overlap, 1), runs);
    const twenty = engineRun(root, flags, engineScript(root, overlap, 20), quick ? 1 : 3);
    engine.push({ variant, one_part: one, twenty_parts: twenty });
    console.log(`  ${variant.padEnd(44)} 1 part: ${String(one.all_ms).padStart(5)} ms (CPU ${one.cpu_ms})   20 parts: first ${twenty.first_ms} ms, all ${twenty.all_ms} ms (CPU ${twenty.cpu_ms})`);
  }
  return { cli, engine, target_analyze_ms: 1000 };
}
