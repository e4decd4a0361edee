// `npm install` prints no engine warnings on the Node versions README names (#19.10): npm itself
// plans the install of this checkout's package.json files and lock (a dry run, offline, in a copy
// outside the repository so nothing here changes) on the running Node, and says EBADENGINE for
// every installed package whose `engines` excludes it (as cookie 2, node >=22, did through
// @fastify/cookie before the root override). Only the running Node is checked: npm ignores
// --node-version for this check.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const WORKSPACES = ['common', 'contract', 'engine', 'service', ...readdirSync(join(ROOT, 'adapters')).map((a) => `adapters/${a}`)];

let dir = '';

before(() => {
  dir = mkdtempSync(join(tmpdir(), 'kerf-engines-'));
  for (const f of ['package.json', 'package-lock.json']) copyFileSync(join(ROOT, f), join(dir, f));
  for (const w of WORKSPACES) {
    try {
      readFileSync(join(ROOT, w, 'package.json'));
    } catch {
      continue; // a folder that is not a package
    }
    mkdirSync(join(dir, w), { recursive: true });
    copyFileSync(join(ROOT, w, 'package.json'), join(dir, w, 'package.json'));
  }
});

after(() => { if (dir) rmSync(dir, { recursive: true, force: true }); });

test('the running Node is one README names (the root engines field)', () => {
  const floor = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string } }).engines.node;
  assert.equal(floor, '>=20.19.0');
  assert.match(readFileSync(join(ROOT, 'README.md'), 'utf8'), /Node 20\.19 or newer/);
  const [major, minor] = process.versions.node.split('.').map(Number);
  assert.ok(major > 20 || (major === 20 && minor >= 19), `Node ${process.versions.node} is below the floor README names`);
});

test('every package declares the Node floor, so npm warns a user of its tarball on an older Node', () => {
  const floor = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string } }).engines.node;
  const without = WORKSPACES.flatMap((w) => {
    let pkg: { name: string; engines?: { node?: string } };
    try {
      pkg = JSON.parse(readFileSync(join(ROOT, w, 'package.json'), 'utf8')) as typeof pkg;
    } catch {
      return [];
    }
    return pkg.engines?.node === floor ? [] : [`${pkg.name}: ${JSON.stringify(pkg.engines?.node ?? null)}`];
  });
  assert.deepEqual(without, [], `packages whose engines.node is not the root's ${floor}`);
});

test('npm install of this checkout prints no EBADENGINE warning', () => {
  const env = { ...process.env };
  // what `npm test` sets for its own scripts would point npm at the repository
  for (const k of Object.keys(env)) if (/^npm_/i.test(k) && !/^npm_config_(cache|userconfig|globalconfig|registry)$/i.test(k)) delete env[k];
  const r = spawnSync('npm', ['install', '--dry-run', '--offline', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=warn'], { cwd: dir, env, encoding: 'utf8' });
  const out = `${r.stdout}${r.stderr}`;
  assert.equal(r.status, 0, out);
  assert.match(out, /\badd \S+ \d/, 'npm planned the install');
  const warned = [...out.matchAll(/EBADENGINE\s+package: '([^']+)'/g)].map((m) => m[1]);
  assert.deepEqual(warned, [], `engine warnings on Node ${process.versions.node}`);
  assert.doesNotMatch(out, /EBADENGINE/);
});
