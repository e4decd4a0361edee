// `node --import tsx bench/same-results.ts --before <checkout> [--only <substring>]`
// Checks that a change to the engine leaves its results byte-identical: analyses every STEP file
// under fixtures/ and the real-CAD corpus (DIRS below) with this checkout's engine and with the engine of
// another checkout (a `git worktree` of an earlier commit, with node_modules linked in), and compares
// the analyze() JSON and the production files (DXF, GLB, STEP but for the time stamp in its header)
// byte for byte (gzip-compressed STEP files, such as the real assemblies, included). Prints each differing file and exits 1 on any difference.
// Each engine runs in a child process of its own (the two share no module state or WASM heap); a
// child writes one SHA-256 per result, which the parent compares.
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
// STEP's FILE_NAME('name','2026-11-25T06:50:00', ...) carries the time of writing
const STEP_TIME_STAMP = /FILE_NAME\('([^']*)','[^']*'/;

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
async function emit(engineEntry: string, out: string, only: string | undefined): Promise<void> {
  const E = (await import(engineEntry)) as typeof import('@kerf/engine');
  const hashes: Hashes = {};
  for (const path of stepFiles(only)) {
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
            h[`${pid}.${kind}`] = sha(kind.endsWith('step') ? new TextDecoder().decode(data).replace(STEP_TIME_STAMP, "FILE_NAME('$1',''") : data!);
          }
        }
      } catch (e) { h.files_error = sha(`${(e as { code?: string }).code}:${(e as Error).message}`); }
    } catch (e) { h.analyze_error = sha(`${(e as { code?: string }).code}:${(e as Error).message}`); }
    hashes[relative(ROOT, path)] = h;
  }
  writeFileSync(out, JSON.stringify(hashes));
}

function runChild(engineEntry: string, out: string, only: string | undefined): Promise<void> {
  const args = ['--import', 'tsx', fileURLToPath(import.meta.url), '--emit', engineEntry, '--out', out, ...(only ? ['--only', only] : [])];
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit'] });
    child.on('error', fail);
    child.on('exit', (code) => (code === 0 ? done() : fail(new Error(`${engineEntry}: the child exited with ${code}`))));
  });
}

async function main(): Promise<number> {
  const only = arg('--only');
  if (arg('--emit')) { await emit(arg('--emit')!, arg('--out')!, only); return 0; }
  const before = arg('--before');
  if (!before) { console.error('usage: node --import tsx bench/same-results.ts --before <checkout> [--only <substring>]'); return 2; }
  const beforeEntry = resolve(before, ENGINE_ENTRY);
  if (!existsSync(beforeEntry)) { console.error(`no engine at ${beforeEntry}`); return 2; }
  if (!existsSync(resolve(before, 'node_modules'))) { console.error(`${before} has no node_modules (ln -s ${join(ROOT, 'node_modules')} ${resolve(before, 'node_modules')})`); return 2; }
  const tmp = mkdtempSync(join(tmpdir(), 'kerf-same-'));
  try {
    const t0 = performance.now();
    const [nowOut, beforeOut] = [join(tmp, 'now.json'), join(tmp, 'before.json')];
    // the two engines run side by side: each is one core's work
    await Promise.all([runChild(join(ROOT, ENGINE_ENTRY), nowOut, only), runChild(beforeEntry, beforeOut, only)]);
    const now = JSON.parse(readFileSync(nowOut, 'utf8')) as Hashes, then = JSON.parse(readFileSync(beforeOut, 'utf8')) as Hashes;
    let differing = 0, results = 0;
    for (const file of Object.keys(now)) {
      const keys = [...new Set([...Object.keys(now[file]), ...Object.keys(then[file] ?? {})])].sort();
      results += keys.length;
      const diff = keys.filter((k) => now[file][k] !== then[file]?.[k]);
      if (diff.length) { differing++; console.log(`DIFFERS ${file}: ${diff.join(', ')}`); }
    }
    const files = Object.keys(now).length;
    console.log(`${files} files, ${results} results (analyze() JSON, DXF, STEP, GLB): ${differing ? `${differing} files differ` : 'all byte-identical'} to ${before} (${((performance.now() - t0) / 1000).toFixed(0)} s)`);
    return differing || files === 0 ? 1 : 0;
  } finally { rmSync(tmp, { recursive: true, force: true }); }
}

process.exitCode = await main();
