// DFM test matrix: every rule has a case that triggers it and one that passes it; statuses,
// risk acceptance, capabilities, configuration validation, no image without geometry, determinism.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { defaultCatalog } from '../src/catalog/index.ts';
import { dfm, InvalidConfigurationError, type DfmReport } from '../src/dfm/index.ts';
import { bend, designOf, hole, sheetPart, tubePart } from './helpers/examples.ts';
import { flangeLengths } from '../src/sheet/flange.ts';
import { materialKFactors } from '../src/dfm/k-factor.ts';
import type { Part } from '../src/contract.ts';

const catalog = defaultCatalog();
const STEEL = 'mat_mild_steel_0_060in'; // t 1.524, the examples' thickness
const TUBE = 'tub_4130_round_1_000od_0_065w';
const CTX = { id: 'dfm_test', now: '2026-11-22T00:00:00.000Z' };

function run(parts: Part[], configuration: unknown): DfmReport {
  return dfm(designOf(parts), configuration, catalog, CTX);
}
const codes = (r: DfmReport): string[] => r.parts.flatMap((p) => p.issues.map((i) => i.code)).concat(r.assembly_issues.map((i) => i.code));
const steel = (extra: Record<string, unknown> = {}, parts: unknown[] = []): unknown => ({ defaults: { material_id: STEEL, tube_profile_id: TUBE }, parts, ...extra });
const partCfg = (o: Record<string, unknown>): Record<string, unknown> => ({ part_id: 'prt_bracket', ...o });

const SOURCES = ['geometry', 'configuration', 'catalog', 'assembly'];
/** Every issue of a report has the contract's keys in order and a source from the enum. */
function assertIssueShapes(r: DfmReport): void {
  for (const i of [...r.parts.flatMap((p) => p.issues), ...r.assembly_issues]) {
    assert.deepEqual(Object.keys(i), ['code', 'message', 'severity', 'accepted', 'source', 'part_id', 'hole_id', 'bend_id', 'operation', 'details'], i.code);
    assert.ok(SOURCES.includes(i.source), `${i.code}: source ${i.source}`);
  }
}

/** Asserts the rule fires on `bad` and not on `good`. */
function rule(code: string, bad: () => DfmReport, good: () => DfmReport): void {
  test(`${code}: triggers`, () => { const r = bad(); assert.ok(codes(r).includes(code), `${code} expected, got ${codes(r).join(',')}`); assert.equal(r.status, 'blocked'); assertIssueShapes(r); });
  test(`${code}: passes`, () => { const r = good(); assert.ok(!codes(r).includes(code), `${code} not expected, got ${codes(r).join(',')}`); });
}

describe('statuses', () => {
  test('ready: a clean bracket and tube with their stock', () => {
    const r = run([sheetPart(), tubePart()], steel());
    assert.equal(r.status, 'ready');
    assert.deepEqual(codes(r), []);
    assert.equal(r.object, 'dfm_report');
    assert.equal(r.catalog_version, catalog.version);
    assert.equal(r.production_files.status, 'pending');
    assert.equal(r.id, 'dfm_test');
    assert.equal(r.parts[0].part_id, 'prt_bracket');
    assert.equal(r.parts[0].image_url, null, 'the report id and part_id name the image; the engine builds no URL');
    assert.equal(r.parts[0].material_id, STEEL);
    assert.equal(r.parts[1].tube_profile_id, TUBE);
    assert.ok(r.parts[0].k_factor! > 0.3 && r.parts[0].k_factor! <= 0.5);
  });
  test('requires_input: a requirement per missing selection with field and its catalog', () => {
    const r = run([sheetPart(), tubePart()], {});
    assert.equal(r.status, 'requires_input');
    assert.deepEqual(r.requirements.map((q) => [q.code, q.field, q.part_id, q.part_ids, q.catalog]), [
      ['material_required', 'material_id', 'prt_bracket', ['prt_bracket'], 'materials'],
      ['tube_profile_required', 'tube_profile_id', 'prt_tube', ['prt_tube'], 'tube-profiles'],
    ]);
    assert.equal(r.production_files.status, 'skipped');
    assert.equal(r.parts[0].capabilities.taps.available, false);
    assert.match(r.parts[0].capabilities.taps.unavailable_reason!, /material/);
  });
  test('part override beats defaults', () => {
    const r = run([sheetPart()], { defaults: { material_id: 'mat_mild_steel_2_0mm' }, parts: [partCfg({ material_id: STEEL })] });
    assert.equal(r.parts[0].material_id, STEEL);
    assert.equal(r.status, 'ready');
  });
  test('blocked beats requires_input across parts', () => {
    const r = run([sheetPart({ manufacturable: false, unsupported_reason: 'not_unfoldable', unsupported_message: 'cannot unfold' }), tubePart()], {});
    assert.equal(r.status, 'blocked');
  });
});

describe('stock rules', () => {
  rule('part_not_manufacturable',
    () => run([sheetPart({ manufacturable: false, unsupported_reason: 'not_constant_thickness', unsupported_message: 'the wall thickness varies' })], steel()),
    () => run([sheetPart()], steel()));
  test('part_not_manufacturable carries the recogniser message', () => {
    const r = run([sheetPart({ manufacturable: false, unsupported_reason: 'not_constant_thickness', unsupported_message: 'the wall thickness varies' })], steel());
    assert.equal(r.parts[0].issues[0].message, 'the wall thickness varies');
    assert.equal(r.parts[0].issues[0].details.reason, 'not_constant_thickness');
  });
  rule('thickness_mismatch',
    () => run([sheetPart()], { defaults: { material_id: 'mat_mild_steel_2_0mm' } }),
    () => run([sheetPart()], steel()));
  test('thickness tolerance is +-max(0.05 mm, 5 %)', () => {
    // 0.060" = 1.524 mm: tolerance 0.0762 mm
    assert.ok(!codes(run([sheetPart({ detected_thickness_mm: 1.524 + 0.075 })], steel())).includes('thickness_mismatch'));
    assert.ok(codes(run([sheetPart({ detected_thickness_mm: 1.524 + 0.078 })], steel())).includes('thickness_mismatch'));
  });
  rule('invalid_material_id', () => run([sheetPart()], { defaults: { material_id: 'mat_unobtainium_1mm' } }), () => run([sheetPart()], steel()));
  rule('stock_not_for_process',
    () => run([sheetPart()], { defaults: { material_id: STEEL }, parts: [partCfg({ tube_profile_id: TUBE })] }),
    () => run([sheetPart()], steel()));
  rule('tube_profile_mismatch',
    () => run([tubePart()], { defaults: { tube_profile_id: 'tub_4130_round_1_500od_0_065w' } }),
    () => run([tubePart()], { defaults: { tube_profile_id: TUBE } }));
  test('tube_profile_mismatch: square part is not a round profile; rectangular matches either orientation', () => {
    const sq = tubePart({ tube: { profile: 'rectangular', outer_diameter_mm: null, outer_width_mm: 50.8, outer_height_mm: 101.6, wall_thickness_mm: 3.048, corner_radius_mm: 6, length_mm: 300, cut_length_mm: 600 } });
    assert.ok(!codes(run([sq], { defaults: { tube_profile_id: 'tub_a500_rectangular_4_00x2_00_0_120w' } })).includes('tube_profile_mismatch'));
    assert.ok(codes(run([sq], { defaults: { tube_profile_id: 'tub_a500_square_2_00x2_00_0_120w' } })).includes('tube_profile_mismatch'));
    assert.ok(codes(run([sq], { defaults: { tube_profile_id: TUBE } })).includes('tube_profile_mismatch'));
  });
  rule('part_too_large',
    () => run([sheetPart({ flat_pattern: { ...sheetPart().flat_pattern!, length_mm: 1200 } })], steel()),
    () => run([sheetPart({ flat_pattern: { ...sheetPart().flat_pattern!, length_mm: 1100 } })], steel()));
  rule('part_too_small',
    () => run([sheetPart({ bends: [], bend_count: 0, holes: [], flat_pattern: { ...sheetPart().flat_pattern!, length_mm: 8, width_mm: 5 } })], steel()),
    () => run([sheetPart({ bends: [], bend_count: 0, holes: [], flat_pattern: { ...sheetPart().flat_pattern!, length_mm: 10, width_mm: 7 } })], steel()));
  test('part_too_small: a bent part needs 1.5" x 0.375" of flat', () => {
    const flat = (L: number, W: number) => ({ ...sheetPart().flat_pattern!, length_mm: L, width_mm: W });
    const bent = (L: number, W: number) => sheetPart({ holes: [], bends: [bend(1, { length_mm: W })], flat_pattern: flat(L, W) });
    assert.ok(codes(run([bent(37, 30)], steel())).includes('part_too_small'));
    assert.ok(codes(run([bent(149, 9)], steel())).includes('part_too_small'));
    assert.ok(!codes(run([bent(149, 30)], steel())).includes('part_too_small'), 'a long narrow U channel is fine');
  });
  rule('part_too_long',
    () => run([tubePart({ tube: { ...tubePart().tube!, length_mm: 6000 } })], steel()),
    () => run([tubePart({ tube: { ...tubePart().tube!, length_mm: 5900 } })], steel()));
});

