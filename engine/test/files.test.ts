// End to end on the sheet fixtures: analyzeModel -> production files -> read back independently.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { XMLValidator } from 'fast-xml-parser';
import { analyzeModel } from '../src/analyze.ts';
import { importStep } from '../src/import/index.ts';
import { buildSolid } from '../src/geometry/topology.ts';
import { productionFilesForModel, generateProductionFiles } from '../src/files/generate.ts';
import { writeProductionFiles } from '../src/files/write.ts';

const require = createRequire(import.meta.url);
const validator = require('gltf-validator') as { validateBytes(b: Uint8Array): Promise<{ issues: { numErrors: number; messages: unknown[] } }> };

const VOLUME_TOLERANCE = 0.001;
const FLAT_VOLUME_TOLERANCE = 0.002;

async function volumeOf(step: Uint8Array): Promise<number> {
  const solids = (await importStep(step)).map((s, i) => buildSolid(s, i));
  assert.equal(solids.length, 1);
  return solids[0].volume;
}

for (const name of ['plate_t3_holes_slot', 'l_t2_holes_near_bend', 'u_t1.5_slots']) {
  test(`${name}: production files match the part (STEP volume, flat STEP = area x t, GLB valid, labels)`, async () => {
    const bytes = new Uint8Array(readFileSync(new URL(`../../fixtures/sheet/${name}.step`, import.meta.url)));
    const model = await analyzeModel(bytes);
    assert.equal(model.parts.length, 1);
    const mp = model.parts[0];
    assert.equal(mp.analysis.kind, 'sheet', 'fixture is recognised as sheet metal');
    if (mp.analysis.kind !== 'sheet') return;
    const sheet = mp.analysis;
    const files = (await productionFilesForModel(bytes, model.parts, { kinds: ['production', 'image_iso_svg', 'image_flat_svg'] }))[mp.part.id];

    const formed = await volumeOf(files.production_step!);
    assert.ok(Math.abs(formed - mp.solid.volume) / mp.solid.volume <= VOLUME_TOLERANCE, `formed STEP ${formed} vs part ${mp.solid.volume}`);

    const expectedFlat = sheet.flat.area * sheet.thickness;
    const flat = await volumeOf(files.production_flat_step!);
    assert.ok(Math.abs(flat - expectedFlat) / expectedFlat <= FLAT_VOLUME_TOLERANCE, `flat STEP ${flat} vs area x t ${expectedFlat}`);

    for (const kind of ['production_model', 'production_flat_model'] as const) {
      const report = await validator.validateBytes(files[kind]!);
      assert.equal(report.issues.numErrors, 0, `${kind}: ${JSON.stringify(report.issues.messages.slice(0, 3))}`);
    }

    const flatSvg = new TextDecoder().decode(files.image_flat_svg!);
    assert.equal(XMLValidator.validate(flatSvg), true);
    for (const h of sheet.holes) assert.match(flatSvg, new RegExp(`data-ref="hole-${h.id}"[^>]*>H${h.id}<`));
    for (const b of sheet.bends) assert.match(flatSvg, new RegExp(`data-ref="bend-${b.id}"[^>]*>B${b.id} \\d+\u00b0 (up|down)<`));
    const isoSvg = new TextDecoder().decode(files.image_iso_svg!);
    assert.equal(XMLValidator.validate(isoSvg), true);
    for (const h of sheet.holes) assert.match(isoSvg, new RegExp(`>H${h.id}<`), `iso view labels hole ${h.id}`);
  });
}

for (const name of ['round-50x3-l250-holes', 'rect-80x40x3-r6-miter30-hole', 'square-30x2-r3-notch']) {
  test(`tube ${name}: production STEP keeps the volume, GLB valid, the flat image is the unrolled wall with every hole`, async () => {
    const bytes = new Uint8Array(readFileSync(new URL(`../../fixtures/tubes/${name}.step`, import.meta.url)));
    const model = await analyzeModel(bytes);
    const mp = model.parts[0];
    assert.equal(mp.analysis.kind, 'tube', 'fixture is recognised as a tube');
    const files = (await productionFilesForModel(bytes, model.parts, { kinds: ['production', 'image_flat_svg'] }))[mp.part.id];
    assert.equal(files.production_flat_step, undefined, 'a tube has no flat STEP');
    const formed = await volumeOf(files.production_step!);
    assert.ok(Math.abs(formed - mp.solid.volume) / mp.solid.volume <= VOLUME_TOLERANCE, `formed STEP ${formed} vs part ${mp.solid.volume}`);
    const report = await validator.validateBytes(files.production_model!);
    assert.equal(report.issues.numErrors, 0, JSON.stringify(report.issues.messages.slice(0, 3)));
    const flatSvg = new TextDecoder().decode(files.image_flat_svg!);
    assert.equal(XMLValidator.validate(flatSvg), true);
    for (const h of mp.part.holes) assert.match(flatSvg, new RegExp(`data-ref="hole-${h.id}"`));
  });
}

test('generateProductionFiles writes DIR/<part id>/<kind files> for --out', async () => {
  const bytes = new Uint8Array(readFileSync(new URL('../../fixtures/sheet/l_t2_r2.step', import.meta.url)));
  const files = await generateProductionFiles(bytes, { kinds: ['production', 'images'] });
  const dir = await mkdtemp(join(tmpdir(), 'kerf-files-'));
  try {
    await writeProductionFiles(dir, files);
    const [partDir] = await readdir(dir);
    assert.match(partDir, /^prt_/);
    const names = (await readdir(join(dir, partDir))).sort();
    for (const n of ['production_step.step', 'production_flat_step.step', 'production_model.glb', 'production_flat_model.glb', 'production_dxf.dxf', 'production_bend_lines_dxf.dxf', 'image_iso.svg', 'image_iso.png', 'image_flat.svg', 'image_top.png']) {
      assert.ok(names.includes(n), `${n} in ${names.join(', ')}`);
    }
  } finally { await rm(dir, { recursive: true, force: true }); }
});
