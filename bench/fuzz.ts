// `npm run fuzz [-- --runs N] [--seed S] [--threads T] [--timeout-ms MS] [--out DIR]`
// Mutates real STEP files (fixtures and the corpus) and runs them through the worker pool, the way the
// service would meet hostile uploads. Every outcome must be a design or an EngineError with one of the
// engine's codes; anything else (a JS TypeError surfacing as analysis_failed, a NaN in a design) is a
// bug, and so is a timeout, which the pool contains but a user still waits for. Such inputs are saved
// to DIR with how they were made. Deterministic for a seed, except which worker runs which job.
import { mkdirSync, readFileSync, readdirSync, existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { argv } from 'node:process';
import { availableParallelism } from 'node:os';
import { createEngine, type Design } from '@kerf/engine';

const ROOT = new URL('../', import.meta.url).pathname;

function option(name: string, fallback: number): number {
  const i = argv.indexOf(`--${name}`);
  const v = i >= 0 ? Number(argv[i + 1]) : fallback;
  if (!Number.isFinite(v) || v < 0) { console.error(`--${name} must be a number`); process.exit(2); }
  return v;
}
const runs = option('runs', 200), threads = option('threads', availableParallelism()), timeoutMs = option('timeout-ms', 60_000);
let seed = option('seed', 1) || 1;
const outDir = argv.includes('--out') ? argv[argv.indexOf('--out') + 1] : '/tmp/kerf-fuzz';

// a small LCG: the same seed gives the same mutations on every machine
const rnd = (): number => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648; };
const pick = <T>(a: T[]): T => a[Math.floor(rnd() * a.length)];

function sources(): Array<{ name: string; text: string }> {
  const out: Array<{ name: string; text: string }> = [];
  for (const d of ['fixtures/sheet', 'fixtures/tubes', '../shared/corpus/real']) {
    const dir = join(ROOT, d);
    if (!existsSync(dir)) continue;
    for (const f of readdirSync(dir).filter((x) => /\.(step|stp)$/i.test(x)).sort()) out.push({ name: `${d.split('/').pop()}/${f}`, text: readFileSync(join(dir, f), 'latin1') });
  }
  return out;
}

const NUMBER = /-?\d+\.\d*(E[-+]?\d+)?/g;

/** One mutation of a STEP text: what a broken exporter, a bad transfer or a hostile user produces. */
function mutate(text: string): { text: string; how: string } {
  const lines = text.split('\n');
  const data = lines.findIndex((l) => l.startsWith('DATA;')) + 1;
  const at = (): number => data + Math.floor(rnd() * Math.max(1, lines.length - data - 2));
  const i = at();
  switch (Math.floor(rnd() * 6)) {
    case 0: { // move one coordinate a little or a lot
      const m = [...lines[i].matchAll(NUMBER)];
      if (m.length === 0) return mutate(text);
      const mm = pick(m);
      const v = Number(mm[0]) + (rnd() - 0.5) * pick([0.001, 0.1, 2, 50]);
      lines[i] = lines[i].slice(0, mm.index) + v.toFixed(6) + lines[i].slice(mm.index! + mm[0].length);
      return { text: lines.join('\n'), how: `number on line ${i + 1}` };
    }
    case 1: { // point a reference at another entity
      const m = [...lines[i].matchAll(/#\d+/g)].slice(1);
      if (m.length === 0) return mutate(text);
      const mm = pick(m);
      const ids = [...text.matchAll(/^#(\d+)/gm)].map((x) => x[1]);
      lines[i] = lines[i].slice(0, mm.index) + '#' + pick(ids) + lines[i].slice(mm.index! + mm[0].length);
      return { text: lines.join('\n'), how: `reference on line ${i + 1}` };
    }
    case 2: lines.splice(i, 1); return { text: lines.join('\n'), how: `line ${i + 1} deleted` };
    case 3: { const cut = Math.floor(rnd() * text.length); return { text: text.slice(0, cut), how: `truncated at ${cut}` }; }
    case 4: { // jitter many points by up to 5 micrometres: gaps and slivers
      for (let k = 0; k < 20; k++) {
        const j = at();
        if (lines[j].includes('CARTESIAN_POINT')) lines[j] = lines[j].replace(/-?\d+\.\d*/, (x) => (Number(x) + (rnd() - 0.5) * 0.01).toFixed(6));
      }
      return { text: lines.join('\n'), how: 'points jittered' };
    }
    default: lines[i] = lines[i].replace(/\d/g, () => String(Math.floor(rnd() * 10))); return { text: lines.join('\n'), how: `digits scrambled on line ${i + 1}` };
  }
}

const ENGINE_CODES = new Set(['invalid_step', 'empty_model', 'unsupported_geometry', 'analysis_failed', 'analysis_timeout']);
/** analysis_failed is the engine's honest "could not" only with a message of its own, not a JS error's */
const JS_ERROR = /TypeError|ReferenceError|is not a function|Cannot read prop|undefined|is not iterable/;

const src = sources();
const jobs = Array.from({ length: runs }, (_, n) => { const s = pick(src); return { n, source: s.name, ...mutate(s.text) }; });
const engine = createEngine({ threads, timeoutMs, maxQueue: runs });
const counts: Record<string, number> = {};
const bugs: Array<{ n: number; source: string; how: string; what: string }> = [];
mkdirSync(outDir, { recursive: true });
const started = performance.now();
await Promise.all(jobs.map(async (j) => {
  let outcome: string, bug: string | null = null;
  try {
    const d: Design = await engine.analyze(new TextEncoder().encode(j.text), { fileName: `fuzz-${j.n}.step` });
    outcome = d.parts.every((p) => p.manufacturable) ? 'ready' : 'ready, some parts refused';
    const bad = JSON.stringify(d).match(/NaN|Infinity/);
    if (bad) bug = `design contains ${bad[0]}`;
  } catch (err) {
    const e = err as { code?: string; message?: string };
    outcome = e.code ?? 'thrown';
    if (!e.code || !ENGINE_CODES.has(e.code)) bug = `not an engine error: ${String(e.message ?? err)}`;
    else if (e.code === 'analysis_timeout') bug = 'timed out';
    else if (JS_ERROR.test(e.message ?? '')) bug = `${e.code}: ${e.message}`;
  }
  counts[outcome] = (counts[outcome] ?? 0) + 1;
  if (bug) {
    bugs.push({ n: j.n, source: j.source, how: j.how, what: bug.slice(0, 300) });
    writeFileSync(join(outDir, `fuzz-${j.n}.step`), j.text, 'latin1');
  }
}));
await engine.close();
console.log(`${runs} mutated files in ${((performance.now() - started) / 1000).toFixed(1)} s over ${threads} thread(s):`, counts);
for (const b of bugs.sort((x, y) => x.n - y.n)) console.log(`  BUG #${b.n} ${b.source} (${b.how}): ${b.what} -> ${join(outDir, `fuzz-${b.n}.step`)}`);
process.exitCode = bugs.length > 0 ? 1 : 0;