describe('bend rules', () => {
  rule('material_not_bendable',
    () => run([sheetPart({ detected_thickness_mm: 3.175 })], { defaults: { material_id: 'mat_6061_t6_0_125in' } }),
    () => run([sheetPart({ detected_thickness_mm: 3.175, bends: [], bend_count: 0 })], { defaults: { material_id: 'mat_6061_t6_0_125in' } }));
  rule('bend_radius_too_small',
    () => run([sheetPart({ detected_thickness_mm: 1.5, bends: [bend(1, { radius_mm: 1.0 })] })], { defaults: { material_id: 'mat_304_1_5mm' } }),
    () => run([sheetPart({ detected_thickness_mm: 1.5, bends: [bend(1, { radius_mm: 1.5 })] })], { defaults: { material_id: 'mat_304_1_5mm' } }));
  test('a sharp modelled bend is made at the default radius (production warning, not blocked)', () => {
    const r = run([sheetPart({ bends: [bend(1, { radius_mm: 0 })] })], steel());
    assert.equal(r.status, 'ready');
    assert.ok(r.parts[0].production_warning_details.some((w) => w.code === 'sharp_bend_radius_applied'));
    // the design flat follows the model; the warning states the production change: 90 degrees at R - r = R
    // keeps the mold lines, so the flat shrinks by R (2 - pi / 2)
    const w = r.parts[0].production_warning_details.find((x) => x.code === 'sharp_bend_radius_applied')!;
    const R = Number(/made with the ([\d.]+) mm inner radius/.exec(w.message)![1]);
    assert.ok(w.message.includes(`${Number((R * (2 - Math.PI / 2)).toFixed(2))} mm shorter`), w.message);
  });
  rule('bend_angle_too_large',
    () => run([sheetPart({ bends: [bend(1, { angle_degrees: 150 })] })], steel()),
    () => run([sheetPart({ bends: [bend(1, { angle_degrees: 120 })] })], steel()));
  rule('bend_too_long',
    () => run([sheetPart({ detected_thickness_mm: 6, bends: [bend(1, { radius_mm: 6, length_mm: 500, flange_lengths_mm: [40, 40] })], holes: [] })], { defaults: { material_id: 'mat_mild_steel_6_0mm' } }),
    () => run([sheetPart({ detected_thickness_mm: 6, bends: [bend(1, { radius_mm: 6, length_mm: 400, flange_lengths_mm: [40, 40] })], holes: [] })], { defaults: { material_id: 'mat_mild_steel_6_0mm' } }));
  rule('flange_too_short',
    () => run([sheetPart({ bends: [bend(1, { flange_lengths_mm: [5, 70] })] })], steel()),
    () => run([sheetPart({ bends: [bend(1, { flange_lengths_mm: [7.5, 70] })] })], steel()));
  test('unmeasured flanges are a production warning', () => {
    const r = run([sheetPart({ bends: [bend(1, { flange_lengths_mm: undefined })] })], steel());
    assert.equal(r.status, 'ready');
    assert.ok(r.parts[0].production_warning_details.some((w) => w.code === 'flange_length_not_checked'));
    // analyze() says null for a bend whose flanges it could not measure: the same warning
    const unmeasured = run([sheetPart({ bends: [bend(1, { flange_lengths_mm: null })] })], steel());
    assert.ok(unmeasured.parts[0].production_warning_details.some((w) => w.code === 'flange_length_not_checked'));
  });
});

describe('hole rules', () => {
  const withHole = (h: ReturnType<typeof hole>): Part => sheetPart({ holes: [h] });
  rule('hole_too_small', () => run([withHole(hole(1, 0.7, [40, 40], 20))], steel()), () => run([withHole(hole(1, 0.8, [40, 40], 20))], steel()));
  rule('slot_too_small',
    () => run([withHole(hole(1, 0.7, [40, 40], 20, null, { shape: 'slot' }))], steel()),
    () => run([withHole(hole(1, 2, [40, 40], 20, null, { shape: 'slot' }))], steel()));
  rule('hole_too_close_to_edge', () => run([withHole(hole(1, 5, [40, 3], 1.0))], steel()), () => run([withHole(hole(1, 5, [40, 4], 1.6))], steel()));
  test('tube holes: smaller than the wall or wider than the inside are blocked', () => {
    assert.ok(codes(run([tubePart({ holes: [hole(1, 1.2, [50, 0], 0)] })], steel())).includes('hole_too_small'));
    assert.ok(codes(run([tubePart({ holes: [hole(1, 23, [50, 0], 0)] })], steel())).includes('hole_too_large'));
    assert.deepEqual(codes(run([tubePart({ holes: [hole(1, 6, [50, 0], 0)] })], steel())), []);
  });
});

describe('risk acceptance', () => {
  // 2.5 t + R = 2.5 x 1.524 + 1.52 = 5.33 mm
  const near = (): Part => sheetPart({ holes: [hole(1, 5, [40, 10], 20, { id: 1, distance: 4 })] });
  test('hole_too_close_to_bend: a warning that blocks until accepted', () => {
    const r = run([near()], steel());
    const i = r.parts[0].issues.find((x) => x.code === 'hole_too_close_to_bend')!;
    assert.equal(i.severity, 'warning');
    assert.equal(i.accepted, false);
    assert.equal(i.hole_id, 1);
    assert.equal(i.bend_id, 1);
    assert.equal(r.status, 'blocked');
    const ok = run([near()], steel({ accepted_risks: ['hole_too_close_to_bend'] }));
    assert.equal(ok.status, 'ready');
    assert.equal(ok.parts[0].issues[0].accepted, true);
  });
  test('hole_too_close_to_bend passes at 2.5 t + R', () => {
    assert.deepEqual(codes(run([sheetPart({ holes: [hole(1, 5, [40, 10], 20, { id: 1, distance: 5.4 })] })], steel())), []);
  });
  test('countersink_too_close_to_bend: warning, accepted separately', () => {
    const p = sheetPart({ detected_thickness_mm: 3.175, bends: [bend(1, { radius_mm: 3.2, flange_lengths_mm: [30, 30] })], holes: [hole(1, 3.4, [40, 20], 20, { id: 1, distance: 12 })] });
    const cfg = (risks: string[]): unknown => ({ defaults: { material_id: 'mat_mild_steel_0_120in' }, accepted_risks: risks, parts: [partCfg({ countersinks: [{ hole_id: 1, outer_diameter_mm: 6.73, angle: 90, side: 'top' }] })] });
    const r = run([p], cfg([]));
    assert.deepEqual(codes(r), ['countersink_too_close_to_bend']);
    assert.equal(r.status, 'blocked');
    assert.equal(run([p], cfg(['hole_too_close_to_bend'])).status, 'blocked', 'accepting another risk does not accept this one');
    assert.equal(run([p], cfg(['countersink_too_close_to_bend'])).status, 'ready');
    const far = sheetPart({ ...p, holes: [hole(1, 3.4, [40, 20], 20, { id: 1, distance: 20 })] });
    assert.deepEqual(codes(run([far], cfg([]))), []);
  });
});

