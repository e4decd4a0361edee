// Holes and vents that cross a bend (issue 17, class 1). A hole drilled radially into a bend has a
// cylindrical wall: its edge on the bend face is re-found exactly (Newton on the wall), and the flat
// hole must match the analytic development of the skin the flat follows. The generated fixtures
// (free-form "normal cut" walls) are checked against truth.json by fixtures-truth.test.ts; here their
// flat STEP and flat GLB must carry the same flat (volume = truth area x t) as the DXF does.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import { makeCylinder, type Shape3D } from 'replicad';
import { importStep } from '../src/import/index.ts';
import { buildSolid } from '../src/geometry/topology.ts';
import type { Contour, SheetAnalysis, Vec2 } from '../src/geometry/model.ts';
import { recognizeSheet } from '../src/sheet/index.ts';
import { contourArea, contourCentroid, contourLength, sampleSegment } from '../src/sheet/segments.ts';
import { analyzeModel } from '../src/analyze.ts';
import { productionFilesForModel } from '../src/files/generate.ts';
import { flatMesh } from '../src/files/meshes.ts';
import { writeFlatStep } from '../src/files/occt-exact.ts';
import { initReplicad } from '../../fixtures/lib/oc.ts';
import { stepText } from '../../fixtures/lib/step.ts';
import { profileModel } from '../../fixtures/lib/models.ts';
import type { TruthManifest } from '../../fixtures/lib/truth-compare.ts';
import { BEND_HOLE_PARTS } from '../../fixtures/catalog-unfold.ts';
import { bendCutOutline } from '../../fixtures/lib/bend-holes.ts';

const require = createRequire(import.meta.url);
const validator = require('gltf-validator') as { validateBytes(b: Uint8Array): Promise<{ issues: { numErrors: number } }> };
const FIXTURES = fileURLToPath(new URL('../../fixtures/', import.meta.url));

/** The polyline may stray this far from the true flat curve, mm (the issue's bound). */
const CURVE_TOLERANCE = 0.01;

/** Dense samples of the developed hole of a radial drill (radius rho) on the skin of radius s, flat rate per radian. */
function developedHole(s: number, rho: number, rate: number): Vec2[] {
  // on the skin, distance from the drill axis: (s sin psi)^2 + h^2 = rho^2, flat x = psi rate
  const psiMax = Math.asin(Math.min(1, rho / s));
  const n = 20000;
  const upper: Vec2[] = [], lower: Vec2[] = [];
  for (let i = 0; i <= n; i++) {
    // cosine spacing: dense where the curve turns at the ends
    const psi = -psiMax * Math.cos((Math.PI * i) / n);
    const h = Math.sqrt(Math.max(0, rho * rho - (s * Math.sin(psi)) ** 2));
    upper.push([psi * rate, h]); lower.push([psi * rate, -h]);
  }
  return [...upper, ...lower.reverse()];
}

function polygonArea(p: Vec2[]): number {
  let a = 0;
  for (let i = 0; i < p.length; i++) { const q = p[(i + 1) % p.length]; a += p[i][0] * q[1] - q[0] * p[i][1]; }
  return Math.abs(a) / 2;
}
function polygonLength(p: Vec2[]): number {
  let l = 0;
  for (let i = 0; i < p.length; i++) { const q = p[(i + 1) % p.length]; l += Math.hypot(q[0] - p[i][0], q[1] - p[i][1]); }
  return l;
}

/** Largest distance from the contour's vertices and chord midpoints to the sampled true curve, in the hole's own frame. */
function deviation(c: Contour, truth: Vec2[], toLocal: (p: Vec2) => Vec2): number {
  let worst = 0;
  for (const s of c) {
    if (s.kind !== 'line') continue;
    for (const p of [s.a, [(s.a[0] + s.b[0]) / 2, (s.a[1] + s.b[1]) / 2] as Vec2]) {
      const q = toLocal(p);
      let best = Infinity;
      for (const t of truth) best = Math.min(best, Math.hypot(t[0] - q[0], t[1] - q[1]));
      worst = Math.max(worst, best);
    }
  }
  return worst;
}

