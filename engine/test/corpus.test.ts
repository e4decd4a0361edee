// Every real CAD export of the corpus (./corpus-dir.ts) analyses without a crash, each part either
// manufacturable with a plausible thickness and bend count, or refused with a precise reason.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { analyze } from '../src/index.ts';
import type { UnsupportedReason } from '../src/contract.ts';
import { CORPUS_DIR } from './corpus-dir.ts';

const dir = CORPUS_DIR;
const files = existsSync(dir) ? readdirSync(dir).filter((f) => /\.(step|stp)$/i.test(f)).sort() : [];

/** Plausible sheet-metal range for laser-cut parts, mm. */
const MIN_THICKNESS_MM = 0.3;
const MAX_THICKNESS_MM = 25;
const MAX_BENDS = 60;
const REASONS: UnsupportedReason[] = ['not_constant_thickness', 'not_unfoldable', 'not_a_tube', 'too_large', 'not_sheet_metal', 'unsupported_geometry', 'touching_flanges', 'non_cylindrical_bend'];
/** Per file, what a person sees in the part (checked where the recognisers already agree). */
const EXPECTED: Record<string, { process: 'sheet_metal' | 'tube_laser'; manufacturable: boolean; thickness?: number; todo?: string }> = {
  'ender3-y-plate.step': { process: 'sheet_metal', manufacturable: true, thickness: 4 },
  'ender3-x-motor-bracket.step': { process: 'sheet_metal', manufacturable: true, thickness: 3 },
  'ender3-y-motor-holder.step': { process: 'sheet_metal', manufacturable: true, thickness: 3 },
  'ender3-z-stent.step': { process: 'sheet_metal', manufacturable: true, thickness: 3 },
  'ender3-y-limit-switch-bracket.step': { process: 'sheet_metal', manufacturable: true, thickness: 5 },
  'ender3-sheetmetal-enclosure-bottom.step': { process: 'sheet_metal', manufacturable: true, thickness: 0.8 },
  'ender3-sheetmetal-enclosure-top.step': { process: 'sheet_metal', manufacturable: true, thickness: 0.8 },
  'thunderscope-pcie-bracket.step': { process: 'sheet_metal', manufacturable: true, thickness: 0.7874 },
  'ender3-support-tube.step': { process: 'tube_laser', manufacturable: false },
};

const designs = new Map<string, ReturnType<typeof analyze>>();
/** Each file is analysed once for both of its tests. */
function designOf(file: string): ReturnType<typeof analyze> {
  let d = designs.get(file);
  if (!d) designs.set(file, (d = analyze(readFileSync(dir + file), { fileName: file })));
  return d;
}

test('the corpus is present (CI keeps shared/ beside the clone)', () => {
  assert.ok(files.length >= 10, `corpus files found in ${dir}: ${files.length}`);
});

for (const file of files) {
  test(`corpus: ${file}`, { timeout: 120_000 }, async () => {
    const d = await designOf(file);
    assert.equal(d.status, 'ready');
    assert.ok(d.parts.length >= 1);
    for (const p of d.parts) {
      assert.ok(p.volume_mm3 > 0);
      assert.doesNotMatch(p.unsupported_message ?? '', /recognition failed/, 'a recogniser threw');
      if (p.manufacturable) {
        if (p.suggested_process === 'sheet_metal') {
          assert.ok(p.detected_thickness_mm! >= MIN_THICKNESS_MM && p.detected_thickness_mm! <= MAX_THICKNESS_MM, `thickness ${p.detected_thickness_mm}`);
          assert.ok(p.bend_count <= MAX_BENDS);
          assert.ok(p.flat_pattern && p.flat_pattern.area_mm2 > 0);
        } else {
          assert.ok(p.tube && p.tube.wall_thickness_mm > 0);
        }
      } else {
        assert.ok(REASONS.includes(p.unsupported_reason!), String(p.unsupported_reason));
        assert.ok((p.unsupported_message ?? '').length > 10, 'the refusal explains itself');
      }
    }
  });
  const want = EXPECTED[file];
  if (want) test(`corpus plausibility: ${file} is ${want.manufacturable ? 'a manufacturable' : 'an unmanufacturable'} ${want.process} part`, { timeout: 120_000, ...(want.todo ? { todo: want.todo } : {}) }, async () => {
    const d = await designOf(file);
    const p = d.parts[0];
    assert.equal(p.suggested_process, want.process);
    assert.equal(p.manufacturable, want.manufacturable, `${file}: ${p.unsupported_reason} ${p.unsupported_message}`);
    if (want.thickness !== undefined) assert.ok(Math.abs(p.detected_thickness_mm! - want.thickness) < 0.01, `thickness ${p.detected_thickness_mm}`);
  });
}