describe('hole operations', () => {
  // the example bracket: hole 3 is 4.22 (CLS M3 nut), hole 4 is 3.0 (FH M3 stud / M3 tap), hole 1 6.6
  const op = (o: Record<string, unknown>, material = STEEL, part: Part = sheetPart()): DfmReport =>
    run([part], { defaults: { material_id: material }, parts: [partCfg(o)] });
  rule('hardware_sheet_too_thin',
    () => op({ studs: [{ hole_id: 1, stud_id: 'std_fh_m6_15', side: 'top' }] }, STEEL, sheetPart({ holes: [hole(1, 6.0, [40, 40], 20)] })),
    () => op({ studs: [{ hole_id: 4, stud_id: 'std_fh_m3_8', side: 'top' }] }));
  rule('hardware_material_incompatible',
    () => op({ studs: [{ hole_id: 4, stud_id: 'std_fh_m3_8', side: 'top' }] }, 'mat_304_0_060in'),
    () => op({ studs: [{ hole_id: 4, stud_id: 'std_fhs_m3_8', side: 'top' }] }, 'mat_304_0_060in'));
  rule('hardware_hole_size_mismatch',
    () => op({ nuts: [{ hole_id: 4, nut_id: 'nut_cls_m3', side: 'top' }] }),
    () => op({ nuts: [{ hole_id: 3, nut_id: 'nut_cls_m3', side: 'bottom' }] }));
  rule('hardware_too_close_to_edge',
    // centre to edge = 0.7 + 1.5 = 2.2: the Ø4.6 head would overhang the edge
    () => op({ studs: [{ hole_id: 1, stud_id: 'std_fh_m3_8', side: 'top' }] }, STEEL, sheetPart({ holes: [hole(1, 3.0, [2.2, 40], 0.7)] })),
    () => op({ studs: [{ hole_id: 1, stud_id: 'std_fh_m3_8', side: 'top' }] }, STEEL, sheetPart({ holes: [hole(1, 3.0, [6, 40], 4.2)] })));
  test('hardware_too_close_to_edge: below the maker\'s minimum with the head on the sheet, a warning (the edge may bulge)', () => {
    // centre to edge = 2.5 + 1.5 = 4.0 < 5.6, head radius 2.3
    const r = op({ studs: [{ hole_id: 1, stud_id: 'std_fh_m3_8', side: 'top' }] }, STEEL, sheetPart({ holes: [hole(1, 3.0, [4, 40], 2.5)] }));
    const issue = r.parts[0].issues.find((i) => i.code === 'hardware_too_close_to_edge')!;
    assert.deepEqual([issue.severity, issue.accepted, r.status], ['warning', false, 'ready']);
    assertIssueShapes(r);
  });
  test('hardware_too_close_to_bend: with the head on flat sheet, a risk accepted as hole_too_close_to_bend; reaching into the bend, blocking', () => {
    const at = (distance: number, accepted_risks: string[] = []): DfmReport => run([sheetPart({ holes: [hole(1, 3.0, [40, 40], 20, { id: 1, distance })] })],
      { defaults: { material_id: STEEL }, parts: [partCfg({ studs: [{ hole_id: 1, stud_id: 'std_fh_m3_8', side: 'top' }] })], accepted_risks });
    const find = (r: DfmReport) => r.parts[0].issues.find((i) => i.code === 'hardware_too_close_to_bend')!;
    // centre 7.5 from the bend, 8.64 needed: the bend may distort the hole
    assert.deepEqual([find(at(6)).severity, find(at(6)).details.accepted_as, at(6).status], ['warning', 'hole_too_close_to_bend', 'blocked']);
    assert.deepEqual([find(at(6, ['hole_too_close_to_bend'])).accepted, at(6, ['hole_too_close_to_bend']).status], [true, 'ready']);
    // centre 2.2 from the bend's tangent line: the Ø4.6 head lies on the bend; no acceptance makes it
    const off = at(0.7, ['hole_too_close_to_bend']);
    assert.deepEqual([find(off).severity, find(off).accepted, off.status], ['blocking', false, 'blocked']);
  });
  rule('hardware_too_close_to_bend',
    // needs 5.6 + 1.524 + 1.52 = 8.64 centre to bend; 6 + 1.5 = 7.5
    () => op({ studs: [{ hole_id: 1, stud_id: 'std_fh_m3_8', side: 'top' }] }, STEEL, sheetPart({ holes: [hole(1, 3.0, [40, 40], 20, { id: 1, distance: 6 })] })),
    () => op({ studs: [{ hole_id: 1, stud_id: 'std_fh_m3_8', side: 'top' }] }, STEEL, sheetPart({ holes: [hole(1, 3.0, [40, 40], 20, { id: 1, distance: 7.3 })] })));
  rule('tap_stock_too_thin',
    () => op({ taps: [{ hole_id: 1, tap_id: 'tap_m8x1_25' }] }, STEEL, sheetPart({ holes: [hole(1, 6.8, [40, 40], 20)] })),
    () => op({ taps: [{ hole_id: 4, tap_id: 'tap_m3x0_5' }] }));
  rule('tap_hole_size_mismatch', () => op({ taps: [{ hole_id: 1, tap_id: 'tap_m3x0_5' }] }), () => op({ taps: [{ hole_id: 4, tap_id: 'tap_m3x0_5' }] }));
  rule('tap_too_close_to_edge',
    () => op({ taps: [{ hole_id: 1, tap_id: 'tap_m3x0_5' }] }, STEEL, sheetPart({ holes: [hole(1, 2.5, [3, 40], 1.6)] })),
    () => op({ taps: [{ hole_id: 1, tap_id: 'tap_m3x0_5' }] }, STEEL, sheetPart({ holes: [hole(1, 2.5, [4, 40], 1.8)] })));
  rule('countersink_too_deep',
    () => op({ countersinks: [{ hole_id: 1, outer_diameter_mm: 13.4, angle: 90, side: 'top' }] }),
    () => op({ countersinks: [{ hole_id: 1, outer_diameter_mm: 13.4, angle: 90, side: 'top' }] }, 'mat_mild_steel_0_135in', sheetPart({ detected_thickness_mm: 3.43, bends: [bend(1, { radius_mm: 3.43 }), bend(2, { radius_mm: 3.43 })] })));
  test('countersink_too_close_to_edge: a warning that needs no acceptance (the part is not blocked)', () => {
    const p = sheetPart({ detected_thickness_mm: 3, bends: [], holes: [hole(1, 3.4, [10, 8], 6)] });
    const cfg = { defaults: { material_id: 'mat_mild_steel_3_0mm' }, parts: [partCfg({ countersinks: [{ hole_id: 1, outer_diameter_mm: 6.73, angle: 90, side: 'top' }] })] };
    const r = run([p], cfg);
    assert.deepEqual(codes(r), ['countersink_too_close_to_edge']);
    const i = r.parts[0].issues[0];
    assert.deepEqual([i.severity, i.accepted, i.hole_id, i.operation], ['warning', false, 1, 'countersink']);
    assert.doesNotMatch(i.message, /accept/i);
    assert.equal(r.parts[0].status, 'ready');
    assert.equal(r.status, 'ready');
    assert.equal(r.production_files.status, 'pending');
    // it is not a risk to accept: naming it is refused, naming the two risks leaves it unaccepted
    assert.throws(() => run([p], { ...cfg, accepted_risks: ['countersink_too_close_to_edge'] }), (e: unknown) => e instanceof InvalidConfigurationError && e.param === 'configuration.accepted_risks[0]');
    const both = run([p], { ...cfg, accepted_risks: ['hole_too_close_to_bend', 'countersink_too_close_to_bend'] });
    assert.equal(both.parts[0].issues[0].accepted, false);
    assert.equal(both.status, 'ready');
    const far = sheetPart({ detected_thickness_mm: 3, bends: [], holes: [hole(1, 3.4, [20, 20], 15)] });
    assert.deepEqual(codes(run([far], cfg)), []);
  });
  test('a non-blocking warning does not hide an unaccepted risk on the same part', () => {
    // t 3, R 3: the hole is 11 mm from the bend (>= 2.5 t + R = 10.5), its countersink rim 9.3 mm
    // (< 4 t + R = 15) and 4.3 mm from the edge (< 4 t = 12): two countersink warnings
    const p = sheetPart({ detected_thickness_mm: 3, bends: [bend(1, { radius_mm: 3, flange_lengths_mm: [30, 30] })], holes: [hole(1, 3.4, [10, 8], 6, { id: 1, distance: 11 })] });
    const cfg = (risks: string[], extra: Record<string, unknown> = {}) => ({ defaults: { material_id: 'mat_mild_steel_3_0mm' }, accepted_risks: risks, parts: [partCfg({ countersinks: [{ hole_id: 1, outer_diameter_mm: 6.73, angle: 90, side: 'top' }], ...extra })] });
    const r = run([p], cfg([]));
    assert.deepEqual(codes(r).sort(), ['countersink_too_close_to_bend', 'countersink_too_close_to_edge']);
    assert.equal(r.status, 'blocked');
    const ok = run([p], cfg(['countersink_too_close_to_bend']));
    assert.equal(ok.status, 'ready');
    assert.deepEqual(ok.parts[0].issues.map((i) => [i.code, i.accepted]).sort(), [['countersink_too_close_to_bend', true], ['countersink_too_close_to_edge', false]]);
  });
  rule('countersink_invalid_diameter',
    () => op({ countersinks: [{ hole_id: 1, outer_diameter_mm: 6.6, angle: 90, side: 'top' }] }),
    () => op({ countersinks: [{ hole_id: 4, outer_diameter_mm: 4.0, angle: 90, side: 'top' }] }));
  rule('invalid_hole_id', () => op({ taps: [{ hole_id: 99, tap_id: 'tap_m3x0_5' }] }), () => op({ taps: [{ hole_id: 4, tap_id: 'tap_m3x0_5' }] }));
  rule('invalid_tap_id', () => op({ taps: [{ hole_id: 4, tap_id: 'tap_m3x9' }] }), () => op({ taps: [{ hole_id: 4, tap_id: 'tap_m3x0_5' }] }));
  rule('invalid_stud_id', () => op({ studs: [{ hole_id: 4, stud_id: 'std_nope', side: 'top' }] }), () => op({ studs: [{ hole_id: 4, stud_id: 'std_fh_m3_8', side: 'top' }] }));
  rule('duplicate_hole_operation',
    () => op({ taps: [{ hole_id: 4, tap_id: 'tap_m3x0_5' }], studs: [{ hole_id: 4, stud_id: 'std_fh_m3_8', side: 'top' }] }),
    () => op({ taps: [{ hole_id: 4, tap_id: 'tap_m3x0_5' }], nuts: [{ hole_id: 3, nut_id: 'nut_cls_m3', side: 'top' }] }));
  rule('operation_not_available',
    () => run([tubePart()], { defaults: { tube_profile_id: TUBE }, parts: [{ part_id: 'prt_tube', taps: [{ hole_id: 1, tap_id: 'tap_m6x1_0' }] }] }),
    () => run([tubePart()], { defaults: { tube_profile_id: TUBE } }));
  test('tap_material_incompatible (a catalog whose tap excludes the material) and the drill-size production warning', () => {
    const custom = { ...catalog, version: 'test.1', taps: catalog.taps.map((t) => (t.id === 'tap_m3x0_5' ? { ...t, compatible_material_types: ['aluminum_5052' as const] } : t)) };
    const cfg = { defaults: { material_id: STEEL }, parts: [partCfg({ taps: [{ hole_id: 4, tap_id: 'tap_m3x0_5' }] })] };
    const r = dfm(designOf([sheetPart()]), cfg, custom, CTX);
    assert.ok(codes(r).includes('tap_material_incompatible'));
    assert.equal(r.catalog_version, 'test.1');
    assert.ok(!codes(run([sheetPart()], cfg)).includes('tap_material_incompatible'));
    // hole 4 is 3.0 mm, the M3 major diameter: cut at the 2.5 mm tap drill instead
    assert.ok(run([sheetPart()], cfg).parts[0].production_warning_details.some((w) => w.code === 'tap_hole_cut_at_drill_size'));
    const atDrill = sheetPart({ holes: [hole(4, 2.5, [80, 60], 18.75)] });
    assert.ok(!run([atDrill], cfg).parts[0].production_warning_details.some((w) => w.code === 'tap_hole_cut_at_drill_size'));
  });
  test('an operation issue names its hole and operation', () => {
    const r = op({ nuts: [{ hole_id: 4, nut_id: 'nut_cls_m3', side: 'top' }] });
    const i = r.parts[0].issues[0];
    assert.deepEqual([i.part_id, i.hole_id, i.operation, i.severity, i.accepted], ['prt_bracket', 4, 'nut', 'blocking', false]);
  });
});

