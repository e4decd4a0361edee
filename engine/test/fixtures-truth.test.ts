// Acceptance against the generated fixtures: for every entry of fixtures/truth.json, analyze() must
// match the analytic truth within the issue's tolerances (thickness +-0.01 mm, bend angle +-0.1 deg,
// inner radius +-0.01 mm, flat length/width +-0.02 mm, area +-0.1 %, cut length +-0.2 %, pierces and
// instance counts exact); negatives must be refused with a reason. One subtest per fixture and K,
// plus one per single-part sheet fixture reading its production DXFs back with dxf-parser.
// Cases the engine does not pass yet are listed in fixtures/engine-todo.json (test name -> observed
// mismatch) and run as todo; fixing the engine and deleting the entry turns them into hard tests.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { analyze, analyzeModel } from '../src/analyze.ts';
import { flatToDxf } from '../src/dxf/index.ts';
import { compareDxf } from '../../fixtures/lib/dxf-compare.ts';
import { compareDesign, type TruthManifest, type TruthFixture } from '../../fixtures/lib/truth-compare.ts';
import type { Design, Part } from '../src/contract.ts';

const FIXTURES = fileURLToPath(new URL('../../fixtures/', import.meta.url));
const manifest = JSON.parse(readFileSync(`${FIXTURES}truth.json`, 'utf8')) as TruthManifest;
const todo = JSON.parse(readFileSync(`${FIXTURES}engine-todo.json`, 'utf8')) as Record<string, string>;

test('truth manifest covers the issue fixture list', () => {
  const sheet = manifest.fixtures.filter((f) => f.category === 'sheet');
  assert.ok(sheet.length >= 30, `at least 30 sheet fixtures, got ${sheet.length}`);
  const features = new Set(manifest.fixtures.flatMap((f) => f.features));
  for (const f of ['L', 'U', 'Z', 'hat', 'offset', 'acute_bend', 'obtuse_bend', 'arcs', 'slot', 'countersink', 'tray', 'corner_relief',
    'hole_near_bend', 'orientation', 'inch', 'sharp_bend', 'assembly', 'mirror', 'machined', 'tapered', 'solid_bar', 'bspline_bend', 'torus_bend',
    // issue 17: curved cut edges across bends, hems open and closed, holes on inclined flanges
    'hole_in_bend', 'vent_slot', 'closed_hem', 'open_hem', 'inclined_flange']) {
    assert.ok(features.has(f), `a fixture with feature ${f}`);
  }
  const thicknesses = new Set(sheet.flatMap((f) => f.parts.map((p) => p.thickness_mm)));
  assert.ok(thicknesses.has(0.5) && thicknesses.has(6), 'thicknesses span 0.5 to 6 mm');
  for (const name of Object.keys(todo)) assert.ok(caseNames().includes(name), `engine-todo.json names an unknown case: ${name}`);
});

