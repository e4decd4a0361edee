#!/usr/bin/env node
// `npm test`: Node 20's test runner does not expand globs, so find every *.test.ts of the workspaces
// here and hand them to one `node --test` run. Arguments filter by path substring: `npm test -- store`.
import { spawn } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const roots = ['common/test', 'engine/test', 'service/test', 'test', ...readdirSync(join(root, 'adapters')).map((a) => `adapters/${a}/test`)];

function walk(dir, out) {
  let entries;
  try { entries = readdirSync(dir); } catch { return out; }
  for (const name of entries.sort()) {
    if (name === 'node_modules') continue;
    const full = join(dir, name);
    if (statSync(full).isDirectory()) walk(full, out);
    else if (name.endsWith('.test.ts')) out.push(relative(root, full));
  }
  return out;
}

const filters = process.argv.slice(2);
const files = roots.flatMap((r) => walk(join(root, r), []))
  .filter((f) => filters.length === 0 || filters.some((s) => f.includes(s)));
if (files.length === 0) {
  console.error(`no test files match ${filters.join(' ')}`);
  process.exit(1);
}
const child = spawn(process.execPath, ['--import', 'tsx', '--test', '--test-concurrency=2', ...files], { cwd: root, stdio: 'inherit' });
child.on('exit', (code, signal) => process.exit(signal ? 1 : code ?? 1));