describe('finishes', () => {
  rule('finish_not_available',
    () => run([sheetPart()], steel({ defaults: { material_id: STEEL, finish_id: 'fin_anodize_clear' } })),
    () => run([sheetPart()], { defaults: { material_id: 'mat_5052_h32_0_063in', finish_id: 'fin_anodize_clear' } }));
  rule('color_requires_powder_coat',
    () => run([sheetPart()], { defaults: { material_id: STEEL, finish_id: 'fin_zinc_plate_clear', powder_coat_color_id: 'pcc_ral_9005_jet_black' } }),
    () => run([sheetPart()], { defaults: { material_id: STEEL, powder_coat_color_id: 'pcc_ral_9005_jet_black' } }));
  rule('option_unavailable',
    () => run([sheetPart()], { defaults: { material_id: STEEL, powder_coat_color_id: 'pcc_ral_4005_blue_lilac' } }),
    () => run([sheetPart()], { defaults: { material_id: STEEL, powder_coat_color_id: 'pcc_ral_3020_traffic_red' } }));
  rule('invalid_finish_id', () => run([sheetPart()], { defaults: { material_id: STEEL, finish_id: 'fin_gold' } }), () => run([sheetPart()], { defaults: { material_id: STEEL, finish_id: 'fin_deburr' } }));
  test('a colour alone implies powder coat; powder coat without a colour requires input', () => {
    const r = run([sheetPart()], { defaults: { material_id: STEEL, powder_coat_color_id: 'pcc_ral_9005_jet_black' } });
    assert.equal(r.parts[0].finish_id, 'fin_powder_coat');
    assert.equal(r.status, 'ready');
    const q = run([sheetPart()], { defaults: { material_id: STEEL, finish_id: 'fin_powder_coat' } });
    assert.equal(q.status, 'requires_input');
    assert.deepEqual(q.requirements.map((x) => [x.code, x.field, x.catalog]), [['powder_coat_color_required', 'powder_coat_color_id', 'powder-coat-colors']]);
  });
});

