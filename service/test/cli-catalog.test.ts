// `kerf catalog` through the real binary (bin/kerf.mjs); moved here from engine/test/catalog.test.ts,
// which tests the catalog functions themselves.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { CATALOG_KINDS } from '@kerf/engine';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

test('kerf catalog prints each kind as a list; bad kinds are JSON errors', () => {
  for (const kind of CATALOG_KINDS) {
    const out = JSON.parse(execFileSync('node', ['bin/kerf.mjs', 'catalog', kind], { cwd: ROOT, encoding: 'utf8' }));
    assert.equal(out.object, 'list');
    assert.equal(out.has_more, false);
    assert.equal(out.next_cursor, null);
    assert.ok(out.data.length > 0, kind);
  }
  const err = ((): { status: number; stderr: string } | null => {
    try { execFileSync('node', ['bin/kerf.mjs', 'catalog', 'rivets'], { cwd: ROOT, encoding: 'utf8', stdio: 'pipe' }); return null; } catch (e) { return e as { status: number; stderr: string }; }
  })();
  assert.ok(err && err.status !== 0);
  assert.equal(JSON.parse(err.stderr.trim().split('\n')[0]).error.code, 'unknown_catalog');
});
