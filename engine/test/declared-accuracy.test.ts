// A STEP file's declared distance accuracy (engine/src/import/accuracy.ts) sets how far vertices on
// edges may lie off a fitted face (engine/src/geometry/fit.ts): a Fusion export declares 0.01 mm, and its
// bend edges' vertices lie up to 0.008 mm off the bend cylinders.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { analyze } from '../src/analyze.ts';
import { declaredAccuracyMm } from '../src/import/accuracy.ts';

const FIXTURE = fileURLToPath(new URL('../../fixtures/real-parts/rover6-front-rear-bracket.step.gz', import.meta.url));
const text = (s: string): Uint8Array => new TextEncoder().encode(s);

test('the declared distance accuracy is read in mm from the unit it is given in', () => {
  const sw = "#186 = UNCERTAINTY_MEASURE_WITH_UNIT (LENGTH_MEASURE( 1.000000000000000100E-005 ), #1266, 'distance_accuracy_value', 'NONE');\n#1266 =( LENGTH_UNIT ( ) NAMED_UNIT ( * ) SI_UNIT ( .MILLI., .METRE. ) );\n";
  assert.equal(declaredAccuracyMm(text(sw)), 1.0000000000000001e-5);
  const inch = "#5=UNCERTAINTY_MEASURE_WITH_UNIT(LENGTH_MEASURE(0.001),#6,'DISTANCE_ACCURACY_VALUE','');\n#6=(CONVERSION_BASED_UNIT('INCH',#7)LENGTH_UNIT()NAMED_UNIT(#8));\n";
  assert.ok(Math.abs(declaredAccuracyMm(text(inch))! - 0.0254) < 1e-12);
  const metre = "#5=UNCERTAINTY_MEASURE_WITH_UNIT(LENGTH_MEASURE(1.E-05),#6,'distance_accuracy_value','');\n#6=(LENGTH_UNIT()NAMED_UNIT(*)SI_UNIT($,.METRE.));\n";
  assert.equal(declaredAccuracyMm(text(metre)), 0.01);
  assert.equal(declaredAccuracyMm(text("#5=UNCERTAINTY_MEASURE_WITH_UNIT(PLANE_ANGLE_MEASURE(1.E-05),#6,'angle_accuracy_value','');")), null);
  assert.equal(declaredAccuracyMm(text('ISO-10303-21;\nDATA;\nENDSEC;\n')), null);
  assert.equal(declaredAccuracyMm(gunzipSync(readFileSync(FIXTURE))), 0.01);
});

test('real: ROVER6 front/rear bracket (Autodesk Fusion, 0.01 mm declared accuracy) unfolds to its author\'s flat DXF', async () => {
  const design = await analyze(new Uint8Array(readFileSync(FIXTURE)), { kFactor: 0.44 }); // Fusion's default K-factor
  const part = design.parts[0];
  assert.equal(part.manufacturable, true, part.unsupported_message ?? '');
  assert.equal(part.detected_thickness_mm, 2);
  assert.equal(part.bend_count, 8);
  // the author's flat (frame/ROVER6_FRAME_FRONT_REAR_BRAKET.dxf): outer profile 520.504 x 375.420 mm, 217 inner profiles
  assert.ok(Math.abs(part.flat_pattern!.length_mm - 520.504) < 0.01, `length ${part.flat_pattern!.length_mm}`);
  assert.ok(Math.abs(part.flat_pattern!.width_mm - 375.420) < 0.01, `width ${part.flat_pattern!.width_mm}`);
  assert.equal(part.hole_count, 217);
});
