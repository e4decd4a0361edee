#!/usr/bin/env node
// The `kerf` command of a checkout (and `npm start`): runs the compiled CLI in service/dist, which
// `npm install` builds (the root `prepare` script). In development (KERF_DEV=1, or a node:test run:
// the runner marks its test processes with NODE_TEST_CONTEXT, which the CLI they spawn inherits) it
// first compares the TypeScript sources with that build and, where they changed after it, runs the
// sources through tsx instead, so the CLI is what is on disk; with no build at all it runs the sources
// too. Otherwise it looks at no source file, and tsx, a development tool, is not loaded.
// Installed packages use @kerf/service's own bin, which only runs the build.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

/** Newest mtime (ms) of the .ts files under dir, 0 when there are none. */
function newestSource(dir) {
  let newest = 0;
  let entries;
  try { entries = readdirSync(dir, { withFileTypes: true }); } catch { return 0; }
  for (const e of entries) {
    const full = join(dir, e.name);
    if (e.isDirectory()) newest = Math.max(newest, newestSource(full));
    else if (e.name.endsWith('.ts')) newest = Math.max(newest, statSync(full).mtimeMs);
  }
  return newest;
}

/** True when some package's sources are newer than its last build (or it has none). */
function buildIsStale() {
  const packages = ['common', 'contract', 'engine', 'service', ...readdirSync(join(root, 'adapters')).map((a) => join('adapters', a))];
  return packages.some((pkg) => {
    const sources = Math.max(newestSource(join(root, pkg, 'src')), newestSource(join(root, pkg, 'test', 'support')));
    if (sources === 0) return false; // not a package
    try { return sources > statSync(join(root, pkg, 'dist', '.tsbuildinfo')).mtimeMs; } catch { return true; }
  });
}

const development = process.env.KERF_DEV === '1' || process.env.NODE_TEST_CONTEXT !== undefined;
const built = existsSync(join(root, 'service', 'dist', 'src', 'cli.js'));
// without tsx (npm install --omit=dev) the build is all there is, and the sources need no look
const sources = existsSync(join(root, 'node_modules', 'tsx')) && (!built || (development && buildIsStale()));
const tsx = sources ? await import('tsx/esm/api').catch(() => null) : null;
if (tsx) {
  // the root tsconfig maps @kerf/* to the sources, whatever the working directory
  tsx.register({ tsconfig: join(root, 'tsconfig.json') });
  await import(pathToFileURL(join(root, 'service/src/cli.ts')).href);
} else {
  await import('../service/dist/src/cli.js');
}