/** The design a perfect engine would return for a fixture: the comparator's own check. */
function perfectDesign(f: TruthFixture, k: number | undefined): Design {
  let n = 0;
  const parts: Part[] = f.parts.map((tp, pi) => ({
    id: `prt_${pi}`, name: tp.name, suggested_process: 'sheet_metal', manufacturable: tp.manufacturable,
    unsupported_reason: tp.manufacturable ? null : (tp.expected_reason as Part['unsupported_reason']), unsupported_message: null,
    instance_count: tp.instance_count, formed_dimensions: { length_mm: 0, width_mm: 0, height_mm: 0 },
    detected_thickness_mm: tp.thickness_mm ?? null, volume_mm3: tp.volume_mm3, surface_area_cm2: 0,
    bend_count: tp.bends?.length ?? 0,
    bends: (tp.bends ?? []).map((b, i) => ({ id: i + 1, ...b, direction: b.direction === 'up' ? 'down' : 'up' })), // the opposite top side is allowed
    hole_count: tp.holes?.length ?? 0,
    holes: (tp.holes ?? []).map((h, i) => {
      const dist = k === undefined ? undefined : tp.flat?.[String(k)]?.hole_distances?.[i];
      return { id: i + 1, shape: h.shape, diameter_mm: h.diameter_mm ?? 0, face_id: 0, center_mm: [0, 0] as [number, number], countersink: h.countersink ? { ...h.countersink } : null,
        nearest_bend_id: null, distance_to_nearest_edge_mm: dist?.to_edge_mm ?? 0, distance_to_nearest_bend_mm: dist?.to_bend_mm ?? null };
    }).reverse(),
    flat_pattern: k === undefined || !tp.flat ? null : { k_factor: k, ...tp.flat[String(k)] },
    flat_pattern_dimensions: k === undefined || !tp.flat ? null : { length_mm: tp.flat[String(k)].length_mm, width_mm: tp.flat[String(k)].width_mm, height_mm: tp.thickness_mm! },
    cut_length_mm: k === undefined || !tp.flat ? null : tp.flat[String(k)].cut_length_mm, tube: null, warnings: (tp.warnings ?? []).map((code) => ({ code, message: '' })), model_url: null, flat_pattern_model_url: null, image_url: null,
  }));
  return {
    id: 'des_x', object: 'design', status: 'ready', status_url: null, name: f.file, created_at: '', suggested_process: 'sheet_metal',
    formed_dimensions: null, parts: parts.reverse(), model_url: null, image_url: null, review_url: null, review_link_id: null, error: null, ignored_bodies: [],
    part_instances: parts.flatMap((p) => Array.from({ length: p.instance_count }, (_, i) => ({ id: `pin_${n++}`, part_id: p.id, instance_index: i }))),
  };
}

test('the comparator accepts a perfect design and catches every kind of error', () => {
  const byId = (id: string) => manifest.fixtures.find((f) => f.id === id)!;
  for (const f of manifest.fixtures) {
    const k = f.k_factors[f.k_factors.length - 1];
    assert.deepEqual(compareDesign(perfectDesign(f, k), f, k, manifest.tolerances), [], f.id);
  }
  const tol = manifest.tolerances;
  const csk = byId('plate_countersunk_t3');
  const l = byId('l_t3_r3_countersunk');
  const mixed = byId('mixed_angles_t2_r2');
  const asm = byId('asm_brackets_mirror');
  const neg = byId('neg_torus_bend');
  const cases: Array<[string, TruthFixture, (d: Design) => void]> = [
    ['thickness', l, (d) => { d.parts[0].detected_thickness_mm! += 0.011; }],
    ['bend angle', l, (d) => { d.parts[0].bends[0].angle_degrees += 0.11; }],
    ['inner radius', l, (d) => { d.parts[0].bends[0].radius_mm -= 0.011; }],
    ['bend missing', l, (d) => { d.parts[0].bends.pop(); d.parts[0].bend_count--; }],
    ['bend direction', mixed, (d) => { d.parts[0].bends[0].direction = d.parts[0].bends[0].direction === 'up' ? 'down' : 'up'; }],
    ['flat length', l, (d) => { d.parts[0].flat_pattern!.length_mm += 0.021; }],
    ['flat width', l, (d) => { d.parts[0].flat_pattern!.width_mm -= 0.021; }],
    ['flat area', l, (d) => { d.parts[0].flat_pattern!.area_mm2 *= 1.0011; }],
    ['cut length', l, (d) => { d.parts[0].flat_pattern!.cut_length_mm *= 0.9979; }],
    ['pierces', l, (d) => { d.parts[0].flat_pattern!.pierce_count++; }],
    ['k factor', l, (d) => { d.parts[0].flat_pattern!.k_factor = 0.4; }],
    ['hole diameter', l, (d) => { d.parts[0].holes[0].diameter_mm += 0.011; }],
    ['countersink lost', csk, (d) => { d.parts[0].holes.find((h) => h.countersink)!.countersink = null; }],
    ['countersink angle', csk, (d) => { d.parts[0].holes.find((h) => h.countersink?.angle_degrees === 82)!.countersink!.angle_degrees = 90; }],
    ['slot as round', byId('plate_slots_t2'), (d) => { d.parts[0].holes.find((h) => h.shape === 'slot')!.shape = 'round'; }],
    ['not manufacturable', l, (d) => { d.parts[0].manufacturable = false; d.parts[0].unsupported_reason = 'not_unfoldable'; }],
    ['instance count', asm, (d) => { d.parts[0].instance_count++; }],
    ['mirror merged', asm, (d) => { const a = d.parts.find((p) => p.instance_count === 1)!; d.parts = d.parts.filter((p) => p !== a); d.parts.find((p) => p.instance_count === 3)!.instance_count = 4; }],
    ['flat dimensions not repeated', l, (d) => { d.parts[0].flat_pattern_dimensions!.width_mm += 1; }],
    ['process', l, (d) => { d.parts[0].suggested_process = 'tube_laser'; }],
    ['sharp_bend warning', byId('sharp_l_t2'), (d) => { d.parts[0].warnings = []; }],
    ['hole edge distance', l, (d) => { d.parts[0].holes[0].distance_to_nearest_edge_mm += 0.05; }],
    ['hole bend distance', l, (d) => { d.parts[0].holes[0].distance_to_nearest_bend_mm = 99; }],
    ['hardware accepted silently', byId('neg_plate_with_standoff'), (d) => { d.parts[0].manufacturable = true; d.parts[0].unsupported_reason = null; }],
    ['negative accepted', neg, (d) => { d.parts[0].manufacturable = true; d.parts[0].unsupported_reason = null; }],
    ['negative without reason', neg, (d) => { d.parts[0].unsupported_reason = null; }],
  ];
  for (const [what, f, mutate] of cases) {
    const k = f.k_factors.length ? f.k_factors[0] : undefined;
    const d = perfectDesign(f, k);
    mutate(d);
    assert.notDeepEqual(compareDesign(d, f, k, tol), [], `a wrong ${what} must be reported`);
  }
});

