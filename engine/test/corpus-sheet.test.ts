// The sheet outcome established for every real CAD export of the corpus (./corpus-dir.ts; what each part
// really is was checked on renders and face dumps): manufacturable with its thickness and bend count,
// or refused with the exact reason. Every unfolded part passes the volume identity at K = 0.5: flat area
// x t plus the material of the features left out of the flat equals the solid's volume, up to what its
// sharp corners explain (two planes meeting are made at the default radius, so the flat is shorter than
// the model's mid-surface; a near-zero bend face keeps its modelled radius and explains nothing) and the
// corner strips a closed-corner seam leaves for the weld.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { importStep } from '../src/import/index.ts';
import { buildSolid } from '../src/geometry/topology.ts';
import type { Solid } from '../src/geometry/model.ts';
import { recognizeSheet } from '../src/sheet/index.ts';
import { recognizeTube } from '../src/tube/index.ts';
import { CORPUS_DIR } from './corpus-dir.ts';

const dir = CORPUS_DIR;
const present = existsSync(dir);

/** Detected thickness must match within this, mm. */
const THICKNESS_TOLERANCE_MM = 0.02;
/** Volume identity slack for parts with no sharp bend and no seam (tessellation, countersinks). */
const VOLUME_IDENTITY_SLACK = 0.005;
/** Relative area a tessellated face may exceed the exact flat by (chords inside hole circles). */
const TESSELLATION_AREA_SLACK = 0.001;

type Outcome =
  | { sheet: true; t: number; bends: number; warnings?: Record<string, number>; /** explained volume deficit of the flat, fraction */ deficit?: number;
      /** blind features by kind (none unless listed) */ blind?: Record<string, number> }
  | { sheet: false; reason: string; process?: 'tube_laser' };

/**
 * Per file, with what was found. Deficits: a sharp corner (two planes) made at r = t keeps 0.64 t of
 * mid-surface length less than the model: e-plate's sharp bend 64 mm long on t 2.5 (2.4 %). Bends with a
 * near-zero modelled radius follow the model (issue 17): support-frame's are left with its 25 mm2 of
 * closed-corner strips (0.3 %), lcd-support's 65 degree bend with nothing.
 */
const EXPECTED: Record<string, Outcome> = {
  // flat plates
  'ender3-x-motor-bracket.step': { sheet: true, t: 3, bends: 0 },
  'ender3-y-limit-switch-bracket.step': { sheet: true, t: 5, bends: 0 },
  'ender3-y-motor-holder.step': { sheet: true, t: 3, bends: 0 },
  'ender3-y-plate.step': { sheet: true, t: 4, bends: 0 },
  'ender3-z-stent.step': { sheet: true, t: 3, bends: 0 },
  // PCIe bracket: two 90 degree bends, a 5 degree tongue, two 15 degree lances, an extruded M3 hole
  'thunderscope-pcie-bracket.step': { sheet: true, t: 0.787, bends: 5, warnings: { formed_feature_ignored: 1, sharp_bend: 1 } },
  // vented enclosure halves with PEM standoffs modelled in (bottom: 3 flanges with r 0.74)
  'ender3-sheetmetal-enclosure-bottom.step': { sheet: true, t: 0.8, bends: 3, warnings: { hardware_modelled: 4 } },
  'ender3-sheetmetal-enclosure-top.step': { sheet: true, t: 0.8, bends: 0, warnings: { hardware_modelled: 2 } },
  // 65 degree sharp bend, four 7 mm standoffs
  'ender3-lcd-support.step': { sheet: true, t: 2, bends: 1, warnings: { hardware_modelled: 4, sharp_bend: 1 } },
  // one interrupted sharp bend, two 4.5 mm standoffs, two 1.5 mm extruded holes
  'ender3-e-plate.step': { sheet: true, t: 2.5, bends: 1, warnings: { hardware_modelled: 2, formed_feature_ignored: 2, sharp_bend: 1 }, deficit: 0.026 },
  // channel with a foot; closed corners with a 0.002 mm sliver bend
  'ender3-support-frame.step': { sheet: true, t: 1.5, bends: 3, warnings: { closed_corner: 1, sharp_bend: 1 }, deficit: 0.004 },
  // the base reaches 3.9 mm past the outside of its sharp bend: it would overlap the flange in the flat
  'ender3-e-motor-bracket.step': { sheet: false, reason: 'touching_flanges' },
  // shelled box: spherical corners where three bends meet
  'ender3-fan-cover.step': { sheet: false, reason: 'non_cylindrical_bend' },
  // open box (2 mm walls, sharp inside corners, every outside edge rounded R0.5) whose front wall carries a
  // raised pad 2 mm proud with nothing recessed behind it: 4 mm of material there, not a formed emboss
  // (measured with FreeCAD: see the test of its message below)
  'ender3-power-holder.step': { sheet: false, reason: 'not_sheet_metal' },
  // moulded/printed parts: a 5 mm body with 29 mm pillars and torus blends; a filleted 42 x 12 x 10 block
  'ender3-x-limit-switch-bracket.step': { sheet: false, reason: 'not_sheet_metal' },
  'ender3-z-motor-bracket.step': { sheet: false, reason: 'not_sheet_metal' },
  // 5 mm plate with a milled recess 2.5 mm deep (14 x 15.6 mm, 8 % of the material: blind work, no longer a
  // thickness change, issue 22) and a 4 x 5 mm tab standing 7 mm, which the skin walk reads as a sharp-bent
  // flange lying on the plate in the flat
  'ender3-z-limit-switch-bracket.step': { sheet: false, reason: 'touching_flanges' },
  // stepped tube: the tube recogniser refuses it
  'ender3-support-tube.step': { sheet: false, reason: 'not_a_tube', process: 'tube_laser' },
};