describe('remaining ids and options', () => {
  rule('invalid_tube_profile_id', () => run([tubePart()], { defaults: { tube_profile_id: 'tub_unobtainium' } }), () => run([tubePart()], { defaults: { tube_profile_id: TUBE } }));
  rule('invalid_nut_id',
    () => run([sheetPart()], { defaults: { material_id: STEEL }, parts: [partCfg({ nuts: [{ hole_id: 3, nut_id: 'nut_nope', side: 'top' }] })] }),
    () => run([sheetPart()], { defaults: { material_id: STEEL }, parts: [partCfg({ nuts: [{ hole_id: 3, nut_id: 'nut_cls_m3', side: 'top' }] })] }));
  rule('invalid_standoff_id',
    () => run([sheetPart()], { defaults: { material_id: STEEL }, parts: [partCfg({ standoffs: [{ hole_id: 3, standoff_id: 'sto_nope', side: 'top' }] })] }),
    () => run([sheetPart()], { defaults: { material_id: STEEL }, parts: [partCfg({ standoffs: [{ hole_id: 3, standoff_id: 'sto_so_m3_10', side: 'top' }] })] }));
  rule('invalid_powder_coat_color_id',
    () => run([sheetPart()], { defaults: { material_id: STEEL, powder_coat_color_id: 'pcc_hot_pink' } }),
    () => run([sheetPart()], { defaults: { material_id: STEEL, powder_coat_color_id: 'pcc_ral_9005_jet_black' } }));
  rule('countersink_hole_not_round',
    () => run([sheetPart({ holes: [hole(1, 3.4, [40, 40], 20, null, { shape: 'slot' })] })], { defaults: { material_id: STEEL }, parts: [partCfg({ countersinks: [{ hole_id: 1, outer_diameter_mm: 5, angle: 90, side: 'top' }] })] }),
    () => run([sheetPart({ holes: [hole(1, 3.4, [40, 40], 20)] })], { defaults: { material_id: STEEL }, parts: [partCfg({ countersinks: [{ hole_id: 1, outer_diameter_mm: 5, angle: 90, side: 'top' }] })] }));
  test('finish_not_available: a part longer than the finishing line', () => {
    const long = (L: number) => sheetPart({ bends: [], holes: [], formed_dimensions: { length_mm: L, width_mm: 80, height_mm: 1.5 }, flat_pattern: { ...sheetPart().flat_pattern!, length_mm: L } });
    const cfg = { defaults: { material_id: STEEL, powder_coat_color_id: 'pcc_ral_9005_jet_black' } };
    assert.match(run([long(1250)], cfg).parts[0].issues.find((i) => i.code === 'finish_not_available')!.message, /takes parts up to 1200 mm/);
    assert.ok(!codes(run([long(1100)], cfg)).includes('finish_not_available'));
  });
});

describe('assembly operations', () => {
  const two = (): Part[] => [sheetPart({ instance_count: 2 }), tubePart()];
  const weld = (ids: string[]): unknown => ({ defaults: { material_id: STEEL, tube_profile_id: TUBE }, assembly_operations: [{ type: 'weld', method: 'mig', weld_length_mm: 100, part_instance_ids: ids, weld_finish: 'rough', joint_access: 'open' }] });
  rule('invalid_part_instance_id', () => run(two(), weld(['prt_bracket_i0', 'nope'])), () => run(two(), weld(['prt_bracket_i0', 'prt_tube_i0'])));
  rule('weld_needs_two_instances', () => run(two(), weld(['prt_bracket_i0', 'prt_bracket_i0'])), () => run(two(), weld(['prt_bracket_i0', 'prt_bracket_i1'])));
  rule('weld_material_not_weldable',
    () => run(two(), { ...(weld(['prt_bracket_i0', 'prt_bracket_i1']) as object), defaults: { material_id: 'mat_copper_110_0_063in', tube_profile_id: TUBE } }),
    () => run(two(), weld(['prt_bracket_i0', 'prt_bracket_i1'])));
  rule('weld_incompatible_materials',
    () => run(two(), { ...(weld(['prt_bracket_i0', 'prt_tube_i0']) as object), defaults: { material_id: 'mat_5052_h32_0_063in', tube_profile_id: TUBE } }),
    () => run(two(), weld(['prt_bracket_i0', 'prt_tube_i0'])));
});

describe('capabilities', () => {
  test('studs: steel FH in mild steel, only stainless FHS in 304', () => {
    const mild = run([sheetPart()], steel()).parts[0].capabilities;
    const ss = run([sheetPart()], { defaults: { material_id: 'mat_304_0_060in' } }).parts[0].capabilities;
    const opt = (c: typeof mild, id: string) => c.studs.options.find((o) => o.id === id)!;
    assert.equal(opt(mild, 'std_fh_m3_8').available, true);
    assert.equal(opt(ss, 'std_fh_m3_8').available, false);
    assert.match(opt(ss, 'std_fh_m3_8').unavailable_reason!, /stainless/);
    assert.equal(opt(ss, 'std_fhs_m3_8').available, true);
    const hole4 = (c: typeof mild) => c.holes.find((h) => h.hole_id === 4)!.studs.option_ids;
    assert.ok(hole4(mild).includes('std_fh_m3_8'));
    assert.ok(!hole4(ss).includes('std_fh_m3_8') && hole4(ss).includes('std_fhs_m3_8'));
  });
  test('options follow hole size: M3 stud in a 3.0 hole, M4 stud in a 4.0 hole, M3 nut in 4.22', () => {
    const p = sheetPart({ holes: [hole(1, 3.0, [30, 40], 20), hole(2, 4.0, [60, 40], 20), hole(3, 4.22, [90, 40], 20)] });
    const c = run([p], steel()).parts[0].capabilities;
    const h = (id: number) => c.holes.find((x) => x.hole_id === id)!;
    assert.ok(h(1).studs.option_ids.every((x) => x.includes('_m3_')) && h(1).studs.option_ids.length > 0);
    assert.ok(h(2).studs.option_ids.every((x) => x.includes('_m4_')) && h(2).studs.option_ids.length > 0);
    assert.ok(h(3).nuts.option_ids.includes('nut_cls_m3'));
    assert.equal(h(1).nuts.available, false);
    assert.ok(h(1).nuts.unavailable_reason);
    assert.deepEqual(h(1).taps.option_ids, ['tap_m3x0_5']);
    assert.deepEqual(h(1).studs.sides, ['top', 'bottom']);
    assert.deepEqual(h(1).nuts.sides, []);
  });
  test('thickness gates taps and countersinks', () => {
    const thin = run([sheetPart({ detected_thickness_mm: 0.762, bends: [bend(1, { radius_mm: 0.8 })] })], { defaults: { material_id: 'mat_mild_steel_0_030in' } }).parts[0].capabilities;
    assert.equal(thin.taps.available, false);
    assert.match(thin.taps.unavailable_reason!, /thin/);
    const thick = run([sheetPart({ detected_thickness_mm: 3.0, bends: [bend(1, { radius_mm: 3 })], holes: [hole(1, 3.4, [40, 40], 20)] })], { defaults: { material_id: 'mat_mild_steel_3_0mm' } }).parts[0].capabilities;
    assert.equal(thick.taps.available, true);
    assert.deepEqual(thick.holes[0].countersinks.option_ids, ['csk_m3_90', 'csk_4_82'], 'a 3.4 mm hole takes the M3 and the #4 countersink');
  });
  test('finishes and colours by material; tubes take no hole operations', () => {
    const al = run([sheetPart()], { defaults: { material_id: 'mat_5052_h32_0_063in' } }).parts[0].capabilities;
    const st = run([sheetPart()], steel()).parts[0].capabilities;
    const f = (c: typeof al, id: string) => c.finish_id.options.find((o) => o.id === id)!.available;
    assert.equal(f(al, 'fin_anodize_black'), true);
    assert.equal(f(st, 'fin_anodize_black'), false);
    assert.equal(f(st, 'fin_zinc_plate_clear'), true);
    assert.equal(st.powder_coat_color_id.options.find((o) => o.id === 'pcc_ral_4005_blue_lilac')!.available, false);
    const cu = run([sheetPart({ detected_thickness_mm: 1.6 })], { defaults: { material_id: 'mat_copper_110_0_063in' } }).parts[0].capabilities;
    assert.equal(cu.powder_coat_color_id.available, false);
    const tube = run([tubePart()], steel()).parts[0].capabilities;
    assert.equal(tube.taps.available, false);
    assert.equal(tube.holes.length, 2);
    assert.equal(tube.holes[0].studs.available, false);
    assert.equal(tube.finish_id.options.find((o) => o.id === 'fin_brush')!.available, false);
  });
});