test('a hole drilled radially into a bend unrolls exactly: area, cut length and every chord within 0.01 mm of the developed skin curve', async () => {
  await initReplicad();
  const t = 2, r = 2, rho = 1;
  const l = profileModel('l', { t, W: 40, legs: [40, 30], bends: [{ angle: 90, r }] }).solid as Shape3D;
  // along the bend's bisector, through the bend axis (40, 3) at mid-width
  const drilled = l.cut(makeCylinder(rho, 30, [60, -17, 20], [-1, 1, 0]) as Shape3D);
  const [imported] = await importStep(new TextEncoder().encode(await stepText([{ shape: drilled, name: 'drilled' }], 'mm')));
  const solid = buildSolid(imported, 0);
  for (const k of [0.5, 0.44, 0.3]) {
    const a = recognizeSheet(solid, { kFactor: k });
    assert.equal(a.kind, 'sheet', a.kind === 'refused' ? `${a.reason}: ${a.message}` : '');
    const sheet = a as SheetAnalysis;
    assert.equal(sheet.flat.inner.length, 1, 'one hole');
    assert.ok(!sheet.warnings.some((w) => w.code === 'approximated_contour'), 'a cylindrical wall is followed exactly');
    const hole = sheet.flat.inner[0];
    const rate = r + k * t;
    // the flat follows one skin: inner (radius r) or outer (r + t); the hole must be that skin's development
    const area = Math.abs(contourArea(hole));
    const skins = [r, r + t].map((s) => ({ s, curve: developedHole(s, rho, rate) }));
    // chords within CURVE_TOLERANCE of the curve: the area may differ by at most perimeter x tolerance
    const skin = skins.find((x) => Math.abs(polygonArea(x.curve) - area) <= polygonLength(x.curve) * CURVE_TOLERANCE / 4);
    assert.ok(skin, `K ${k}: hole area ${area} is neither skin's (${skins.map((x) => polygonArea(x.curve)).join(', ')})`);
    const length = contourLength(hole);
    assert.ok(Math.abs(length - polygonLength(skin.curve)) <= 1e-4 * length, `K ${k}: cut length ${length} vs ${polygonLength(skin.curve)}`);
    // the hole's own frame: x across the bend line, y along it, origin at the hole's centre (it is symmetric)
    const line = [sheet.flat.bendLines[0].a, sheet.flat.bendLines[0].b];
    const ax = [line[1][0] - line[0][0], line[1][1] - line[0][1]], al = Math.hypot(ax[0], ax[1]);
    const along: Vec2 = [ax[0] / al, ax[1] / al];
    const n = hole.filter((s) => s.kind === 'line').length;
    // centre: middle of the extents along both local axes
    const proj = hole.filter((s) => s.kind === 'line').map((s) => s.kind === 'line' ? s.a : [0, 0]);
    const us = proj.map((p) => p[0] * -along[1] + p[1] * along[0]), vs = proj.map((p) => p[0] * along[0] + p[1] * along[1]);
    const uc = (Math.min(...us) + Math.max(...us)) / 2, vc = (Math.min(...vs) + Math.max(...vs)) / 2;
    assert.ok(n > 8, 'written as a polyline');
    const toLocal = (p: Vec2): Vec2 => [p[0] * -along[1] + p[1] * along[0] - uc, p[0] * along[0] + p[1] * along[1] - vc];
    const dev = deviation(hole, skin.curve, toLocal);
    assert.ok(dev <= CURVE_TOLERANCE, `K ${k}: the polyline strays ${dev} mm from the true curve`);
  }
});

const manifest = JSON.parse(readFileSync(`${FIXTURES}truth.json`, 'utf8')) as TruthManifest;
for (const f of manifest.fixtures.filter((x) => x.features.includes('hole_in_bend'))) {
  test(`${f.id}: flat STEP and flat GLB carry the truth's flat at K 0.44 (volume = area x t), GLB valid`, async () => {
    const k = 0.44;
    const bytes = new Uint8Array(readFileSync(`${FIXTURES}${f.file}`));
    const model = await analyzeModel(bytes, { kFactor: k });
    const mp = model.parts[0];
    const a = mp.analysis;
    assert.equal(a.kind, 'sheet');
    if (a.kind !== 'sheet') return;
    const truth = f.parts[0];
    const want = truth.flat![String(k)].area_mm2 * truth.thickness_mm!;
    // the flat STEP is an exact B-rep (OCCT's own volume); its re-import is a tessellation (0.2 %, as in step-export.test.ts)
    const exact = await writeFlatStep(a.flat.outer, a.flat.inner, truth.thickness_mm!);
    // free-form walls are interpolated through the exact boundary points (within ~0.002 mm): 1e-4 of the area
    assert.ok(Math.abs(exact.volume - want) <= 1e-4 * want, `flat STEP volume ${exact.volume} vs ${want}`);
    const files = await productionFilesForModel(bytes, [{ part: mp.part, solid: mp.solid, analysis: a }], { kinds: ['production_flat_step', 'production_flat_model'] });
    const back = (await importStep(files[mp.part.id].production_flat_step!)).map((s, i) => buildSolid(s, i));
    assert.equal(back.length, 1);
    assert.ok(Math.abs(back[0].volume - want) <= 2e-3 * want, `flat STEP re-imported volume ${back[0].volume} vs ${want}`);
    const glb = files[mp.part.id].production_flat_model!;
    assert.equal((await validator.validateBytes(glb)).issues.numErrors, 0);
    const mesh = await flatMesh(a.flat, truth.thickness_mm!);
    let v6 = 0;
    const p = mesh.positions, ix = mesh.indices;
    for (let i = 0; i < ix.length; i += 3) {
      const [a0, b0, c0] = [3 * ix[i], 3 * ix[i + 1], 3 * ix[i + 2]];
      v6 += p[a0] * (p[b0 + 1] * p[c0 + 2] - p[b0 + 2] * p[c0 + 1]) - p[a0 + 1] * (p[b0] * p[c0 + 2] - p[b0 + 2] * p[c0]) + p[a0 + 2] * (p[b0] * p[c0 + 1] - p[b0 + 1] * p[c0]);
    }
    const meshVolume = Math.abs(v6) / 6;
    // the GLB mesh is float32: a relative 1e-4 is its precision here
    assert.ok(Math.abs(meshVolume - want) <= 1e-4 * want, `flat GLB mesh volume ${meshVolume} vs ${want}`);
  });
}

