// What the real CAD corpus taught the sheet recogniser, pinned on small generated solids with analytic
// truth (fixtures/corpus-lessons, see generate.ts there): extruded holes and fused hardware are left out
// of the flat with a warning, flanges that only touch at closed corners are cut apart, a face reaching
// past its bend is refused with where it is.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { importStep } from '../src/import/index.ts';
import { buildSolid } from '../src/geometry/topology.ts';
import { recognizeSheet } from '../src/sheet/index.ts';
import type { LessonTruth } from '../../fixtures/corpus-lessons/generate.ts';

const dir = fileURLToPath(new URL('../../fixtures/corpus-lessons/', import.meta.url));
const manifest = JSON.parse(readFileSync(dir + 'truth.json', 'utf8')) as { k_factor: number; lessons: LessonTruth[] };

/** Tolerances, mm / relative (the same as the main fixture truth). */
const THICKNESS_TOLERANCE_MM = 0.01;
const DIMENSION_TOLERANCE_MM = 0.02;
const AREA_RELATIVE_TOLERANCE = 0.001;
const ANGLE_TOLERANCE_DEGREES = 0.1;

async function recognize(file: string) {
  const [imported, ...rest] = await importStep(readFileSync(dir + file));
  assert.equal(rest.length, 0, `${file} is one solid`);
  return recognizeSheet(buildSolid(imported, 0), { kFactor: manifest.k_factor });
}

test('the lessons manifest lists every lesson with its corpus origin', () => {
  assert.ok(manifest.lessons.length >= 4);
  for (const l of manifest.lessons) assert.match(l.corpus, /\.step$/, l.id);
});

for (const l of manifest.lessons) {
  test(`lesson ${l.id} (${l.corpus}): ${l.lesson}`, l.todo ? { todo: l.todo } : {}, async () => {
    const r = await recognize(l.file);
    if (!l.manufacturable) {
      assert.equal(r.kind, 'refused', `${l.id} must be refused`);
      if (r.kind !== 'refused') return;
      assert.equal(r.reason, l.reason, r.message);
      if (r.reason === 'touching_flanges') assert.match(r.message, /near \(-?\d+\.\d\d, -?\d+\.\d\d, -?\d+\.\d\d\) of the model/, 'the refusal says where');
      if (r.reason === 'not_sheet_metal') {
        assert.match(r.message, /mm thick within a [\d.]+ x [\d.]+ x [\d.]+ mm envelope|at \([^)]*\) stands [\d.]+ mm outside the [\d.]+ mm sheet over a [\d.]+ x [\d.]+ x [\d.]+ mm region/, 'the refusal gives the envelope or the body and its size');
      }
      return;
    }
    assert.equal(r.kind, 'sheet', r.kind === 'refused' ? `${r.reason}: ${r.message}` : '');
    if (r.kind !== 'sheet') return;
    assert.ok(Math.abs(r.thickness - l.thickness_mm!) <= THICKNESS_TOLERANCE_MM, `thickness ${r.thickness}`);
    assert.equal(r.bends.length, l.bend_count, JSON.stringify(r.bends));
    const angles = r.bends.map((b) => b.angleDegrees).sort((a, b) => a - b);
    const want = l.bends!.map((b) => b.angle_degrees).sort((a, b) => a - b);
    angles.forEach((a, i) => assert.ok(Math.abs(a - want[i]) <= ANGLE_TOLERANCE_DEGREES, `bend angle ${a}, want ${want[i]}`));
    assert.deepEqual(r.bends.map((b) => b.sharp).sort(), l.bends!.map((b) => b.sharp).sort());
    const holes = r.holes.map((h) => h.diameter).sort((a, b) => a - b);
    assert.equal(holes.length, l.hole_diameters_mm!.length, `holes ${holes.join(', ')}`);
    holes.forEach((d, i) => assert.ok(Math.abs(d - l.hole_diameters_mm![i]) <= DIMENSION_TOLERANCE_MM, `hole ${d}`));
    const codes = r.warnings.map((w) => w.code);
    for (const w of l.warnings ?? []) assert.ok(codes.includes(w), `warning ${w} missing: ${codes.join(', ')}`);
    const f = l.flat!;
    assert.ok(Math.abs(r.flat.length - f.length_mm) <= DIMENSION_TOLERANCE_MM, `flat length ${r.flat.length}, want ${f.length_mm}`);
    assert.ok(Math.abs(r.flat.width - f.width_mm) <= DIMENSION_TOLERANCE_MM, `flat width ${r.flat.width}, want ${f.width_mm}`);
    assert.ok(Math.abs(r.flat.area - f.area_mm2) / f.area_mm2 <= AREA_RELATIVE_TOLERANCE, `flat area ${r.flat.area}, want ${f.area_mm2}`);
  });
}

test('lesson warnings name the feature: extrusion bore, standoff size and place, no hole under a blind standoff, seam length', async () => {
  const byId = new Map(manifest.lessons.map((l) => [l.id, l]));
  const message = async (id: string, code: string) => {
    const r = await recognize(byId.get(id)!.file);
    assert.equal(r.kind, 'sheet');
    return r.kind === 'sheet' ? r.warnings.find((w) => w.code === code)?.message ?? '' : '';
  };
  assert.match(await message('extruded_hole_plate', 'formed_feature_ignored'), /extruded \(flanged\) hole \(Ø4\.00\/Ø3\.20 mm, 1\.20 mm high\) at \(20\.0, 20\.0, [\d.]+\).*cuts a Ø1\.82 mm pre-hole there, the ring out to the Ø3\.20 mm bore/);
  // issue 32: with no hole beneath it, the flat gets the M3 standoff's catalog mounting hole
  assert.match(await message('blind_standoff_plate', 'hardware_modelled'), /M3 standoff \(Ø6\.00\/Ø2\.70 mm, 7\.00 mm high\) .*at \(70\.0, 30\.0, [\d.]+\).*the flat cuts a Ø4\.22 mm mounting hole there/);
  // two seams of (10 - 1.5) mm where the foot meets the flanges
  assert.match(await message('channel_foot_closed_corners', 'closed_corner'), /2 edge\(s\) \(17\.0 mm\)/);
});
