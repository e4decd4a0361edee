// Names as people read them (#32.5): ISO 10303-21 escapes and raw 8-bit names written by CAD in
// non-English locales, through the importer, the design and the DFM image. The files are the
// generator's instanced assembly with its product names rewritten the way such writers write them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeStepName } from '../src/import/step-string.ts';
import { analyzeModel } from '../src/analyze.ts';
import { dfmImageOf } from '../src/dfm/image.ts';
import { readFileSync } from 'node:fs';

const NUT = 'Гайка клепальная М4';

test('decodeStepName: ISO 10303-21 escapes', () => {
  assert.equal(decodeStepName("it''s \\\\ \\X\\E9t\\X\\E9"), "it's \\ été");
  assert.equal(decodeStepName('\\X2\\041304300439043A0430\\X0\\ M4'), 'Гайка M4');
  assert.equal(decodeStepName('\\X4\\0001F6000000263A\\X0\\'), '😀☺');
  assert.equal(decodeStepName('\\S\\i'), 'é', '\\S\\ adds 128 in ISO 8859-1 by default');
  assert.equal(decodeStepName('\\PE\\\\S\\3\\S\\P'), 'Га', '\\PE\\ selects ISO 8859-5 for \\S\\');
  assert.equal(decodeStepName('\\X2\\04\\X0\\'), '\\X2\\04\\X0\\', 'a malformed escape stays as written');
});

test('decodeStepName: raw 8-bit names in their writer\'s code page, never mojibake', () => {
  const latin1 = (s: string, enc: 'utf8' | 'latin1' = 'utf8') => Buffer.from(s, enc).toString('latin1');
  assert.equal(decodeStepName('Ãàéêà êëåïàëüíàÿ Ì4'), NUT, 'Windows-1251 read as Latin-1');
  assert.equal(decodeStepName(latin1('Шайба ГОСТ 11371')), 'Шайба ГОСТ 11371', 'UTF-8 read as Latin-1');
  assert.equal(decodeStepName('Écrou à sertir Ø5'), 'Écrou à sertir Ø5', 'Latin-1 French stays');
  assert.equal(decodeStepName('Größe'), 'Größe', 'Latin-1 German stays');
  assert.equal(decodeStepName('Гайка'), 'Гайка', 'text already decoded stays');
  assert.equal(decodeStepName('M4x10 DIN 912'), 'M4x10 DIN 912');
});

test('an assembly with Windows-1251, escaped and UTF-8 names: readable in the design and on the DFM image', async () => {
  const model = await analyzeModel(new Uint8Array(readFileSync(new URL('../../fixtures/names/asm_names.step', import.meta.url))), { fileName: 'rivnut.step' });
  const names = model.design.parts.map((p) => p.name).sort();
  assert.deepEqual(names, ['Кронштейн» é', 'Шайба ГОСТ 11371', NUT].sort());
  const nut = model.design.parts.find((p) => p.name === NUT)!;
  assert.equal(nut.instance_count, 4);
  const svg = new TextDecoder().decode((await dfmImageOf(model, { partId: nut.id, view: 'flat', format: 'svg', issues: [] }))!);
  assert.ok(svg.includes(NUT), 'the DFM image names the part as the file does');
  assert.ok(!/[ÃÌ]/.test(svg), 'no mojibake on the image');
});
