// Every body accounted for (fixtures/bodies, see generate.ts there): surface models sewn into solids or
// refused open_shell by name, coincident copies listed as ignored duplicates, bodies named as the file
// names them, tabs bent along one line reported (and drawn) as separate bend segments.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import DxfParser from 'dxf-parser';
import { analyze, analyzeModel } from '../src/analyze.ts';
import { analyzeWithFiles } from '../src/files/generate.ts';
import { LAYER_BEND_DOWN, LAYER_BEND_UP } from '../src/dxf/index.ts';
import type { BodiesTruth } from '../../fixtures/bodies/generate.ts';

// dxf-parser's CommonJS default export, as dxf.test.ts takes it
const Parser = ((DxfParser as unknown as { default?: unknown }).default ?? DxfParser) as new () => { parseSync(text: string): unknown };
const dir = fileURLToPath(new URL('../../fixtures/bodies/', import.meta.url));
const manifest = JSON.parse(readFileSync(dir + 'truth.json', 'utf8')) as { fixtures: BodiesTruth[] };

/** Tessellated volume against the analytic one (chords of the bends), relative. */
const VOLUME_RELATIVE_TOLERANCE = 2e-3;
const LENGTH_TOLERANCE_MM = 0.01;
const ANGLE_TOLERANCE_DEGREES = 0.1;
const THICKNESS_TOLERANCE_MM = 0.01;

test('the bodies manifest covers a sewable and an unsewable surface model, named bodies, a zero-volume body and split bends', () => {
  const ids = manifest.fixtures.map((f) => f.id);
  for (const id of ['surface_l_sewable', 'surface_l_open', 'multibody_named', 'two_tabs_one_line', 'zero_volume_body']) assert.ok(ids.includes(id), id);
});

for (const f of manifest.fixtures) {
  test(`${f.id}: ${f.what}`, async () => {
    const design = await analyze(readFileSync(dir + f.file), { fileName: f.file });
    assert.deepEqual(design.parts.map((p) => p.name).sort(), f.parts.map((p) => p.name).sort(), 'the parts, by the names the file gives');
    assert.deepEqual(design.ignored_bodies.map((b) => ({ name: b.name, reason: b.reason })), f.ignored_bodies);
    for (const b of design.ignored_bodies) assert.match(b.message, new RegExp(`'${b.name}'`), 'an ignored body is named in its message');
    for (const want of f.parts) {
      const p = design.parts.find((x) => x.name === want.name)!;
      assert.equal(p.manufacturable, want.manufacturable, `${want.name}: ${p.unsupported_reason} ${p.unsupported_message}`);
      assert.equal(p.instance_count, want.instance_count, want.name);
      if (want.reason) {
        assert.equal(p.unsupported_reason, want.reason);
        assert.match(p.unsupported_message ?? '', new RegExp(`'${want.name}'`), 'the refusal names the body');
      }
      if (want.volume_mm3 !== null) assert.ok(Math.abs(p.volume_mm3 - want.volume_mm3) <= VOLUME_RELATIVE_TOLERANCE * want.volume_mm3, `${want.name}: volume ${p.volume_mm3}, want ${want.volume_mm3}`);
      else assert.equal(p.volume_mm3, 0, 'an open shell encloses no volume');
      const codes = p.warnings.map((w) => w.code);
      for (const w of want.warnings ?? []) assert.ok(codes.includes(w), `${want.name}: warning ${w} missing (${codes.join(', ')})`);
      if (!(want.warnings ?? []).includes('sewn_shells')) assert.ok(!codes.includes('sewn_shells'), 'only sewn bodies say they were sewn');
      if (want.thickness_mm !== undefined) assert.ok(Math.abs(p.detected_thickness_mm! - want.thickness_mm) <= THICKNESS_TOLERANCE_MM, `thickness ${p.detected_thickness_mm}`);
      if (want.bends) {
        assert.equal(p.bend_count, want.bends.length, JSON.stringify(p.bends));
        const got = p.bends.map((b) => b.length_mm).sort((a, b) => a - b), wantLengths = want.bends.map((b) => b.length_mm).sort((a, b) => a - b);
        got.forEach((l, i) => assert.ok(Math.abs(l - wantLengths[i]) <= LENGTH_TOLERANCE_MM, `bend length ${l}, want ${wantLengths[i]}`));
        for (const b of p.bends) {
          assert.ok(Math.abs(b.angle_degrees - 90) <= ANGLE_TOLERANCE_DEGREES, `angle ${b.angle_degrees}`);
          // a segment's drawn line is as long as the segment
          const [a, c] = b.line_mm!;
          assert.ok(Math.abs(Math.hypot(c[0] - a[0], c[1] - a[1]) - b.length_mm) <= LENGTH_TOLERANCE_MM, `bend ${b.id} line vs length`);
        }
      }
    }
  });
}

test('split bends: the bend-lines DXF draws only the two real segments, never a line across the gap', async () => {
  const f = manifest.fixtures.find((x) => x.id === 'two_tabs_one_line')!;
  const { files, design } = await analyzeWithFiles(readFileSync(dir + f.file), { kinds: ['production_bend_lines_dxf'] });
  const dxf = files[design.parts[0].id].production_bend_lines_dxf!;
  const doc = new Parser().parseSync(new TextDecoder().decode(dxf)) as { entities: Array<{ type: string; layer: string; vertices: Array<{ x: number; y: number }> }> };
  const lines = doc.entities.filter((e) => e.type === 'LINE' && (e.layer === LAYER_BEND_UP || e.layer === LAYER_BEND_DOWN));
  const lengths = lines.map((e) => Math.hypot(e.vertices[1].x - e.vertices[0].x, e.vertices[1].y - e.vertices[0].y)).sort((a, b) => a - b);
  assert.equal(lengths.length, f.bend_line_lengths_mm!.length);
  lengths.forEach((l, i) => assert.ok(Math.abs(l - f.bend_line_lengths_mm![i]) <= LENGTH_TOLERANCE_MM, `bend line ${l} mm`));
});

test('flange lengths of split bends are measured on each segment (the tab, not the base beside the gap)', async () => {
  const f = manifest.fixtures.find((x) => x.id === 'two_tabs_one_line')!;
  const { design } = await analyzeModel(readFileSync(dir + f.file));
  for (const b of design.parts[0].bends) {
    const [x, y] = b.flange_lengths_mm!.slice().sort((p, q) => p - q);
    // tab: 25 mm above the bend zone; base: 40 mm before it
    assert.ok(Math.abs(x - 25) <= LENGTH_TOLERANCE_MM && Math.abs(y - 40) <= LENGTH_TOLERANCE_MM, `flanges ${x}, ${y}`);
  }
});

test('split bends share one line id (the first segment\'s); bends on lines of their own carry none', async () => {
  const tabs = await analyze(readFileSync(dir + 'two_tabs_one_line.step'));
  const ids = tabs.parts[0].bends.map((b) => b.id);
  assert.deepEqual(tabs.parts[0].bends.map((b) => b.line_id), ids.map(() => Math.min(...ids)));
  const single = await analyze(readFileSync(dir + 'surface_l_sewable.step'));
  assert.equal(single.parts[0].bends[0].line_id, undefined);
});
