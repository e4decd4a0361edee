#!/usr/bin/env node
// The `kerf` command of @kerf/service: the compiled CLI. Inside the Kerf repository (whose workspace
// links this file as node_modules/.bin/kerf, so `npx kerf` lands here) it defers to the repository's
// bin/kerf.mjs, which runs the sources instead while they are newer than the build.
import { readFileSync } from 'node:fs';

const repo = new URL('../../', import.meta.url);
let inRepo = false;
try { inRepo = JSON.parse(readFileSync(new URL('package.json', repo), 'utf8')).name === 'kerf'; } catch { /* installed: no such file */ }
await import(inRepo ? new URL('bin/kerf.mjs', repo).href : '../dist/src/cli.js');