describe('configuration validation', () => {
  const bad: Array<[string, unknown, string]> = [
    ['not an object', 42, 'configuration'],
    ['unknown top-level field', { colour: 'red' }, 'configuration.colour'],
    ['parts not an array', { parts: {} }, 'configuration.parts'],
    ['material_id not a string', { defaults: { material_id: 7 } }, 'configuration.defaults.material_id'],
    ['hole_id not an integer', { parts: [{ part_id: 'prt_bracket', taps: [{ hole_id: '4', tap_id: 'tap_m3x0_5' }] }] }, 'configuration.parts[0].taps[0].hole_id'],
    ['side out of enum', { parts: [{ part_id: 'prt_bracket', studs: [{ hole_id: 4, stud_id: 'std_fh_m3_8', side: 'left' }] }] }, 'configuration.parts[0].studs[0].side'],
    ['countersink angle out of enum', { parts: [{ part_id: 'prt_bracket', countersinks: [{ hole_id: 1, outer_diameter_mm: 8, angle: 100, side: 'top' }] }] }, 'configuration.parts[0].countersinks[0].angle'],
    ['negative countersink', { parts: [{ part_id: 'prt_bracket', countersinks: [{ hole_id: 1, outer_diameter_mm: -8, angle: 90 }] }] }, 'configuration.parts[0].countersinks[0].outer_diameter_mm'],
    ['unknown risk', { accepted_risks: ['anything_goes'] }, 'configuration.accepted_risks[0]'],
    ['a warning that is not an acceptable risk', { accepted_risks: ['countersink_too_close_to_edge'] }, 'configuration.accepted_risks[0]'],
    ['a blocking finding is not a risk to accept', { accepted_risks: ['hole_too_close_to_bend', 'hole_too_close_to_edge'] }, 'configuration.accepted_risks[1]'],
    ['unknown part id', { parts: [{ part_id: 'prt_other' }] }, 'configuration.parts[0].part_id'],
    ['part twice', { parts: [{ part_id: 'prt_bracket' }, { part_id: 'prt_bracket' }] }, 'configuration.parts[1].part_id'],
    ['weld without length', { assembly_operations: [{ type: 'weld', part_instance_ids: ['a', 'b'] }] }, 'configuration.assembly_operations[0].weld_length_mm'],
  ];
  for (const [name, cfg, param] of bad) {
    test(`invalid_configuration: ${name}`, () => {
      assert.throws(() => run([sheetPart()], cfg), (e: unknown) => {
        assert.ok(e instanceof InvalidConfigurationError);
        assert.equal(e.code, 'invalid_configuration');
        assert.equal(e.param, param);
        return true;
      });
    });
  }
  test('null configuration is an empty one', () => {
    assert.equal(run([sheetPart()], null).status, 'requires_input');
  });
  test('a design that is not ready is refused', () => {
    assert.throws(() => dfm({ ...designOf([sheetPart()]), status: 'processing' }, {}, catalog, CTX), /ready/);
  });
});

describe('image and determinism', () => {
  test('a Design alone gets no image_svg: it carries no outline to draw (dfm-image.test.ts: the drawing from the analyzed model)', () => {
    const p = sheetPart({ holes: [hole(1, 5, [40, 10], 20, { id: 1, distance: 4 })] });
    const r = run([p, tubePart()], steel());
    assert.ok(r.parts[0].issues.length > 0, 'a finding a drawing would show');
    for (const part of r.parts) assert.ok(!('image_svg' in part), `${part.part_id}: no sketch from the part's numbers`);
  });
  test('same input, same report', () => {
    const cfg = steel({ accepted_risks: ['hole_too_close_to_bend'] }, [partCfg({ taps: [{ hole_id: 4, tap_id: 'tap_m3x0_5' }] })]);
    assert.deepEqual(run([sheetPart(), tubePart()], cfg), run([sheetPart(), tubePart()], cfg));
  });
});

describe('flange lengths from the flat', () => {
  const rect = (L: number, W: number) => [
    { kind: 'line' as const, a: [0, 0] as [number, number], b: [L, 0] as [number, number] },
    { kind: 'line' as const, a: [L, 0] as [number, number], b: [L, W] as [number, number] },
    { kind: 'line' as const, a: [L, W] as [number, number], b: [0, W] as [number, number] },
    { kind: 'line' as const, a: [0, W] as [number, number], b: [0, 0] as [number, number] },
  ];
  test('U channel: outer flanges to the edge, the web between the two bend zones', () => {
    const ba = 3.5;
    const zones = [{ index: 1, line: [[25, 0], [25, 60]] as [[number, number], [number, number]], allowance: ba }, { index: 2, line: [[78.5, 0], [78.5, 60]] as [[number, number], [number, number]], allowance: ba }];
    const fl = flangeLengths(rect(103.5, 60), zones);
    const [l1, r1] = fl.get(1)!;
    const [l2, r2] = fl.get(2)!;
    assert.ok(Math.abs(l1 - (25 - ba / 2)) < 1e-9, `left flange ${l1}`);
    assert.ok(Math.abs(r1 - (53.5 - ba)) < 1e-9, `web ${r1}`);
    assert.ok(Math.abs(l2 - r1) < 1e-9);
    assert.ok(Math.abs(r2 - (25 - ba / 2)) < 1e-9);
  });
  test('a notched flange is as short as its shortest middle section; end reliefs do not count', () => {
    // flange of 20 mm on the left of a bend at x = 20, with a 2 mm deep relief in the first 3 mm of the bend
    const outer = [
      { kind: 'line' as const, a: [2, 0] as [number, number], b: [60, 0] as [number, number] },
      { kind: 'line' as const, a: [60, 0] as [number, number], b: [60, 40] as [number, number] },
      { kind: 'line' as const, a: [60, 40] as [number, number], b: [0, 40] as [number, number] },
      { kind: 'line' as const, a: [0, 40] as [number, number], b: [0, 3] as [number, number] },
      { kind: 'line' as const, a: [0, 3] as [number, number], b: [2, 3] as [number, number] },
      { kind: 'line' as const, a: [2, 3] as [number, number], b: [2, 0] as [number, number] },
    ];
    const [left] = flangeLengths(outer, [{ index: 1, line: [[20, 0], [20, 40]], allowance: 2 }]).get(1)!;
    assert.ok(Math.abs(left - 19) < 1e-9, `relief ignored: ${left}`);
  });
  test('a real U channel: flanges and bend allowances add up to the flat length', async () => {
    const { analyzeModel } = await import('../src/analyze.ts');
    const { readFileSync } = await import('node:fs');
    const model = await analyzeModel(new Uint8Array(readFileSync(new URL('../../fixtures/sheet/u_t1.5_r1.5.step', import.meta.url))), { fileName: 'u.step' });
    const a = model.parts[0].analysis;
    assert.equal(a.kind, 'sheet');
    if (a.kind !== 'sheet') return;
    const zones = a.flat.bendLines.map((bl) => {
      const b = a.bends.find((x) => x.id === bl.bendId)!;
      return { index: bl.bendId, line: [bl.a, bl.b] as [[number, number], [number, number]], allowance: (b.angleDegrees * Math.PI / 180) * (b.innerRadius + a.flat.kFactor * a.thickness) };
    });
    const fl = flangeLengths(a.flat.outer, zones);
    assert.equal(fl.size, 2);
    const [f1a, f1b] = fl.get(1)!;
    const [f2a, f2b] = fl.get(2)!;
    const outerFlanges = [f1a, f1b, f2a, f2b].sort((x, y) => x - y);
    // two outer flanges equal, the web counted from both bends
    assert.ok(Math.abs(outerFlanges[0] - outerFlanges[1]) < 0.01 && Math.abs(outerFlanges[2] - outerFlanges[3]) < 0.01, outerFlanges.join(', '));
    const total = outerFlanges[0] * 2 + outerFlanges[2] + zones[0].allowance + zones[1].allowance;
    assert.ok(Math.abs(total - a.flat.length) < 0.01, `${total} vs ${a.flat.length}`);
  });
});

