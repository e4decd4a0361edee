// "Same answer for the same part every time": a part's production STEP files are the same bytes
// whatever the thread wrote before them (OCCT numbered every written PRODUCT with a per-thread
// counter, and stamped the time of writing), in this thread and in a pool worker that served other jobs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { analyzeModel } from '../src/analyze.ts';
import { productionFilesForModel } from '../src/files/generate.ts';
import { PRODUCTION_STEP_TIME_STAMP, writeFlatStep } from '../src/files/occt-exact.ts';
import { plateFlat } from './files-helpers.ts';
import { createEngine } from '../src/pool/engine.ts';
import { decodeStepName, encodeStepString } from '../src/import/step-string.ts';
import { importStep } from '../src/import/index.ts';

const fixture = (name: string) => new Uint8Array(readFileSync(new URL(`../../fixtures/${name}`, import.meta.url)));
const PART = 'sheet/l_t2_r2.step';
// others written in between: sheets (formed + flat) and a tube
const OTHERS = ['sheet/sharp_u_t3.step', 'tubes/rect-100x30x2-sharp-arm-windows.step', 'sheet/washer_flange_t2.step'];
const STEP_KINDS = ['production_step', 'production_flat_step'];
const OPTIONS = { createdAt: '2026-01-01T00:00:00.000Z', fileName: 'model.step' };

async function stepFilesOf(bytes: Uint8Array): Promise<Record<string, Uint8Array>> {
  const model = await analyzeModel(bytes, OPTIONS);
  const files = await productionFilesForModel(bytes, model.parts, { kinds: STEP_KINDS });
  const out: Record<string, Uint8Array> = {};
  for (const [pid, kinds] of Object.entries(files)) for (const [kind, data] of Object.entries(kinds)) out[`${pid}.${kind}`] = data!;
  return out;
}

const text = (b: Uint8Array) => new TextDecoder().decode(b);

function assertSameFiles(actual: Record<string, Uint8Array>, expected: Record<string, Uint8Array>, what: string): void {
  assert.deepEqual(Object.keys(actual).sort(), Object.keys(expected).sort());
  for (const key of Object.keys(expected)) assert.equal(text(actual[key]), text(expected[key]), `${key} ${what}`);
}

test('a part\'s production STEP files written after other parts are the bytes of its first write, in this thread and in a worker', async () => {
  const part = fixture(PART);
  const first = await stepFilesOf(part);
  assert.equal(Object.keys(first).length, 2, 'formed and flat STEP of the one part');
  for (const other of OTHERS) await stepFilesOf(fixture(other));
  assertSameFiles(await stepFilesOf(part), first, `after ${OTHERS.length} other files in the same thread`);

  const engine = createEngine({ threads: 1, idleTimeoutMs: 0 });
  try {
    for (const other of OTHERS.slice(0, 2)) await engine.generateProductionFiles(fixture(other), { kinds: STEP_KINDS });
    const files = await engine.generateProductionFiles(part, { kinds: STEP_KINDS });
    const fromWorker: Record<string, Uint8Array> = {};
    for (const [pid, kinds] of Object.entries(files)) for (const [kind, data] of Object.entries(kinds)) fromWorker[`${pid}.${kind}`] = new Uint8Array(data!);
    assertSameFiles(fromWorker, first, 'from a pool worker that served other jobs');
  } finally { await engine.close(); }
});

test('production STEP: PRODUCT named after the part, FILE_NAME with the fixed time stamp', async () => {
  const part = fixture(PART);
  const model = await analyzeModel(part, OPTIONS);
  const name = model.parts[0].part.name;
  const files = await stepFilesOf(part);
  for (const [key, data] of Object.entries(files)) {
    const step = text(data);
    const product = /^#\d+ = PRODUCT\('([^']*)','([^']*)',/m.exec(step);
    const expected = key.endsWith('production_flat_step') ? `${name} flat` : name;
    assert.deepEqual(product?.slice(1), [expected, expected], key);
    assert.match(step, new RegExp(`^FILE_NAME\\('[^']*','${PRODUCTION_STEP_TIME_STAMP}'`, 'm'), key);
    assert.doesNotMatch(step, /STEP translator/, key);
    assert.equal((await importStep(data))[0].name, expected, `${key}: read back, the part keeps its name`);
  }
});

test('encodeStepString writes 7-bit STEP strings that decodeStepName reads back', () => {
  for (const name of ["it's a \\ bracket", 'Гайка клепальная М4', 'Écrou Ø5 😀 x', 'plain-part_01']) {
    const encoded = encodeStepString(name);
    assert.match(encoded, /^[\x20-\x7e]*$/, `${name}: 7-bit`);
    assert.doesNotMatch(encoded.replace(/''/g, ''), /'/, `${name}: no lone quote`);
    assert.equal(decodeStepName(encoded), name);
  }
  assert.equal(encodeStepString("a'b"), "a''b");
  assert.equal(encodeStepString('Гa'), '\\X2\\0413\\X0\\a');
  assert.equal(encodeStepString('line\nbreak'), 'line break', 'control characters become spaces');
});

test('a part name with quotes, a backslash and Cyrillic is written 7-bit and read back as it was', async () => {
  const name = "Кронштейн 'L' 2\\3";
  const { flat } = plateFlat();
  const { step } = await writeFlatStep(flat.outer, flat.inner, 2, name);
  assert.ok(step.every((b) => b < 0x80), 'the file is 7-bit');
  assert.equal((await importStep(step))[0].name, name);
});