test('every generated STEP file is in the manifest and every manifest file exists', () => {
  const listed = new Set(manifest.fixtures.map((f) => f.file));
  const onDisk = ['sheet', 'assembly', 'negative'].flatMap((dir) => readdirSync(`${FIXTURES}${dir}`).filter((n) => n.endsWith('.step')).map((n) => `${dir}/${n}`));
  assert.deepEqual(onDisk.filter((f) => !listed.has(f)), [], 'STEP files without truth');
  assert.deepEqual([...listed].filter((f) => !onDisk.includes(f)), [], 'truth entries without a file');
});

/** K at which the production DXFs are read back and compared with the truth. */
const DXF_K = 0.5;
const dxfFixtures = () => manifest.fixtures.filter((f) => f.category === 'sheet' && f.parts.length === 1 && f.parts[0].manufacturable);
function dxfCaseName(id: string): string { return `${id} DXF K=${DXF_K}`; }

function caseNames(): string[] {
  return [
    ...manifest.fixtures.flatMap((f) => (f.k_factors.length ? f.k_factors.map((k) => caseName(f.id, k)) : [caseName(f.id, undefined)])),
    ...dxfFixtures().map((f) => dxfCaseName(f.id)),
  ];
}
function caseName(id: string, k: number | undefined): string { return k === undefined ? `${id} (refused)` : `${id} K=${k}`; }

for (const fixture of manifest.fixtures) {
  const bytes = new Uint8Array(readFileSync(`${FIXTURES}${fixture.file}`));
  const ks: Array<number | undefined> = fixture.k_factors.length ? fixture.k_factors : [undefined];
  for (const k of ks) {
    const name = caseName(fixture.id, k);
    test(name, todo[name] ? { todo: todo[name] } : {}, async () => {
      const fileName = fixture.file.split('/').pop()!;
      const design = await analyze(bytes, k === undefined ? { fileName } : { fileName, kFactor: k });
      const mismatches = compareDesign(design, fixture, k, manifest.tolerances);
      assert.deepEqual(mismatches, [], `${fixture.file} (${fixture.description}) at ${k === undefined ? 'default K' : `K ${k}`}:\n  - ${mismatches.join('\n  - ')}`);
    });
  }
}