describe('countersinks modelled in the part', () => {
  const csk = (outer: number, angle: number, extra: Partial<ReturnType<typeof hole>> = {}) =>
    sheetPart({ detected_thickness_mm: 3, bends: [], holes: [hole(1, 3.4, [30, 30], 26, null, { countersink: { outer_diameter_mm: outer, angle_degrees: angle }, ...extra })] });
  const cfg = (o: Record<string, unknown> = {}) => ({ defaults: { material_id: 'mat_mild_steel_3_0mm' }, parts: [{ part_id: 'prt_bracket', ...o }] });
  test('an M3 90 degree countersink in 3 mm is fine', () => assert.deepEqual(codes(run([csk(6.73, 90)], cfg())), []));
  test('deeper than the sheet is blocked', () => assert.ok(codes(run([csk(10.5, 90)], cfg())).includes('countersink_too_deep')));
  test('an angle the shop has no tool for is blocked', () => assert.ok(codes(run([csk(6.73, 100)], cfg())).includes('countersink_angle_unsupported')));
  test('configuring another countersink or a tap on it conflicts', () => {
    assert.ok(codes(run([csk(6.73, 90)], cfg({ countersinks: [{ hole_id: 1, outer_diameter_mm: 6.73, angle: 90, side: 'top' }] }))).includes('duplicate_hole_operation'));
    assert.ok(codes(run([csk(6.73, 90)], cfg({ nuts: [{ hole_id: 1, nut_id: 'nut_cls_m3', side: 'top' }] }))).includes('conflicting_hole_operations'));
  });
});

describe('material K-factor', () => {
  test('the configured material gives the K of its table at the part r/t', () => {
    // 0.060" steel, R 1.52 -> r/t 0.997 on the steel table: 0.38
    assert.deepEqual(materialKFactors(designOf([sheetPart()]), steel(), catalog), { prt_bracket: 0.3798 });
    assert.equal(run([sheetPart()], steel()).parts[0].k_factor, 0.3798);
  });
  test('per part: each bent part gets its own material\'s K, only where its flat needs another', () => {
    assert.deepEqual(materialKFactors(designOf([sheetPart()]), {}, catalog), {}, 'no material, no K');
    assert.deepEqual(materialKFactors(designOf([sheetPart({ bends: [] })]), steel(), catalog), {}, 'nothing to bend');
    const atK = sheetPart();
    atK.flat_pattern = { ...atK.flat_pattern!, k_factor: 0.3798 };
    assert.deepEqual(materialKFactors(designOf([atK]), steel(), catalog), {}, 'the flat already uses the material K');
    const two = designOf([sheetPart(), sheetPart({ id: 'prt_b', name: 'b' })]);
    const ks = materialKFactors(two, { defaults: { material_id: STEEL }, parts: [{ part_id: 'prt_b', material_id: 'mat_304_0_060in' }] }, catalog);
    assert.equal(ks.prt_bracket, 0.3798);
    assert.equal(typeof ks.prt_b, 'number');
    assert.notEqual(ks.prt_b, ks.prt_bracket, 'stainless bends with another K than mild steel');
  });
});

describe('report shape existing clients read (docs/api.md "DFM reports")', () => {
  test('production_warnings are the messages as plain strings; production_warning_details the same warnings with codes, in order', () => {
    const analysisWarning = { code: 'closed_corner', message: '1 edge(s) (10.0 mm) where flanges meet are cut apart in the flat' };
    const p = sheetPart({ bends: [bend(1, { radius_mm: 0 })], warnings: [analysisWarning] });
    const r = run([p], { defaults: { material_id: STEEL }, parts: [partCfg({ taps: [{ hole_id: 4, tap_id: 'tap_m3x0_5' }] })] });
    const part = r.parts[0];
    assert.deepEqual(part.production_warning_details.map((w) => w.code), ['closed_corner', 'sharp_bend_radius_applied', 'tap_hole_cut_at_drill_size']);
    assert.ok(part.production_warnings.every((w) => typeof w === 'string'));
    assert.deepEqual(part.production_warnings, part.production_warning_details.map((w) => w.message));
    assert.equal(part.production_warnings[0], analysisWarning.message);
    for (const d of part.production_warning_details) assert.deepEqual(Object.keys(d), ['code', 'message']);
    const keys = Object.keys(part);
    assert.equal(keys.indexOf('production_warning_details'), keys.indexOf('production_warnings') + 1);
  });
  test('a part without warnings has two empty lists', () => {
    const part = run([sheetPart()], steel()).parts[0];
    assert.deepEqual([part.production_warnings, part.production_warning_details], [[], []]);
  });
  test('production_files.corrections_applied follows review_warning: false when the files are the model as drawn', () => {
    const r = run([sheetPart()], steel());
    assert.deepEqual(Object.keys(r.production_files), ['status', 'reason', 'error', 'review_warning', 'corrections_applied']);
    assert.equal(r.production_files.corrections_applied, false);
    // features made after cutting as modelled, a tap at the major diameter: no correction of the files
    const louver = { code: 'formed_feature_ignored', message: 'a formed feature (louver, lance, emboss or dimple, 2.00 mm out of the sheet) at (1.0, 2.0, 3.0) is left out of the flat; the flat has no hole there' };
    const hardware = { code: 'hardware_modelled', message: 'hardware (standoff, stud or nut: Ø6.00/Ø2.70 mm, 7.00 mm high) is modelled into the sheet at (70.0, 30.0, 2.0); it is left out of the flat and must be inserted after cutting; the flat has no hole there' };
    const tapped = run([sheetPart({ warnings: [louver, hardware] })], { defaults: { material_id: STEEL }, parts: [partCfg({ taps: [{ hole_id: 4, tap_id: 'tap_m3x0_5' }] })] });
    assert.equal(tapped.parts[0].production_warnings.length, 3);
    assert.equal(tapped.production_files.corrections_applied, false);
  });
  test('corrections_applied: a sharp bend made with a radius, a closed corner cut at its seam', () => {
    assert.equal(run([sheetPart({ bends: [bend(1, { radius_mm: 0 })] })], steel()).production_files.corrections_applied, true);
    const corner = { code: 'closed_corner', message: '2 edge(s) (17.0 mm) where flanges meet are cut apart in the flat' };
    const r = run([sheetPart(), sheetPart({ id: 'prt_box', name: 'box', warnings: [corner] })], steel());
    assert.equal(r.production_files.corrections_applied, true, 'one part with a correction is enough');
    // not ready: the files are skipped, the flag still says what they would carry
    const blocked = run([sheetPart({ bends: [bend(1, { radius_mm: 0 })], holes: [hole(1, 0.7, [40, 40], 20)] })], steel());
    assert.deepEqual([blocked.production_files.status, blocked.production_files.corrections_applied], ['skipped', true]);
  });
  test('corrections_applied: an extruded hole is cut at its pre-hole, not the bore (real model)', async () => {
    const { analyze } = await import('../src/analyze.ts');
    const { readFileSync } = await import('node:fs');
    const file = (name: string) => new Uint8Array(readFileSync(new URL(`../../fixtures/corpus-lessons/${name}`, import.meta.url)));
    const extruded = await analyze(file('extruded_hole_plate.step'), { fileName: 'extruded_hole_plate.step' });
    const r = dfm(extruded, { defaults: { material_id: 'mat_mild_steel_1_0mm' } }, catalog, CTX);
    const details = r.parts[0].production_warning_details;
    const w = details.find((x) => x.code === 'formed_feature_ignored')!;
    assert.match(w.message, /pre-hole there/);
    assert.ok(r.parts[0].production_warnings.includes(w.message));
    assert.equal(r.production_files.corrections_applied, true);
    // a standoff modelled into the plate is inserted after cutting: left out, not corrected
    const standoff = await analyze(file('blind_standoff_plate.step'), { fileName: 'blind_standoff_plate.step' });
    const s = dfm(standoff, { defaults: { material_id: 'mat_mild_steel_2_0mm' } }, catalog, CTX);
    assert.deepEqual(s.parts[0].production_warning_details.map((x) => x.code), ['hardware_modelled']);
    assert.equal(s.production_files.corrections_applied, false);
  });
});

