// Embossed panels: a pad pressed out of one flat face is left out of the flat (plain sheet there,
// cut-outs through it still cut), reported with formed_feature_ignored, and its volume accounted for.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { importStep } from '../src/import/index.ts';
import { buildSolid } from '../src/geometry/topology.ts';
import type { Solid } from '../src/geometry/model.ts';
import { recognizeSheet } from '../src/sheet/index.ts';
import { corpusPath, HAS_CORPUS } from './corpus-dir.ts';

const fixtures = fileURLToPath(new URL('../../fixtures/', import.meta.url));

/** The pad's volume is measured on the tessellation: its rim chords miss this fraction of the exact one. */
const PAD_VOLUME_TOLERANCE = 0.002;
/** Flat sizes are exact lines and arcs, mm. */
const FLAT_TOLERANCE_MM = 1e-6;

async function solidOf(path: string): Promise<Solid> {
  const [first] = await importStep(new Uint8Array(readFileSync(path)));
  return buildSolid(first, 0);
}

test('plate with an embossed panel: the flat is the plain plate with its hole, the emboss a formed_feature_ignored warning', async () => {
  const solid = await solidOf(fixtures + 'sheet/plate_embossed_t2.step');
  const r = recognizeSheet(solid, { kFactor: 0.5 });
  assert.equal(r.kind, 'sheet', r.kind === 'refused' ? `${r.reason}: ${r.message}` : '');
  if (r.kind !== 'sheet' || !('features' in r)) return;
  assert.equal(r.thickness, 2);
  assert.equal(r.bends.length, 0);
  assert.ok(Math.abs(r.flat.length - 120) < FLAT_TOLERANCE_MM && Math.abs(r.flat.width - 80) < FLAT_TOLERANCE_MM, `flat ${r.flat.length} x ${r.flat.width}`);
  // no cut where the panel is: only the 6 mm hole
  assert.equal(r.flat.inner.length, 1);
  assert.ok(Math.abs(r.flat.area - (120 * 80 - Math.PI * 9)) < 1e-6, `area ${r.flat.area}`);
  const warned = r.warnings.filter((w) => w.code === 'formed_feature_ignored');
  assert.equal(warned.length, 1, JSON.stringify(r.warnings));
  // the rim meets the face on a 51 x 31 mm rounded rectangle (50 x 30 pad, 0.5 mm die radius)
  assert.match(warned[0].message, /embossed panel 51\.0 x 31\.0 mm \(at its rim\), 2\.00 mm deep, at \(70\.0, 40\.0, /);
  assert.equal(r.features.length, 1);
  const f = r.features[0];
  assert.equal(f.emboss?.depth, 2);
  // volume identity: the plain plate plus the pad standing on it
  const pad = solid.volume - r.flat.area * r.thickness;
  assert.ok(Math.abs(f.volume - pad) <= PAD_VOLUME_TOLERANCE * pad, `pad ${f.volume} mm3, solid - flat x t ${pad} mm3`);
});

test('power holder: the 2 mm panel embossed round the window of one wall is left out of the flat, the window and holes through it are cut', { skip: HAS_CORPUS ? false : 'corpus not beside the clone', timeout: 120_000 }, async () => {
  const solid = await solidOf(corpusPath('ender3-power-holder.step'));
  const r = recognizeSheet(solid, { kFactor: 0.5 });
  assert.equal(r.kind, 'sheet', r.kind === 'refused' ? `${r.reason}: ${r.message}` : '');
  if (r.kind !== 'sheet' || !('features' in r)) return;
  const warned = r.warnings.filter((w) => w.code === 'formed_feature_ignored');
  assert.equal(warned.length, 1, JSON.stringify(r.warnings));
  assert.match(warned[0].message, /embossed panel 60\.0 x 50\.8 mm \(at its rim\), 2\.00 mm deep/);
  assert.match(warned[0].message, /cut-outs through it are cut/);
  // the 49 x 28 window and the two 2.6 mm holes go through the panel and the wall
  assert.equal(r.holes.filter((h) => h.shape === 'other').length, 1);
  assert.equal(r.holes.filter((h) => h.shape === 'round' && Math.abs((h.diameter ?? 0) - 2.6) < 1e-3).length, 2);
});
