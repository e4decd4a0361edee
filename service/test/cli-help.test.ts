// `kerf help`, `kerf help COMMAND`, `kerf COMMAND --help`, `kerf --version`, and what the local
// DFM output leaves out (#19.8): links without --base-url, capability lists under --compact.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { COMMANDS } from '../src/commands/list.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const kerf = (...args: string[]): { code: number | null; out: string; err: string } => {
  const r = spawnSync(process.execPath, ['bin/kerf.mjs', ...args], { cwd: ROOT, encoding: 'utf8', timeout: 120_000 });
  return { code: r.status, out: r.stdout, err: r.stderr };
};

test('kerf help and kerf --help list every command with a summary, on stdout, exit 0', () => {
  for (const args of [['help'], ['--help']]) {
    const r = kerf(...args);
    assert.equal(r.code, 0, r.err);
    for (const name of COMMANDS) assert.match(r.out, new RegExp(`^  ${name} +\\S`, 'm'), name);
  }
});

test('kerf help COMMAND and kerf COMMAND --help print the same page with options and examples', () => {
  for (const name of ['analyze', 'dfm', 'quote', 'catalog', 'mcp', 'serve'] as const) {
    const a = kerf('help', name);
    const b = kerf(name, '--help');
    assert.equal(a.code, 0, a.err);
    assert.equal(b.code, 0, b.err);
    assert.equal(a.out, b.out, name);
    assert.match(a.out, new RegExp(`^usage: kerf ${name}`, 'm'));
    assert.match(a.out, /^examples:\n {2}\S/m, name);
  }
  assert.match(kerf('help', 'analyze').out, /--k-factor K .*\n.*--out DIR .*index\.json/);
  assert.match(kerf('help', 'dfm').out, /--compact/);
});

test('kerf help with an unknown command is a JSON error naming the commands, exit 2', () => {
  const r = kerf('help', 'frobnicate');
  assert.equal(r.code, 2);
  const e = JSON.parse(r.err.split('\n')[0]).error;
  assert.equal(e.code, 'unknown_command');
  assert.match(e.message, /analyze/);
});

test('kerf --version prints the package version', () => {
  const version = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;
  for (const flag of ['--version', '-V']) {
    const r = kerf(flag);
    assert.equal(r.code, 0, r.err);
    assert.equal(r.out, `kerf ${version}\n`);
  }
});

test('kerf dfm: no server-relative links without --base-url; --compact drops the capability option lists', () => {
  const config = '{"defaults":{"material_id":"mat_mild_steel_2_0mm"}}';
  const plain = kerf('dfm', 'fixtures/sheet/l_t2_r2.step', '--configuration', config);
  assert.equal(plain.code, 0, plain.err);
  assert.doesNotMatch(plain.out, /"\/v1\//, 'no /v1/... path a local run cannot serve');
  const part = JSON.parse(plain.out).parts[0];
  assert.ok(part.capabilities.taps.options.length > 0);

  const linked = JSON.parse(kerf('dfm', 'fixtures/sheet/l_t2_r2.step', '--configuration', config, '--base-url', 'https://kerf.example').out);
  assert.match(linked.parts[0].image_url, /^https:\/\/kerf\.example\/v1\//);

  const compact = kerf('dfm', 'fixtures/sheet/l_t2_r2.step', '--configuration', config, '--compact');
  assert.equal(compact.code, 0, compact.err);
  const c = JSON.parse(compact.out).parts[0].capabilities;
  for (const [name, cap] of Object.entries(c)) if (!Array.isArray(cap)) assert.equal((cap as { options?: unknown }).options, undefined, name);
  assert.equal(c.taps.available, part.capabilities.taps.available);
  assert.ok(compact.out.length < plain.out.length / 2, `${compact.out.length} vs ${plain.out.length}`);
});

test('docs/cli.md\'s examples show kerf help, --version, --compact and --out with several files; the README names a few and links there', () => {
  const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
  const first = /### From the command line\n\n```sh\n([\s\S]*?)```/.exec(readme)?.[1] ?? '';
  assert.ok(first.split('\n').some((l) => /^npx kerf help\b/.test(l)), 'the README shows kerf help');
  assert.match(readme, /\(docs\/cli\.md\)/);
  const doc = readFileSync(new URL('../../docs/cli.md', import.meta.url), 'utf8');
  const block = /```sh\n([\s\S]*?)```/.exec(doc)?.[1] ?? '';
  const examples = block.split('\n').filter((l) => l.startsWith('npx kerf '));
  assert.ok(examples.length > 5, 'docs/cli.md has a block of kerf examples');
  assert.ok(examples.some((l) => /^npx kerf help\b/.test(l)), 'kerf help');
  assert.ok(examples.some((l) => /kerf \w+ --help\b|kerf help \w+/.test(l)), 'one command\'s help page');
  assert.ok(examples.some((l) => /^npx kerf --version\b/.test(l)), 'kerf --version');
  assert.ok(examples.some((l) => /^npx kerf (dfm|quote) .*--compact\b/.test(l)), '--compact');
  assert.ok(examples.some((l) => /^npx kerf analyze \S+\.step \S+\.step .*--out .*index\.json/.test(l)), '--out with several files and its index.json');
});