async function solidOf(file: string): Promise<Solid> {
  const imported = await importStep(new Uint8Array(readFileSync(dir + file)));
  return buildSolid(imported[0], 0);
}

for (const [file, want] of Object.entries(EXPECTED)) {
  test(`corpus sheet outcome: ${file}`, { skip: present ? false : 'corpus not beside the clone', timeout: 120_000 }, async () => {
    const solid = await solidOf(file);
    const r = recognizeTube(solid) ?? recognizeSheet(solid, { kFactor: 0.5 });
    if (!want.sheet) {
      assert.equal(r.kind, 'refused', `${file} must be refused`);
      if (r.kind !== 'refused') return;
      assert.equal(r.reason, want.reason, r.message);
      assert.equal(r.process, want.process ?? 'sheet_metal');
      return;
    }
    assert.equal(r.kind, 'sheet', r.kind === 'refused' ? `${r.reason}: ${r.message}` : r.kind);
    if (r.kind !== 'sheet' || !('features' in r)) return;
    assert.ok(Math.abs(r.thickness - want.t) <= THICKNESS_TOLERANCE_MM, `thickness ${r.thickness}`);
    assert.equal(r.bends.length, want.bends, JSON.stringify(r.bends));
    const counts: Record<string, number> = {};
    for (const w of r.warnings) counts[w.code] = (counts[w.code] ?? 0) + 1;
    assert.deepEqual(counts, want.warnings ?? {}, JSON.stringify(r.warnings));
    const blind: Record<string, number> = {};
    for (const b of r.blindFeatures) blind[b.kind] = (blind[b.kind] ?? 0) + 1;
    assert.deepEqual(blind, want.blind ?? {}, JSON.stringify(r.blindFeatures));
    // plausibility: t is thin against the flat; the flat holds the largest face and spans the formed part
    assert.ok(r.flat.width > 4 * r.thickness, `flat ${r.flat.length} x ${r.flat.width}`);
    const largestFace = Math.max(...solid.faces.filter((f) => f.surface.kind === 'plane').map((f) => f.area));
    // (the face's area is measured on its tessellation, whose hole polygons are inscribed in the exact circles)
    assert.ok(r.flat.area >= largestFace * (1 - TESSELLATION_AREA_SLACK), `flat area ${r.flat.area} < largest face ${largestFace}`);
    const formed = Math.max(...[0, 1, 2].map((k) => solid.bbox.max[k] - solid.bbox.min[k]));
    assert.ok(Math.hypot(r.flat.length, r.flat.width) >= formed, `flat ${r.flat.length} x ${r.flat.width} cannot span the ${formed.toFixed(1)} mm part`);
    // volume identity at K = 0.5
    // features left out of the flat add material; blind work removes it
    const excluded = r.features.reduce((s, f) => s + f.volume, 0) - r.blindFeatures.reduce((s, b) => s + b.volume, 0);
    const deficit = (solid.volume - (r.flat.area * r.thickness + excluded)) / solid.volume;
    const allowed = want.deficit ?? 0;
    assert.ok(deficit >= -VOLUME_IDENTITY_SLACK && deficit <= allowed + VOLUME_IDENTITY_SLACK,
      `volume ${solid.volume.toFixed(1)} mm3, flat x t ${(r.flat.area * r.thickness).toFixed(1)}, features ${excluded.toFixed(1)}: deficit ${(deficit * 100).toFixed(2)} %, explained ${(allowed * 100).toFixed(1)} %`);
  });
}

// The Ender-3 power holder, measured independently with FreeCAD (Part.read of the STEP, one solid of 80
// faces, volume 51153.26 mm3): an open box of 2 mm walls (planes y -27/-25, y 25/27, x 55.5/57.5,
// x -57.5/-55.5, z 0/2), every outside edge rounded R0.5, inside corners sharp. Its front wall carries a
// pad whose top is the plane y = -29 (x -36..20, z 4.6..51.4, 680.5 mm2 around a 49 x 28 window): along
// y at (x 0, z 47) the material runs from y -29 to -25 (4 mm), at (x -30, z 10) and away from the pad from
// -27 to -25 (2 mm); 1709.9 mm3 lies outside y = -27 and the inside face y = -25 is one plane under it,
// so nothing is recessed: a pad of added material, not a pressed emboss. Refused for that, in words.
test('corpus: the power holder is refused for its raised pad (4 mm of material, nothing recessed behind), not for a blend', { skip: present ? false : 'corpus not beside the clone', timeout: 120_000 }, async () => {
  const r = recognizeSheet(await solidOf('ender3-power-holder.step'), { kFactor: 0.5 });
  assert.equal(r.kind, 'refused');
  if (r.kind !== 'refused') return;
  assert.equal(r.reason, 'not_sheet_metal');
  assert.match(r.message, /^a raised pad 59\.6 x 50\.4 mm around \(-8\.0, -28\.\d, 29\.9\) stands 2\.00 mm proud of the 2\.000 mm sheet and nothing behind it is recessed: the part is 4\.00 mm thick there\./);
  assert.match(r.message, /A press forms an emboss by pushing the sheet, so its back sinks as far as its face rises/);
  assert.match(r.message, /moulded or machined work, not sheet metal/);
});
