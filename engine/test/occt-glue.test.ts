import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compileOcct, loadOcct, type Occt } from '../src/import/occt.ts';
import { loadOcctFactory, patchedGlueSource } from '../src/import/occt-glue.ts';
import { IMPORT_PARAMS } from '../src/import/index.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
const gluePath = createRequire(import.meta.url).resolve('occt-import-js');
const tmp = mkdtempSync(join(tmpdir(), 'kerf-occt-glue-'));
after(() => rmSync(tmp, { recursive: true, force: true }));

// sheet, tube, assembly (instances), inch units, a surface model, a real CAD export, and bytes that are no STEP
const INPUTS: Array<[string, Uint8Array]> = [
  ...['sheet/l_t2_r2.step', 'sheet/plate_t3_holes_slot.step', 'sheet/l_t2_r2_inch.step', 'tubes/round-50x3-l250-holes.step',
    'assembly/asm_instanced_products.step', 'bodies/surface_l_open.step']
    .map((f): [string, Uint8Array] => [f, readFileSync(join(root, 'fixtures', f))]),
  ['corpus ender3-e-motor-bracket.step', readFileSync(join(root, '../shared/corpus/real/ender3-e-motor-bracket.step'))],
  ['not a STEP file', new TextEncoder().encode('ISO-10303-21;\nHEADER;\nENDSEC;\nDATA;\n#1=FOO(\'\u00e9\',(1.,2.));\nENDSEC;\nEND-ISO-10303-21;\n')],
];

function read(occt: Occt, bytes: Uint8Array): unknown {
  try { return occt.ReadStepFile(new Uint8Array(bytes), IMPORT_PARAMS); } catch (err) { return { threw: String(err) }; }
}

test('the installed occt-import-js glue is the one the patch was written for, and the engine uses the patched one', () => {
  const source = readFileSync(gluePath, 'utf8');
  const patched = patchedGlueSource(source);
  assert.ok(patched !== null, 'occt-import-js changed: re-derive the replacements in occt-glue.ts for the new glue');
  assert.notEqual(patched, source);
  assert.equal(loadOcctFactory().patched, true);
});

test('the patched glue reads every input exactly as the stock glue does', async () => {
  const fast = await loadOcct(), stock = await loadOcct('stock');
  assert.notEqual(fast, stock);
  for (const [name, bytes] of INPUTS) {
    // twice: the second read runs with the type caches warm
    for (let k = 0; k < 2; k++) assert.deepStrictEqual(read(fast, bytes), read(stock, bytes), name);
  }
});

test('a glue that is not 0.0.23\'s byte for byte loads unchanged, and still reads STEP', async () => {
  const source = readFileSync(gluePath, 'utf8');
  assert.equal(patchedGlueSource(source + '\n'), null);
  assert.equal(patchedGlueSource(source.replace('var emval_returnValue=', 'var  emval_returnValue=')), null);
  const copy = join(tmp, 'occt-import-js.js');
  writeFileSync(copy, source + '\n// edited\n');
  const { factory, patched } = loadOcctFactory<Occt>(copy);
  assert.equal(patched, false);
  assert.equal(factory, createRequire(import.meta.url)(copy));
  const module = await compileOcct();
  const occt = await factory({
    print: () => {}, printErr: () => {},
    instantiateWasm: (imports, receive) => { const instance = new WebAssembly.Instance(module, imports); receive(instance, module); return instance.exports; },
  });
  const [name, bytes] = INPUTS[0];
  assert.deepStrictEqual(read(occt, bytes), read(await loadOcct('stock'), bytes), name);
});
