// `node --import tsx bench/same-results.ts --before <checkout> [--only <substring>] [--reverse] [--loose-step-header]`
// Checks that a change to the engine leaves its results byte-identical: analyses every STEP file
// under fixtures/ and the real-CAD corpus (DIRS below) with this checkout's engine and with the engine of
// another checkout (a `git worktree` of an earlier commit, with node_modules linked in), and compares
// the analyze() JSON and the production files (DXF, GLB, STEP) byte for byte (gzip-compressed STEP
// files, such as the real assemblies, included). Prints each differing file and exits 1 on any difference.
// Each engine runs in a child process of its own (the two share no module state or WASM heap); a
// child writes one SHA-256 per result, which the parent compares.
// --reverse: the other checkout's child takes the files in reverse order, so a result that depends on
// what the process did before it (state left in the engine or its WASM) differs; `--before .` with
// --reverse checks this checkout against itself.
// --loose-step-header: for a checkout from before production STEP files were made history-free
// (historyFree() in engine/src/files/occt-exact.ts), which wrote the time of writing in FILE_NAME and
// named the PRODUCT by a per-thread counter: both are blanked before hashing. Since then neither
// varies, so by default STEP files are compared whole.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { argv } from 'node:process';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const DIRS = ['fixtures', '../shared/corpus/real'];
const ENGINE_ENTRY = 'engine/src/index.ts';
// fixed so that two runs write the same design JSON (the engine stamps the current time otherwise)
const ANALYZE_OPTIONS = { createdAt: '2026-01-01T00:00:00.000Z', fileName: 'model.step' };
// what --loose-step-header blanks: FILE_NAME's time stamp, the PRODUCT entity's name and id
const STEP_TIME_STAMP = /FILE_NAME\('([^']*)','[^']*'/;
const STEP_PRODUCT = /^(#\d+) = PRODUCT\([^;]*;/m;
const looseStepHeader = (step: string): string => step.replace(STEP_TIME_STAMP, "FILE_NAME('$1',''").replace(STEP_PRODUCT, '$1 = PRODUCT();');

type Hashes = Record<string, Record<string, string>>;

function arg(name: string): string | undefined {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : undefined;
}

function stepFiles(only: string | undefined): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const f of readdirSync(dir).sort()) {
      const p = join(dir, f);
      if (statSync(p).isDirectory()) walk(p);
      else if (/\.(step|stp)(\.gz)?$/i.test(f)) out.push(p);
    }
  };
  for (const d of DIRS) if (existsSync(join(ROOT, d))) walk(join(ROOT, d));
  return out.filter((p) => !only || relative(ROOT, p).includes(only));
}

const sha = (b: string | Uint8Array): string => createHash('sha256').update(b).digest('hex');

/** Child: hashes of every result of one engine, written as JSON to `out`. */
async function emit(engineEntry: string, out: string, only: string | undefined, reverse: boolean, loose: boolean): Promise<void> {
  const E = (await import(engineEntry)) as typeof import('@kerf/engine');
  const hashes: Hashes = {};
  const paths = stepFiles(only);
  for (const path of reverse ? paths.reverse() : paths) {
    const raw = readFileSync(path);
    const bytes = new Uint8Array(path.endsWith('.gz') ? gunzipSync(raw) : raw);
    const h: Record<string, string> = {};
    try {
      const model = await E.analyzeModel(bytes, ANALYZE_OPTIONS);
      h.analyze = sha(JSON.stringify(model.design));
      try {
        const files = await E.productionFilesForModel(bytes, model.parts, { kinds: ['production'] });
        for (const pid of Object.keys(files).sort()) {
          for (const [kind, data] of Object.entries(files[pid]).sort(([a], [b]) => a.localeCompare(b))) {
            h[`${pid}.${kind}`] = sha(loose && kind.endsWith('step') ? looseStepHeader(new TextDecoder().decode(data)) : data!);
          }
        }
      } catch (e) { h.files_error = sha(`${(e as { code?: string }).code}:${(e as Error).message}`); }
    } catch (e) { h.analyze_error = sha(`${(e as { code?: string }).code}:${(e as Error).message}`); }
    hashes[relative(ROOT, path)] = h;
  }
  writeFileSync(out, JSON.stringify(hashes));
}

function runChild(engineEntry: string, out: string, only: string | undefined, flags: string[]): Promise<void> {
  const args = ['--import', 'tsx', fileURLToPath(import.meta.url), '--emit', engineEntry, '--out', out, ...(only ? ['--only', only] : []), ...flags];
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit'] });
    child.on('error', fail);
    child.on('exit', (code) => (code === 0 ? done() : fail(new Error(`${engineEntry}: the child exited with ${code}`))));
  });
}

async function main(): Promise<number> {
  const only = arg('--only');
  const loose = argv.includes('--loose-step-header');
  if (arg('--emit')) { await emit(arg('--emit')!, arg('--out')!, only, argv.includes('--reverse'), loose); return 0; }
  const before = arg('--before');
  const usage = 'usage: node --import tsx bench/same-results.ts --before <checkout> [--only <substring>] [--reverse] [--loose-step-header]\n(see the comment at the top of bench/same-results.ts)';
  if (argv.includes('--help')) { console.log(usage); return 0; }
  if (!before) { console.error(usage); return 2; }
  const beforeEntry = resolve(before, ENGINE_ENTRY);
  if (!existsSync(beforeEntry)) { console.error(`no engine at ${beforeEntry}`); return 2; }
  if (!existsSync(resolve(before, 'node_modules'))) { console.error(`${before} has no node_modules (ln -s ${join(ROOT, 'node_modules')} ${resolve(before, 'node_modules')})`); return 2; }
  const tmp = mkdtempSync(join(tmpdir(), 'kerf-same-'));
  try {
    const t0 = performance.now();
    const [nowOut, beforeOut] = [join(tmp, 'now.json'), join(tmp, 'before.json')];
    // the two engines run side by side: each is one core's work
    const shared = loose ? ['--loose-step-header'] : [];
    await Promise.all([runChild(join(ROOT, ENGINE_ENTRY), nowOut, only, shared), runChild(beforeEntry, beforeOut, only, argv.includes('--reverse') ? [...shared, '--reverse'] : shared)]);
    const now = JSON.parse(readFileSync(nowOut, 'utf8')) as Hashes, then = JSON.parse(readFileSync(beforeOut, 'utf8')) as Hashes;
    let differing = 0, results = 0;
    for (const file of Object.keys(now)) {
      const keys = [...new Set([...Object.keys(now[file]), ...Object.keys(then[file] ?? {})])].sort();
      results += keys.length;
      const diff = keys.filter((k) => now[file][k] !== then[file]?.[k]);
      if (diff.length) { differing++; console.log(`DIFFERS ${file}: ${diff.join(', ')}`); }
    }
    const files = Object.keys(now).length;
    console.log(`${files} files, ${results} results (analyze() JSON, DXF, STEP, GLB): ${differing ? `${differing} files differ` : 'all byte-identical'} to ${before}${argv.includes('--reverse') ? ' run in reverse order' : ''} (${((performance.now() - t0) / 1000).toFixed(0)} s)`);
    return differing || files === 0 ? 1 : 0;
  } finally { rmSync(tmp, { recursive: true, force: true }); }
}

process.exitCode = await main();
