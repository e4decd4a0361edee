import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { PNG } from 'pngjs';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { productionFilesForModel, type ModelPart } from '../src/files/generate.ts';
import { analyzeModel } from '../src/analyze.ts';
import { VIEWS } from '../src/files/views.ts';
import type { Part } from '../src/contract.ts';
import type { SheetAnalysis, TubeAnalysis } from '../src/geometry/model.ts';
import { isWallHole } from '../src/tube/wall-holes.ts';
import { plateAnalysis, solidsOf, turnedFrame } from './files-helpers.ts';
import { corpusPath } from './corpus-dir.ts';

const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' });

function labelsOf(svg: string): string[] {
  assert.equal(XMLValidator.validate(svg), true, 'SVG is well-formed XML');
  const doc = parser.parse(svg);
  const groups = [doc.svg.g].flat().filter(Boolean);
  const labelGroup = groups.find((g: { class?: string }) => g.class === 'labels');
  if (!labelGroup) return [];
  // a flat's bend label goes on with its angle and direction ("B1 90° up"): its first word names it
  return [labelGroup.text].flat().map((t: { '#text': string | number }) => String(t['#text']).split(' ')[0]);
}

/** A fixture (path under fixtures/) through the real analysis: its bytes and its first part. */
async function analysedFixture(path: string): Promise<{ bytes: Uint8Array; mp: ModelPart }> {
  const bytes = new Uint8Array(readFileSync(new URL(`../../fixtures/${path}`, import.meta.url)));
  return { bytes, mp: (await analyzeModel(bytes)).parts[0] };
}

async function sheetModel(): Promise<{ bytes: Uint8Array; mp: ModelPart; analysis: SheetAnalysis }> {
  const { bytes, solids } = await solidsOf(corpusPath('thunderscope-pcie-bracket.step'));
  const solid = solids[0];
  const analysis = plateAnalysis(turnedFrame(0, [0, 0, 0]), 0.79);
  // label the formed views on real faces: the first cylinder faces of the bracket
  const cylinders = solid.faces.filter((f) => f.surface.kind === 'cylinder').map((f) => f.id);
  analysis.holes[0].faceId = cylinders[0];
  analysis.holes[1].faceId = cylinders[1];
  analysis.bends[0].faceIds = [cylinders[2]];
  return { bytes, analysis, mp: { part: { id: 'prt_s', name: 'bracket' } as Part, solid, analysis } };
}

test('every view is an SVG that parses as XML, with hole and bend labels by ID', async () => {
  const { bytes, mp } = await sheetModel();
  const files = await productionFilesForModel(bytes, [mp], { kinds: ['svg'] });
  const kinds = Object.keys(files.prt_s).sort();
  assert.deepEqual(kinds, VIEWS.map((v) => `image_${v}_svg`).sort());
  for (const view of VIEWS) {
    const svg = new TextDecoder().decode(files.prt_s[`image_${view}_svg`]!);
    const labels = labelsOf(svg);
    assert.ok(labels.includes('H1') && labels.includes('H2'), `${view}: hole labels in ${labels}`);
    assert.ok(labels.includes('B1'), `${view}: bend label in ${labels}`);
    assert.match(svg, new RegExp(`data-view="${view}"`));
  }
  const flat = new TextDecoder().decode(files.prt_s.image_flat_svg!);
  assert.match(flat, /<line [^>]*stroke-dasharray/, 'flat view draws the bend line dashed');
  assert.match(flat, /data-ref="bend-1"/);
});

test('views differ: top and front of a bent part are different drawings', async () => {
  const { bytes, mp } = await sheetModel();
  const files = await productionFilesForModel(bytes, [mp], { kinds: ['image_top_svg', 'image_front_svg'] });
  assert.notEqual(Buffer.from(files.prt_s.image_top_svg!).toString(), Buffer.from(files.prt_s.image_front_svg!).toString());
});

test('PNG images are valid PNG with the requested size and are not blank', async () => {
  const { bytes, mp } = await sheetModel();
  const files = await productionFilesForModel(bytes, [mp], { kinds: ['image_iso_png', 'image_flat_png'], imageWidth: 320, imageHeight: 240 });
  for (const kind of ['image_iso_png', 'image_flat_png'] as const) {
    const png = PNG.sync.read(Buffer.from(files.prt_s[kind]!));
    assert.equal(png.width, 320);
    assert.equal(png.height, 240);
    let ink = 0;
    for (let p = 0; p < png.data.length; p += 4) if (png.data[p] !== 255 || png.data[p + 1] !== 255 || png.data[p + 2] !== 255) ink++;
    assert.ok(ink > 320 * 240 * 0.05, `${kind}: ${ink} drawn pixels`);
  }
});

