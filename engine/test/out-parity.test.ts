// One answer for one file: `kerf analyze` (analyze) and `kerf analyze --out` (analyzeWithFiles) list
// the same parts with the same verdicts for every fixture and every real CAD export of the corpus, and
// --out finds the exact solid of every part it writes a production STEP for (it used to fail a whole
// surface-model file with "no exact solid of the STEP file matches the analyzed solid").
// Only the exact STEP is asked for: it is the file that reads the source again; the others come from
// the analysed parts and are covered by files.test.ts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { analyze } from '../src/analyze.ts';
import { analyzeWithFiles } from '../src/files/generate.ts';
import type { Design } from '../src/contract.ts';
import { CORPUS_DIR, HAS_CORPUS } from './corpus-dir.ts';

const fixtures = fileURLToPath(new URL('../../fixtures/', import.meta.url));
const FIXTURE_DIRS = ['sheet', 'assembly', 'negative', 'corpus-lessons', 'bodies', 'tubes'];

function stepFiles(dir: string): string[] {
  return existsSync(dir) ? readdirSync(dir).filter((f) => /\.(step|stp)$/i.test(f)).sort().map((f) => join(dir, f)) : [];
}

const files = [...FIXTURE_DIRS.flatMap((d) => stepFiles(join(fixtures, d))), ...(HAS_CORPUS ? stepFiles(CORPUS_DIR) : [])];

/** What both answers must agree on: the parts and their verdicts, the instances, the ignored bodies. */
function verdicts(d: Design) {
  return {
    parts: d.parts.map((p) => ({ id: p.id, name: p.name, manufacturable: p.manufacturable, reason: p.unsupported_reason, instances: p.instance_count, bends: p.bend_count, holes: p.hole_count })),
    instances: d.part_instances,
    ignored: d.ignored_bodies,
  };
}

test('the parity check covers the fixtures and, where present, the real corpus', () => {
  assert.ok(files.length >= 60, `${files.length} files`);
});

for (const file of files) {
  const label = file.slice(file.lastIndexOf('/', file.lastIndexOf('/') - 1) + 1);
  test(`analyze and analyze --out agree: ${label}`, async () => {
    const bytes = readFileSync(file);
    let plain: Design;
    try { plain = await analyze(bytes, { fileName: label }); } catch (err) {
      // a file the engine refuses as a whole must be refused the same way with --out
      await assert.rejects(analyzeWithFiles(bytes, { fileName: label, kinds: ['production_step'] }), (e: Error & { code?: string }) => e.code === (err as { code?: string }).code);
      return;
    }
    const withFiles = await analyzeWithFiles(bytes, { fileName: label, kinds: ['production_step'] });
    assert.deepEqual(verdicts(withFiles.design), verdicts(plain));
    for (const p of plain.parts) {
      const step = withFiles.files[p.id]?.production_step;
      if (p.unsupported_reason === 'open_shell') assert.equal(step, undefined, `${p.name}: an open shell has no exact solid`);
      else assert.ok(step && step.byteLength > 0, `${p.name}: no production STEP`);
    }
  });
}
