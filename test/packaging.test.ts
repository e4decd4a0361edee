// The packages as a user gets them: every workspace built (tsc -b) and packed with `npm pack`, the
// tarballs installed with --omit=dev into an empty folder outside the repository (registry packages
// from npm's cache), then used with no tsx and no TypeScript: a plain `node` script imports
// @kerf/engine and runs analyze, DFM and part prices; the installed `kerf analyze --out` writes production
// files (the exact STEP writer needs replicad-opencascadejs at run time), and its kerf dfm and kerf
// quote run; tsc checks a consumer against the shipped .d.ts files. The consumer's package.json has
// the root's overrides, as README tells a user to, and npm prints no engine warning on this Node.
// One install (the slow part) serves every check.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const FIXTURE = join(ROOT, 'fixtures/sheet/l_t2_r2.step'); // a 2 mm mild steel L bracket
const MATERIAL = 'mat_mild_steel_2_0mm';
const TSC = createRequire(import.meta.url).resolve('typescript/bin/tsc');

let dir = '';
/** What npm printed while installing the tarballs (its warnings included). */
let installLog = '';
/** The root package.json's overrides, which README tells a user of the tarballs to copy. */
const OVERRIDES = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { overrides?: Record<string, string> }).overrides ?? {};

/** The environment without what `npm test` sets for its own scripts (it would point npm at the repository). */
function cleanEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const k of Object.keys(env)) if (/^npm_/i.test(k) && !/^npm_config_(cache|userconfig|globalconfig|registry)$/i.test(k)) delete env[k];
  delete env.NODE_OPTIONS;
  return env;
}

function run(cmd: string, args: string[], cwd: string): string {
  try {
    return execFileSync(cmd, args, { cwd, env: cleanEnv(), encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 * 1024 * 1024 });
  } catch (e) {
    const { stdout, stderr } = e as { stdout?: string; stderr?: string };
    throw new Error(`${cmd} ${args.join(' ')} failed:\n${stdout ?? ''}${stderr ?? ''}`);
  }
}

before(() => {
  dir = mkdtempSync(join(tmpdir(), 'kerf-packaging-'));
  const tarballs = join(dir, 'tarballs');
  mkdirSync(tarballs);
  run(process.execPath, [TSC, '-b', 'tsconfig.build.json'], ROOT);
  run('npm', ['pack', '--workspaces', '--pack-destination', tarballs, '--silent'], ROOT);
  // each @kerf package from its tarball, also where another one depends on it ("*")
  const kerf = Object.fromEntries(readdirSync(tarballs).map((f) => [`@kerf/${/^kerf-(.+)-\d+\.\d+\.\d+\.tgz$/.exec(f)![1]}`, `file:./tarballs/${f}`]));
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'kerf-consumer', private: true, type: 'module', dependencies: kerf, overrides: { ...OVERRIDES, ...kerf } }, null, 2));
  // --ignore-scripts: nothing checked here opens the SQLite store, and compiling better-sqlite3 from
  // source (no prebuilt binary offline) would take minutes; what is checked is what the packages declare
  const install = spawnSync('npm', ['install', '--prefix', dir, '--omit=dev', '--ignore-scripts', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=warn'], { cwd: dir, env: cleanEnv(), encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  installLog = `${install.stdout}${install.stderr}`;
  if (install.status !== 0) throw new Error(`npm install failed:\n${installLog}`);
});

after(() => { if (dir) rmSync(dir, { recursive: true, force: true }); });

test('npm install of the tarballs, with the root overrides README names, prints no engine warning', () => {
  assert.ok(Object.keys(OVERRIDES).length > 0, 'the root package.json has overrides');
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  assert.ok(readme.includes('"overrides"'), 'README tells a user of the tarballs to set overrides');
  for (const [name, range] of Object.entries(OVERRIDES)) assert.ok(readme.includes(`"${name}": "${range}"`), `README gives the override of ${name}`);
  const warned = [...installLog.matchAll(/EBADENGINE\s+package: '([^']+)'/g)].map((m) => m[1]);
  assert.deepEqual(warned, [], `engine warnings on Node ${process.versions.node}`);
});