describe('issue source (docs/api.md "DFM reports")', () => {
  const sourceOf = (r: DfmReport, code: string): string[] => [...r.parts.flatMap((p) => p.issues), ...r.assembly_issues].filter((i) => i.code === code).map((i) => i.source);
  const cs = (hole_id: number, outer = 6.73): Record<string, unknown> => ({ hole_id, outer_diameter_mm: outer, angle: 90, side: 'top' });
  const cases: Array<[string, string, () => DfmReport]> = [
    // the part's shape alone
    ['hole_too_close_to_edge', 'geometry', () => run([sheetPart({ holes: [hole(1, 5, [40, 3], 1.0)] })], steel())],
    ['hole_too_close_to_bend', 'geometry', () => run([sheetPart({ holes: [hole(1, 5, [40, 10], 20, { id: 1, distance: 4 })] })], steel())],
    ['hole_too_small', 'geometry', () => run([sheetPart({ holes: [hole(1, 0.7, [40, 40], 20)] })], steel())],
    ['flange_too_short', 'geometry', () => run([sheetPart({ bends: [bend(1, { flange_lengths_mm: [5, 70] })] })], steel())],
    ['part_not_manufacturable', 'geometry', () => run([sheetPart({ manufacturable: false, unsupported_reason: 'not_unfoldable' })], steel())],
    ['countersink_too_deep', 'geometry', () => run([sheetPart({ detected_thickness_mm: 3, bends: [], holes: [hole(1, 3.4, [30, 30], 26, null, { countersink: { outer_diameter_mm: 10.5, angle_degrees: 90 } })] })], { defaults: { material_id: 'mat_mild_steel_3_0mm' } })],
    // a selection where it was put
    ['tap_hole_size_mismatch', 'configuration', () => run([sheetPart()], { defaults: { material_id: STEEL }, parts: [partCfg({ taps: [{ hole_id: 1, tap_id: 'tap_m3x0_5' }] })] })],
    ['hardware_too_close_to_bend', 'configuration', () => run([sheetPart({ holes: [hole(1, 3.0, [40, 40], 20, { id: 1, distance: 6 })] })], { defaults: { material_id: STEEL }, parts: [partCfg({ studs: [{ hole_id: 1, stud_id: 'std_fh_m3_8', side: 'top' }] })] })],
    ['countersink_too_deep', 'configuration', () => run([sheetPart()], { defaults: { material_id: STEEL }, parts: [partCfg({ countersinks: [cs(1, 13.4)] })] })],
    ['countersink_too_close_to_edge', 'configuration', () => run([sheetPart({ detected_thickness_mm: 3, bends: [], holes: [hole(1, 3.4, [10, 8], 6)] })], { defaults: { material_id: 'mat_mild_steel_3_0mm' }, parts: [partCfg({ countersinks: [cs(1)] })] })],
    ['invalid_hole_id', 'configuration', () => run([sheetPart()], { defaults: { material_id: STEEL }, parts: [partCfg({ taps: [{ hole_id: 99, tap_id: 'tap_m3x0_5' }] })] })],
    ['duplicate_hole_operation', 'configuration', () => run([sheetPart()], { defaults: { material_id: STEEL }, parts: [partCfg({ taps: [{ hole_id: 4, tap_id: 'tap_m3x0_5' }], studs: [{ hole_id: 4, stud_id: 'std_fh_m3_8', side: 'top' }] })] })],
    ['color_requires_powder_coat', 'configuration', () => run([sheetPart()], { defaults: { material_id: STEEL, finish_id: 'fin_zinc_plate_clear', powder_coat_color_id: 'pcc_ral_9005_jet_black' } })],
    // the selected catalog item cannot be used
    ['thickness_mismatch', 'catalog', () => run([sheetPart()], { defaults: { material_id: 'mat_mild_steel_3_0mm' } })],
    ['material_not_bendable', 'catalog', () => run([sheetPart({ detected_thickness_mm: 3.175 })], { defaults: { material_id: 'mat_6061_t6_0_125in' } })],
    ['finish_not_available', 'catalog', () => run([sheetPart()], { defaults: { material_id: STEEL, finish_id: 'fin_anodize_clear' } })],
    ['invalid_material_id', 'catalog', () => run([sheetPart()], { defaults: { material_id: 'mat_unobtainium' } })],
    ['tube_profile_mismatch', 'catalog', () => run([tubePart()], { defaults: { tube_profile_id: 'tub_a500_square_2_00x2_00_0_120w' } })],
    ['tap_stock_too_thin', 'catalog', () => run([sheetPart({ holes: [hole(1, 6.8, [40, 40], 20)] })], { defaults: { material_id: STEEL }, parts: [partCfg({ taps: [{ hole_id: 1, tap_id: 'tap_m8x1_25' }] })] })],
    ['hardware_material_incompatible', 'catalog', () => run([sheetPart()], { defaults: { material_id: 'mat_304_0_060in' }, parts: [partCfg({ studs: [{ hole_id: 4, stud_id: 'std_fh_m3_8', side: 'top' }] })] })],
    ['option_unavailable', 'catalog', () => run([sheetPart()], { defaults: { material_id: STEEL, powder_coat_color_id: 'pcc_ral_4005_blue_lilac' } })],
    // welds
    ['weld_needs_two_instances', 'assembly', () => run([sheetPart({ instance_count: 2 })], { defaults: { material_id: STEEL }, assembly_operations: [{ type: 'weld', weld_length_mm: 50, part_instance_ids: ['prt_bracket_i0', 'prt_bracket_i0'] }] })],
  ];
  for (const [code, source, make] of cases) {
    test(`${code} -> ${source}`, () => {
      const r = make();
      assertIssueShapes(r);
      assert.deepEqual([...new Set(sourceOf(r, code))], [source], `${code}: ${codes(r).join(',')}`);
    });
  }
  test('assembly issues name no part', () => {
    const r = cases.at(-1)![2]();
    assert.deepEqual(r.assembly_issues.map((i) => [i.source, i.part_id, i.operation]), [['assembly', null, 'weld']]);
  });
});
