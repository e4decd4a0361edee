// Fixture bytes by repository path. In the shared working tree the fixture generator may be
// rewriting a file while tests run; then the committed version is used (same bytes as CI sees).
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { relative } from 'node:path';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export function fixtureBytes(path: string): Uint8Array<ArrayBuffer> {
  if (existsSync(path)) {
    try { return new Uint8Array(readFileSync(path)); } catch { /* being rewritten: fall through */ }
  }
  const rel = relative(ROOT, path);
  if (rel.startsWith('..')) return new Uint8Array(readFileSync(path));
  return new Uint8Array(execFileSync('git', ['show', `HEAD:${rel}`], { cwd: ROOT, maxBuffer: 256 * 1024 * 1024 }));
}