test('the installed packages carry no development tools', () => {
  for (const tool of ['tsx', 'typescript', 'esbuild']) assert.ok(!existsSync(join(dir, 'node_modules', tool)), `${tool} was installed with --omit=dev`);
});

test('a plain node script imports @kerf/engine and runs analyze, DFM and part prices', () => {
  writeFileSync(join(dir, 'use.mjs'), `
    import { readFileSync } from 'node:fs';
    import { analyze, defaultCatalog, dfm, partPrices } from '@kerf/engine';
    const design = await analyze(new Uint8Array(readFileSync(${JSON.stringify(FIXTURE)})), { fileName: 'bracket.step' });
    const catalog = defaultCatalog(), now = new Date().toISOString();
    const configuration = { defaults: { material_id: ${JSON.stringify(MATERIAL)} } };
    const report = dfm(design, configuration, catalog, { id: 'dfm_pkg', now, generateProductionFiles: false });
    const p = partPrices({ items: [{ design_id: design.id, quantity: 3, configuration }] }, { [design.id]: design }, catalog, { now, dfmIds: ['dfm_pkg_item'] });
    console.log(JSON.stringify({ design: design.status, parts: design.parts.length, report: report.object, prices: p.status, lines: p.items[0].line_items.length }));
  `);
  const out = JSON.parse(run(process.execPath, ['use.mjs'], dir));
  assert.deepEqual(out, { design: 'ready', parts: 1, report: 'dfm_report', prices: 'ready', lines: 1 });
});

test('the installed kerf analyze --out writes the design and its production files, exact STEP included', () => {
  const outDir = join(dir, 'out');
  const r = spawnSync(join(dir, 'node_modules/.bin/kerf'), ['analyze', FIXTURE, '--out', outDir], { cwd: dir, env: cleanEnv(), encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(JSON.parse(r.stdout.split('\n')[0]).status, 'ready');
  const parts = readdirSync(outDir);
  assert.equal(parts.length, 1, `one part folder, got ${parts.join(', ')}`);
  const files = readdirSync(join(outDir, parts[0]));
  for (const ext of ['.step', '.dxf', '.glb']) assert.ok(files.some((f) => f.endsWith(ext)), `no ${ext} among ${files.join(', ')}`);
});

test('the installed kerf dfm and kerf quote price the part', () => {
  const configuration = JSON.stringify({ defaults: { material_id: MATERIAL } });
  const kerf = (...args: string[]) => spawnSync(join(dir, 'node_modules/.bin/kerf'), args, { cwd: dir, env: cleanEnv(), encoding: 'utf8' });
  const report = kerf('dfm', FIXTURE, '--configuration', configuration, '--compact');
  assert.equal(report.status, 0, report.stderr);
  assert.equal(JSON.parse(report.stdout).status, 'ready');
  const quote = kerf('quote', FIXTURE, '--configuration', configuration, '--quantity', '2', '--compact');
  assert.equal(quote.status, 0, quote.stderr);
  const q = JSON.parse(quote.stdout) as { status: string; amount_subtotal_cents: number };
  assert.equal(q.status, 'ready');
  assert.ok(q.amount_subtotal_cents > 0);
});

test('the shipped .d.ts files type a consumer (real types, not any)', () => {
  writeFileSync(join(dir, 'consumer.ts'), [
    "import { analyze, type Design } from '@kerf/engine';",
    'const design: Design = await analyze(new Uint8Array(0));',
    'export const parts: number = design.parts.length;',
    '// @ts-expect-error a design\'s parts are a list: this fails only if the types resolved',
    'export const wrong: string = design.parts;',
  ].join('\n'));
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({
    compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', target: 'ES2022', strict: true, noEmit: true, types: ['node'], typeRoots: [join(ROOT, 'node_modules/@types')] },
    files: ['consumer.ts'],
  }));
  const r = spawnSync(process.execPath, [TSC, '-p', 'tsconfig.json'], { cwd: dir, env: cleanEnv(), encoding: 'utf8' });
  assert.equal(r.status, 0, r.stdout + r.stderr);
});
