// Every command `kerf` advertises has its module; an unknown one is a JSON error, not a stack trace.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { COMMANDS, type CommandModule } from '../src/commands/list.ts';

const BIN = fileURLToPath(new URL('../../bin/kerf.mjs', import.meta.url));

test('every listed command module exports run()', async () => {
  for (const name of COMMANDS) {
    const mod = (await import(`../src/commands/${name}.ts`)) as CommandModule;
    assert.equal(typeof mod.run, 'function', name);
  }
});

test('an unknown command exits 2 with a JSON error and the usage naming every command', () => {
  const r = spawnSync(process.execPath, [BIN, 'frobnicate'], { encoding: 'utf8' });
  assert.equal(r.status, 2);
  const [first] = r.stderr.split('\n');
  assert.equal(JSON.parse(first).error.code, 'unknown_command');
  for (const name of COMMANDS) assert.ok(r.stderr.includes(name), name);
});