/** Distance from p to the closed polygon q. */
function polygonDistance(p: Vec2, q: Vec2[]): number {
  let best = Infinity;
  for (let i = 0; i < q.length; i++) {
    const a = q[i], b = q[(i + 1) % q.length];
    const dx = b[0] - a[0], dy = b[1] - a[1], l2 = dx * dx + dy * dy;
    const s = l2 > 0 ? Math.max(0, Math.min(1, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / l2)) : 0;
    best = Math.min(best, Math.hypot(p[0] - a[0] - s * dx, p[1] - a[1] - s * dy));
  }
  return best;
}

function polygonCentroid(p: Vec2[]): Vec2 {
  let a = 0, cx = 0, cy = 0;
  for (let i = 0; i < p.length; i++) {
    const q = p[(i + 1) % p.length], c = p[i][0] * q[1] - q[0] * p[i][1];
    a += c; cx += (p[i][0] + q[0]) * c; cy += (p[i][1] + q[1]) * c;
  }
  return [cx / (3 * a), cy / (3 * a)];
}

for (const part of BEND_HOLE_PARTS) {
  test(`${part.id}: every hole crossing a bend lies within 0.01 mm of its analytic development at K 0.44 (free-form walls, spline through the exact points)`, async () => {
    const k = 0.44;
    const model = await analyzeModel(new Uint8Array(readFileSync(`${FIXTURES}sheet/${part.id}.step`)), { kFactor: k });
    const a = model.parts[0].analysis;
    assert.equal(a.kind, 'sheet');
    if (a.kind !== 'sheet') return;
    // the flat's axes: y along the bend lines (all parallel here), x across them
    const bl = a.flat.bendLines[0];
    const len = Math.hypot(bl.b[0] - bl.a[0], bl.b[1] - bl.a[1]);
    const along: Vec2 = [(bl.b[0] - bl.a[0]) / len, (bl.b[1] - bl.a[1]) / len];
    const holes = a.flat.inner.map((c) => ({ c, area: Math.abs(contourArea(c)), centre: contourCentroid(c) }));
    for (const cut of part.cuts) {
      const truth = bendCutOutline(part.spec, cut, k, 4000);
      const area = polygonArea(truth);
      const hole = holes.reduce((x, y) => (Math.abs(y.area - area) < Math.abs(x.area - area) ? y : x));
      const tc = polygonCentroid(truth);
      // the hole in the truth's frame, up to the flat's unknown half turn and mirror: the best of the four
      // every vertex and chord middle of the written contour (arcs, where the flat has them, sampled)
      const points = hole.c.flatMap((s) => s.kind === 'line' ? [s.a, [(s.a[0] + s.b[0]) / 2, (s.a[1] + s.b[1]) / 2] as Vec2] : sampleSegment(s, 1e-4));
      let best = Infinity;
      for (const sx of [1, -1]) {
        for (const sy of [1, -1]) {
          let worst = 0;
          for (const p of points) {
            const dx = p[0] - hole.centre[0], dy = p[1] - hole.centre[1];
            const local: Vec2 = [tc[0] + sx * (dx * along[1] - dy * along[0]), tc[1] + sy * (dx * along[0] + dy * along[1])];
            worst = Math.max(worst, polygonDistance(local, truth));
            if (worst > best) break;
          }
          best = Math.min(best, worst);
        }
      }
      assert.ok(best <= CURVE_TOLERANCE, `${part.id}: cut at u ${cut.u} strays ${best.toFixed(5)} mm from its development`);
    }
  });
}