test('formed views of analysed parts label every bend and hole by ID: rolled bends on their faces, sharp bends on their edge', async () => {
  for (const name of ['hat_t2_r2.4.step', 'sharp_u_t3.step', 'tray_t1.2_r1.2_flange_holes.step']) {
    const { bytes, mp } = await analysedFixture(`sheet/${name}`);
    assert.equal(mp.analysis?.kind, 'sheet', name);
    const sheet = mp.analysis as SheetAnalysis;
    assert.ok(sheet.bends.length > 0, `${name} has bends`);
    const files = await productionFilesForModel(bytes, [mp], { kinds: ['image_iso_svg', 'image_top_svg'] });
    for (const view of ['iso', 'top'] as const) {
      const labels = labelsOf(new TextDecoder().decode(files[mp.part.id][`image_${view}_svg`]!));
      for (const b of sheet.bends) assert.ok(labels.includes(`B${b.id}`), `${name} ${view}: bend B${b.id} labelled (labels ${labels})`);
      for (const h of sheet.holes) assert.ok(labels.includes(`H${h.id}`), `${name} ${view}: hole H${h.id} labelled (labels ${labels})`);
    }
  }
});

test('tube views label the holes and slots with the ids of Part.holes, and the other cuts (end cuts, notches) as features', async () => {
  for (const name of ['round-50x3-l250-holes.step', 'rect-60x30x2.5-r5-l400-slots.step', 'square-30x2-r3-notch.step', 'rect-100x50x3-sharp-window-trapezoid.step']) {
    const { bytes, mp } = await analysedFixture(`tubes/${name}`);
    assert.equal(mp.analysis?.kind, 'tube', name);
    const files = await productionFilesForModel(bytes, [mp], { kinds: ['image_iso_svg'] });
    const labels = labelsOf(new TextDecoder().decode(files[mp.part.id].image_iso_svg!));
    for (const h of mp.part.holes) assert.ok(labels.includes(`H${h.id}`), `${name}: hole H${h.id} labelled (labels ${labels})`);
    // a notch has no contour of its own (it is part of its end cut's), so the end cut's label marks it
    const others = (mp.analysis as TubeAnalysis).features.filter((f) => !isWallHole(f) && f.kind !== 'notch');
    assert.ok(others.every((f) => (f.faceIds ?? []).length > 0), `${name}: every cut but notches has faces`);
    for (const f of others) assert.ok(labels.includes(`F${f.id}`), `${name}: ${f.kind} F${f.id} labelled (labels ${labels})`);
    assert.ok(mp.part.holes.length + others.length > 0, `${name} has cuts to label`);
  }
});

test('labels of features behind the part are faded, not dropped: a tube hole shows from its own side and is hidden from the other', async () => {
  const views = ['top', 'bottom', 'front', 'back', 'left', 'right'] as const;
  const hiddenRefs = (svg: string): Set<string> => new Set([...svg.matchAll(/data-ref="([a-z]+-\d+)"[^>]*data-hidden="true"/g)].map((m) => m[1]));
  for (const name of ['round-50x3-l250-holes.step', 'rect-80x40x3-r6-miter30-hole.step', 'square-40x2-sharp-l200-cross-hole.step']) {
    const { bytes, mp } = await analysedFixture(`tubes/${name}`);
    const files = await productionFilesForModel(bytes, [mp], { kinds: views.map((v) => `image_${v}_svg`) });
    const svgs = views.map((v) => new TextDecoder().decode(files[mp.part.id][`image_${v}_svg`]!));
    assert.ok(mp.part.holes.length > 0, name);
    for (const h of mp.part.holes) {
      const ref = `hole-${h.id}`;
      const labelled = svgs.filter((s) => s.includes(`data-ref="${ref}"`)).length;
      const hidden = svgs.filter((s) => hiddenRefs(s).has(ref)).length;
      assert.equal(labelled, views.length, `${name} H${h.id} labelled in every view`);
      assert.ok(hidden >= 1 && hidden < views.length, `${name} H${h.id}: hidden in ${hidden} of ${views.length} views`);
    }
  }
  // a flat plate: every hole is seen from above
  const { bytes: plate, mp: pp } = await analysedFixture('sheet/plate_t3_holes_slot.step');
  const top = new TextDecoder().decode((await productionFilesForModel(plate, [pp], { kinds: ['image_top_svg'] }))[pp.part.id].image_top_svg!);
  assert.equal(hiddenRefs(top).size, 0, 'nothing of a plate is hidden from above');
  assert.ok(labelsOf(top).length > 0);
});
