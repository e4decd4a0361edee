// Blind features (issue 22) on generated parts with analytic truth (fixtures/blind): the part around
// them is recognised from its dominant geometry (sheet, bent sheet, tube), each feature is named and
// measured, DFM blocks it with its own code and marks it on the image, the flat is the through outline,
// and a part that is nothing but blind work is refused as machined.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { analyzeModel, type AnalyzedModel } from '../src/analyze.ts';
import { defaultCatalog } from '../src/catalog/index.ts';
import { dfm } from '../src/dfm/index.ts';
import type { BlindFeatureInfo, Design, Part } from '../src/contract.ts';
import type { BlindTruth } from '../../fixtures/blind/generate.ts';

const dir = fileURLToPath(new URL('../../fixtures/blind/', import.meta.url));
const manifest = JSON.parse(readFileSync(dir + 'truth.json', 'utf8')) as { k_factor: number; codes: Record<string, string>; fixtures: BlindTruth[] };
const catalog = defaultCatalog();
const CTX = { id: 'dfm_blind', now: '2026-11-25T00:00:00.000Z' };

/** Tolerances, mm / relative (the main fixture truth's; tube cut length as in the tube truth). */
const THICKNESS_MM = 0.01;
const SIZE_MM = 0.02;
const AREA_REL = 0.001;
const CUT_REL = 0.002;
const TUBE_LENGTH_MM = 0.05;
const TUBE_CUT_REL = 0.005;
/** Feature sizes and depths, mm: measured on the exact faces' vertices. */
const FEATURE_MM = 0.02;
/** A chamfer's or pocket's edge length, relative. */
const FEATURE_LENGTH_REL = 0.02;

async function part(t: BlindTruth): Promise<{ model: AnalyzedModel; design: Design; part: Part }> {
  const model = await analyzeModel(new Uint8Array(readFileSync(dir + t.file)), { fileName: t.file, kFactor: manifest.k_factor });
  const design = model.design;
  assert.equal(design.parts.length, 1, `${t.id}: one part`);
  return { model, design, part: design.parts[0] };
}
const near = (got: number | null | undefined, want: number, tol: number, what: string) =>
  assert.ok(typeof got === 'number' && Math.abs(got - want) <= tol, `${what}: got ${got}, want ${want} +- ${tol}`);

/** Each truth feature matched to a distinct engine feature of its kind within the tolerances. */
function matchFeatures(t: BlindTruth, got: BlindFeatureInfo[]): void {
  assert.deepEqual(got.map((f) => f.kind).sort(), t.blind.map((f) => f.kind).sort(), `${t.id}: feature kinds ${JSON.stringify(got)}`);
  const left = [...got];
  for (const want of t.blind) {
    const i = left.findIndex((f) => f.kind === want.kind
      && (want.size_mm === undefined || Math.abs(f.size_mm - want.size_mm) <= FEATURE_MM)
      && (want.depth_mm === undefined || Math.abs(f.depth_mm - want.depth_mm) <= FEATURE_MM)
      && (want.length_mm === undefined || (f.length_mm !== null && Math.abs(f.length_mm - want.length_mm) <= FEATURE_LENGTH_REL * want.length_mm)));
    assert.ok(i >= 0, `${t.id}: no ${JSON.stringify(want)} among ${JSON.stringify(left)}`);
    left.splice(i, 1);
  }
  for (const f of got) {
    assert.ok(f.depth_mm > 0 && f.size_mm > 0, `${t.id}: feature ${f.id} has a size and depth`);
    assert.equal(f.position_mm.length, 3);
    assert.equal(f.center_mm.length, 2);
  }
}

function stockFor(p: Part): Record<string, string> {
  if (p.tube) {
    const tp = catalog.tube_profiles.find((x) => Math.abs(x.wall_thickness_mm - p.tube!.wall_thickness_mm) < 0.5) ?? catalog.tube_profiles[0];
    return { tube_profile_id: tp.id };
  }
  const m = catalog.materials.reduce((a, b) => (Math.abs(b.thickness_mm - p.detected_thickness_mm!) < Math.abs(a.thickness_mm - p.detected_thickness_mm!) ? b : a));
  return { material_id: m.id };
}

test('the blind-feature manifest covers every kind on a plate, a flange and tubes, and machined refusals', () => {
  const kinds = (pred: (t: BlindTruth) => boolean) => new Set(manifest.fixtures.filter(pred).flatMap((t) => t.blind.map((b) => b.kind)));
  const plate = kinds((t) => t.expect === 'sheet' && t.bend_count === 0), bent = kinds((t) => (t.bend_count ?? 0) > 0);
  for (const k of ['counterbore', 'blind_hole', 'pocket', 'engraving', 'edge_chamfer', 'edge_fillet', 'thread']) assert.ok(plate.has(k as never), `plate ${k}`);
  for (const k of ['counterbore', 'blind_hole', 'pocket', 'engraving', 'edge_chamfer', 'thread']) assert.ok(bent.has(k as never), `flange ${k}`);
  for (const profile of ['rectangular', 'round', 'square']) assert.ok(manifest.fixtures.some((t) => t.profile === profile && t.blind.length > 0), `${profile} tube`);
  assert.ok(manifest.fixtures.some((t) => t.expect === 'refused'));
});

