// Production files for real CAD exports: every part of every file in the corpus (./corpus-dir.ts) that the
// engine accepts gets every production file kind. A real enclosure's flat STEP once failed to close
// its wire (micrometre gaps) and a real bracket's flat image lost four holes (a -360.0000001 degree
// circle); fixtures alone had not shown either.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { analyzeModel } from '../src/analyze.ts';
import { productionFilesForModel, PRODUCTION_KINDS } from '../src/files/index.ts';
import { CORPUS_DIR } from './corpus-dir.ts';

const dir = CORPUS_DIR;
const files = existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.step')).sort() : [];
const FLAT_KINDS = new Set(['production_flat_step', 'production_flat_model', 'production_dxf', 'production_bend_lines_dxf']);

test('the shared corpus is present', { skip: files.length ? false : 'no ../shared/corpus/real beside this checkout' }, () => {
  assert.ok(files.length >= 10);
});

for (const f of files) {
  test(`${f}: every production file of every accepted part`, async () => {
    const bytes = new Uint8Array(readFileSync(dir + f));
    const model = await analyzeModel(bytes, { fileName: f });
    const accepted = model.parts.filter((p) => p.part.manufacturable);
    const out = await productionFilesForModel(bytes, accepted, { kinds: [...PRODUCTION_KINDS] });
    for (const p of accepted) {
      const got = out[p.part.id] ?? {};
      for (const kind of PRODUCTION_KINDS) {
        if (FLAT_KINDS.has(kind) && p.analysis.kind !== 'sheet') continue;
        const b = got[kind as keyof typeof got];
        assert.ok(b && b.byteLength > 0, `${p.part.id} ${kind} missing`);
      }
      if (p.analysis.kind === 'sheet') {
        const flatStep = new TextDecoder().decode(got.production_flat_step);
        assert.match(flatStep, /^ISO-10303-21;/);
        assert.match(flatStep, /CIRCLE|LINE/);
      }
    }
  });
}