test('the DXF comparator catches wrong extents, areas, cut lengths, contours and bend lines', async () => {
  const fixture = manifest.fixtures.find((f) => f.id === 'washer_flange_t2')!;
  const bent = manifest.fixtures.find((f) => f.id === 'l_t2_holes_near_bend')!;
  const flatOf = async (f: typeof fixture) => {
    const m = await analyzeModel(new Uint8Array(readFileSync(`${FIXTURES}${f.file}`)), { kFactor: DXF_K });
    const a = m.parts[0].analysis;
    assert.equal(a.kind, 'sheet');
    return a.kind === 'sheet' ? a.flat : assert.fail('not sheet');
  };
  const washer = flatToDxf(await flatOf(fixture), { bendLines: true });
  const l = flatToDxf(await flatOf(bent), { bendLines: true });
  const tol = manifest.tolerances;
  assert.deepEqual(compareDxf(washer, fixture.parts[0], DXF_K, tol, true), [], 'the round outline (bulges) measures right');
  const wrong = (f: typeof fixture, change: (flat: Record<string, number>, part: (typeof fixture)['parts'][0]) => void) => {
    const part = structuredClone(f.parts[0]);
    change(part.flat![String(DXF_K)] as unknown as Record<string, number>, part);
    return part;
  };
  for (const [what, part, text] of [
    ['length', wrong(fixture, (fl) => { fl.length_mm += 0.05; }), washer],
    ['area', wrong(fixture, (fl) => { fl.area_mm2 *= 1.002; }), washer],
    ['cut length', wrong(fixture, (fl) => { fl.cut_length_mm *= 1.003; }), washer],
    ['inner contours', wrong(bent, (fl) => { fl.pierce_count += 1; }), l],
    ['bend lines', wrong(bent, (_, p) => { p.bends = [...p.bends!, p.bends![0]]; }), l],
  ] as const) {
    assert.notDeepEqual(compareDxf(text, part, DXF_K, tol, true), [], `a wrong ${what} must be reported`);
  }
  assert.notDeepEqual(compareDxf(washer.replace(/\$INSUNITS\r?\n\s*70\r?\n\s*4/, (m) => m.replace(/4$/, '1')), fixture.parts[0], DXF_K, tol, true), [], 'inch units must be reported');
});

// The production DXFs (same path as the file generator: the sheet analysis' flat through flatToDxf),
// read back with dxf-parser and measured from their own entities against the truth.
for (const fixture of dxfFixtures()) {
  const name = dxfCaseName(fixture.id);
  test(name, todo[name] ? { todo: todo[name] } : {}, async () => {
    const bytes = new Uint8Array(readFileSync(`${FIXTURES}${fixture.file}`));
    const model = await analyzeModel(bytes, { fileName: fixture.file.split('/').pop()!, kFactor: DXF_K });
    const tp = fixture.parts[0];
    const analysis = model.parts[0]?.analysis;
    if (analysis?.kind !== 'sheet') {
      if (analysis?.kind === 'refused' && tp.may_refuse_with?.includes(analysis.reason)) return;
      assert.fail(`${fixture.file}: no sheet analysis (${analysis?.kind}), so no flat DXF`);
    }
    const mismatches = [false, true].flatMap((bendLines) => compareDxf(flatToDxf(analysis.flat, { bendLines }), tp, DXF_K, manifest.tolerances, bendLines));
    assert.deepEqual(mismatches, [], `${fixture.file} (${fixture.description}) DXF at K ${DXF_K}:\n  - ${mismatches.join('\n  - ')}`);
  });
}