for (const t of manifest.fixtures) {
  test(`${t.id}: ${t.what}`, async () => {
    const { model, design, part: p } = await part(t);
    if (t.expect === 'refused') {
      assert.equal(p.manufacturable, false, `${t.id} must be refused`);
      assert.equal(p.unsupported_reason, t.reason, p.unsupported_message ?? '');
      for (const w of t.message_words ?? []) assert.match(p.unsupported_message ?? '', new RegExp(w), `the refusal says ${w}`);
      assert.doesNotMatch(p.unsupported_message ?? '', /more than the 25 mm a sheet can be|mm thick within a/, 'refused for its blind work, not for a thickness');
      return;
    }
    assert.equal(p.manufacturable, true, `${p.unsupported_reason}: ${p.unsupported_message}`);
    assert.equal(p.suggested_process, t.expect === 'tube' ? 'tube_laser' : 'sheet_metal');
    near(p.detected_thickness_mm, t.thickness_mm!, THICKNESS_MM, 'thickness / wall');
    matchFeatures(t, p.blind_features ?? []);
    if (t.expect === 'sheet') {
      assert.equal(p.bend_count, t.bend_count);
      const holes = p.holes.map((h) => h.diameter_mm).sort((a, b) => a - b);
      assert.equal(holes.length, t.hole_diameters_mm!.length, `holes ${holes.join(', ')}`);
      holes.forEach((d, i) => near(d, t.hole_diameters_mm![i], SIZE_MM, `hole ${i}`));
      const f = p.flat_pattern!, w = t.flat!;
      near(f.length_mm, w.length_mm, SIZE_MM, 'flat length');
      near(f.width_mm, w.width_mm, SIZE_MM, 'flat width');
      near(f.area_mm2, w.area_mm2, AREA_REL * w.area_mm2, 'flat area');
      near(f.cut_length_mm, w.cut_length_mm, CUT_REL * w.cut_length_mm, 'cut length (blind edges are not cut)');
      assert.equal(f.pierce_count, w.pierce_count, 'pierces');
      // counterbores and threads name the through hole they sit on
      for (const b of (p.blind_features ?? []).filter((x) => x.kind === 'counterbore' || x.kind === 'thread')) {
        assert.ok(p.holes.some((h) => h.id === b.hole_id), `${b.kind} ${b.id} names its hole (${b.hole_id})`);
      }
    } else {
      assert.equal(p.tube!.profile, t.profile);
      near(p.tube!.length_mm, t.tube!.length_mm, TUBE_LENGTH_MM, 'tube length');
      near(p.tube!.cut_length_mm, t.tube!.cut_length_mm, TUBE_CUT_REL * t.tube!.cut_length_mm, 'tube cut length (blind mouths are not cut)');
      assert.equal(p.holes.length, 0, `no wall hole is cut for blind work: ${JSON.stringify(p.holes)}`);
    }

    // DFM: every feature blocks with its kind's code (a thread until a tap is configured on its hole)
    const stock = stockFor(p);
    const report = dfm(model, { defaults: stock }, catalog, CTX);
    const issues = report.parts[0].issues;
    for (const b of t.blind) {
      const hit = issues.filter((i) => i.code === b.code);
      assert.ok(hit.length > 0, `${t.id}: ${b.code} expected, got ${issues.map((i) => i.code).join(', ')}`);
      for (const i of hit) {
        assert.equal(i.severity, 'blocking');
        assert.equal(i.source, 'geometry');
        assert.match(i.message, /remove|make it|configure a tap|cut it through/i, 'the message says how to fix the model');
        assert.equal(typeof (i.details as { feature_id?: unknown }).feature_id, 'number');
      }
    }
    assert.equal(report.status, 'blocked');
    const svg = report.parts[0].image_svg ?? '';
    for (const b of p.blind_features ?? []) assert.match(svg, new RegExp(`<path class="finding" [^>]*data-feature-id="${b.id}"`), `feature ${b.id} (${b.kind}) ringed on the DFM image`);
    const threads = (p.blind_features ?? []).filter((b) => b.kind === 'thread');
    if (threads.length > 0 && t.expect === 'sheet') {
      const tap = catalog.taps.find((x) => x.size === 'M6') ?? catalog.taps[0];
      const tapped = dfm(design, { defaults: stock, parts: [{ part_id: p.id, taps: threads.map((b) => ({ hole_id: b.hole_id, tap_id: tap.id })) }] }, catalog, CTX);
      assert.ok(!tapped.parts[0].issues.some((i) => i.code === manifest.codes.thread), 'a tapped hole is the secondary operation the modelled thread asks for');
    }
  });
}

test('a machined plate whose rounded outline is chamfered all round: an edge chamfer (cones on four corner axes are no thread), its pockets named (#32.4)', async () => {
  const model = await analyzeModel(new Uint8Array(readFileSync(dir + 'plate_rounded_chamfer_pockets.step')), { fileName: 'plate.step' });
  const p = model.design.parts[0];
  assert.ok(p.flat_pattern, p.unsupported_message ?? 'a sheet with named blind work');
  near(p.flat_pattern.length_mm, 120, SIZE_MM, 'flat length (the full outline, not the chamfered top)');
  near(p.flat_pattern.width_mm, 80, SIZE_MM, 'flat width');
  const found = p.blind_features ?? [];
  const kinds = found.map((b) => b.kind).sort();
  assert.deepEqual(kinds, ['edge_chamfer', 'pocket', 'pocket']);
  near(found.find((b) => b.kind === 'edge_chamfer')!.depth_mm, 2, FEATURE_MM, 'chamfer depth');
  assert.deepEqual(found.filter((b) => b.kind === 'pocket').map((b) => b.depth_mm).sort(), [1.5, 2.5]);
});
