// The DFM image and the labelled views, read back as a client would: the SVG parsed as XML, the PNG
// decoded to pixels. Real fixtures through the real analysis and DFM.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { PNG } from 'pngjs';
import { analyzeModel, type AnalyzedModel } from '../src/analyze.ts';
import { defaultCatalog } from '../src/catalog/index.ts';
import { dfm, type DfmReport } from '../src/dfm/index.ts';
import { dfmImageOf } from '../src/dfm/image.ts';
import { svgToPng } from '../src/files/png.ts';
import { layoutLabels, textBox } from '../src/files/labels.ts';
import type { Scene } from '../src/files/scene.ts';
import { sceneToSvg } from '../src/files/svg.ts';
import { productionFilesForModel } from '../src/files/generate.ts';
import { corpusPath, HAS_CORPUS } from './corpus-dir.ts';

const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '', parseAttributeValue: false, preserveOrder: false, textNodeName: '#text' });
type El = Record<string, unknown> & { '#text'?: string | number };
type Box = [number, number, number, number];

/** Every element of the given tag anywhere in the document. */
function all(node: unknown, tag: string, out: El[] = []): El[] {
  if (node === null || typeof node !== 'object') return out;
  for (const [k, v] of Object.entries(node as Record<string, unknown>)) {
    for (const item of [v].flat()) {
      if (k === tag && item && typeof item === 'object') out.push(item as El);
      all(item, tag, out);
    }
  }
  return out;
}
const parse = (svg: string): unknown => { assert.equal(XMLValidator.validate(svg), true, 'SVG is well-formed XML'); return parser.parse(svg); };
const nums = (s: unknown): number[] => String(s).trim().split(/[\s,]+/).map(Number);
const overlaps = (a: Box, b: Box): boolean => a[0] < b[0] + b[2] && b[0] < a[0] + a[2] && a[1] < b[1] + b[3] && b[1] < a[1] + a[3];
const contains = (b: Box, p: number[]): boolean => p[0] > b[0] && p[0] < b[0] + b[2] && p[1] > b[1] && p[1] < b[1] + b[3];

/** The subpaths of an SVG path's d ("M x y L x y ... Z" per loop), as point lists. */
function loopsOf(d: string): number[][][] {
  return d.split('M').filter(Boolean).map((sub) => sub.replace(/Z/g, '').split('L').map((pt) => nums(pt)));
}

async function fixture(path: string): Promise<{ model: AnalyzedModel; report: DfmReport }> {
  const bytes = new Uint8Array(readFileSync(path.startsWith('/') ? path : new URL(`../../fixtures/${path}`, import.meta.url)));
  const model = await analyzeModel(bytes);
  const t = model.parts[0].part.detected_thickness_mm ?? 2;
  // mild steel of the detected thickness: the rules judge holes and bends against it
  const steel = defaultCatalog().materials.filter((m) => m.id.startsWith('mat_mild_steel_')).sort((a, b) => Math.abs(a.thickness_mm - t) - Math.abs(b.thickness_mm - t))[0];
  const report = dfm(model.design, { defaults: { material_id: steel.id } }, defaultCatalog(), { id: 'dfm_test', now: '2026-01-01T00:00:00Z' });
  return { model, report };
}

async function dfmSvg(model: AnalyzedModel, report: DfmReport, view: 'flat' | 'iso' = 'flat'): Promise<string> {
  const p = report.parts[0];
  const bytes = await dfmImageOf(model, { partId: p.part_id, view, format: 'svg', issues: p.issues, configuration: report.configuration });
  assert.ok(bytes, 'an image');
  return new TextDecoder().decode(bytes!);
}

test('a slot finding is drawn on the slot itself: its real contour, not a circle, on the real flat', async () => {
  const { model, report } = await fixture('sheet/plate_t6_small_holes_keyhole.step');
  const slotIssue = report.parts[0].issues.find((i) => i.code === 'slot_too_small');
  assert.ok(slotIssue && slotIssue.hole_id !== null, `the 2 mm slot is too small for 6 mm steel (${report.parts[0].issues.map((i) => i.code)})`);
  const doc = parse(await dfmSvg(model, report));
  const highlight = all(doc, 'path').find((p) => p.class === 'finding' && p['data-code'] === 'slot_too_small');
  assert.ok(highlight, 'the slot finding has its own outline');
  assert.equal(highlight['data-hole-id'], String(slotIssue.hole_id));
  const [loop] = loopsOf(String(highlight.d));
  const xs = loop.map((p) => p[0]), ys = loop.map((p) => p[1]);
  const [w, h] = [Math.max(...xs) - Math.min(...xs), Math.max(...ys) - Math.min(...ys)].sort((a, b) => a - b);
  assert.ok(h > 10 * w, `a 2 x 60 slot is long and thin: ${w.toFixed(1)} x ${h.toFixed(1)} px`);
  // the part itself: the outer contour and one loop per cut (5 holes incl. the keyhole and the slot)
  const part = all(doc, 'path').find((p) => !p.class);
  assert.ok(part && loopsOf(String(part.d)).length === 6, 'the flat with its five cut-outs');
  // every finding has a numbered marker on the drawing and one in the legend
  const markers = all(doc, 'g').filter((g) => g.class === 'finding' && g['data-no']);
  const legend = all(doc, 'g').filter((g) => g.class === 'legend-marker');
  assert.equal(markers.length, report.parts[0].issues.length);
  assert.equal(legend.length, report.parts[0].issues.length);
  const legendText = all(doc, 'text').filter((t) => t.class === 'legend').map((t) => String(t['#text'])).join(' ');
  for (const i of report.parts[0].issues) assert.ok(legendText.includes(i.code), `legend names ${i.code}`);
});

test('tabs are drawn: the flat outline of a tray is its real cross shape, not its bounding rectangle', async () => {
  const { model, report } = await fixture('sheet/tray_t1.2_r1.2_flange_holes.step');
  const part = all(parse(await dfmSvg(model, report)), 'path').find((p) => !p.class)!;
  const outer = loopsOf(String(part.d))[0];
  let area = 0;
  for (let i = 0, j = outer.length - 1; i < outer.length; j = i++) area += outer[j][0] * outer[i][1] - outer[i][0] * outer[j][1];
  const xs = outer.map((p) => p[0]), ys = outer.map((p) => p[1]);
  const box = (Math.max(...xs) - Math.min(...xs)) * (Math.max(...ys) - Math.min(...ys));
  assert.ok(Math.abs(area / 2) < 0.9 * box, `outline area ${Math.abs(area / 2).toFixed(0)} px2 vs its box ${box.toFixed(0)} px2: the corners are cut away`);
});

test('dfm() given the analyzed model: each image_svg is the DFM image, findings on the real flat (not a box with round holes)', async () => {
  const { model, report } = await fixture('sheet/plate_t6_small_holes_keyhole.step');
  const hole = model.design.parts[0].holes[0];
  const tap = defaultCatalog().taps[0];
  const configuration = { ...report.configuration, parts: [{ part_id: report.parts[0].part_id, taps: [{ hole_id: hole.id, tap_id: tap.id }] }] };
  const ctx = { id: 'dfm_test', now: '2026-01-01T00:00:00Z' };
  const drawn = dfm(model, configuration, defaultCatalog(), ctx);
  const p = drawn.parts[0];
  // the same report as from the design, plus the drawing
  const { image_svg: svg, ...rest } = p;
  assert.deepEqual({ ...drawn, parts: [rest] }, dfm(model.design, configuration, defaultCatalog(), ctx));
  assert.ok(svg, 'an image_svg');
  assert.equal(svg, new TextDecoder().decode((await dfmImageOf(model, { partId: p.part_id, view: 'flat', format: 'svg', issues: p.issues, configuration: drawn.configuration }))!), 'the served DFM image, byte for byte');
  const doc = parse(svg);
  const slot = p.issues.find((i) => i.code === 'slot_too_small')!;
  const highlight = all(doc, 'path').find((e) => e.class === 'finding' && e['data-code'] === 'slot_too_small');
  assert.ok(highlight && highlight['data-hole-id'] === String(slot.hole_id), 'the slot finding is a path on the slot, not a circle');
  const xs = loopsOf(String(highlight.d))[0].map((q) => q[0]), ys = loopsOf(String(highlight.d))[0].map((q) => q[1]);
  const [w, h] = [Math.max(...xs) - Math.min(...xs), Math.max(...ys) - Math.min(...ys)].sort((a, b) => a - b);
  assert.ok(h > 10 * w, `the slot's own long thin contour: ${w.toFixed(1)} x ${h.toFixed(1)} px`);
  assert.equal(all(doc, 'circle').filter((c) => c.class === 'finding' || c.class === 'hole').length, 0, 'no hole or finding drawn as a circle');
  assert.equal(all(doc, 'rect').filter((r) => r.class === 'outline').length, 0, 'no enclosing rectangle');
  assert.equal(all(doc, 'g').filter((g) => g.class === 'legend-marker').length, p.issues.length, 'a legend entry per finding');
  const label = all(doc, 'text').find((t) => t['data-ref'] === `hole-${hole.id}`);
  assert.ok(label && String(label['#text']).includes(`tap ${tap.id.replace(/^tap_/, '')}`), 'the configured tap is named on its hole');
  // a tray's flat: the real outline with its corners cut away, not its box
  const tray = await fixture('sheet/tray_t1.2_r1.2_flange_holes.step');
  const traySvg = dfm(tray.model, tray.report.configuration, defaultCatalog(), ctx).parts[0].image_svg!;
  const outer = loopsOf(String(all(parse(traySvg), 'path').find((e) => !e.class)!.d))[0];
  let area = 0;
  for (let i = 0, j = outer.length - 1; i < outer.length; j = i++) area += outer[j][0] * outer[i][1] - outer[i][0] * outer[j][1];
  const ox = outer.map((q) => q[0]), oy = outer.map((q) => q[1]);
  assert.ok(Math.abs(area / 2) < 0.9 * (Math.max(...ox) - Math.min(...ox)) * (Math.max(...oy) - Math.min(...oy)), 'the tray outline is not a rectangle');
});

test('the PNG of a DFM image is its SVG rendered: the markers are there in the marker colour', async () => {
  const { model, report } = await fixture('sheet/l_t2_holes_near_bend.step');
  const p = report.parts[0];
  assert.ok(p.issues.length >= 1, 'holes near the bend are findings');
  const svg = await dfmSvg(model, report);
  const pngBytes = await dfmImageOf(model, { partId: p.part_id, view: 'flat', format: 'png', issues: p.issues, configuration: report.configuration });
  assert.deepEqual(Buffer.from(pngBytes!), Buffer.from(await svgToPng(svg)), 'the PNG is the SVG, rendered');
  const png = PNG.sync.read(Buffer.from(pngBytes!));
  const doc = parse(svg) as { svg: { width: string; height: string } };
  assert.equal(png.width, Number(doc.svg.width));
  assert.equal(png.height, Number(doc.svg.height));
  const markers = all(doc, 'g').filter((g) => (g.class === 'finding' || g.class === 'legend-marker') && g.circle);
  assert.equal(markers.length, 2 * p.issues.length);
  for (const m of markers) {
    const c = m.circle as El;
    const [cx, cy] = [Number(c.cx), Number(c.cy)];
    const want = [1, 3, 5].map((k) => parseInt(String(c.fill).slice(k, k + 2), 16));
    // beside the white number, inside the disc
    for (const [dx, dy] of [[-6, 0], [6, 0]]) {
      const o = 4 * (Math.round(cy + dy) * png.width + Math.round(cx + dx));
      const got = [png.data[o], png.data[o + 1], png.data[o + 2]];
      assert.ok(got.every((v, k) => Math.abs(v - want[k]) <= 24), `marker ${m['data-no']} at ${cx},${cy}: pixel ${got} is the marker colour ${want}`);
    }
  }
});

test('formed-view DFM images mark hole findings where the holes are', async () => {
  const { model, report } = await fixture('sheet/tray_t1.2_r1.2_flange_holes.step');
  const doc = parse(await dfmSvg(model, report, 'iso'));
  const holeIssues = report.parts[0].issues.filter((i) => i.hole_id !== null);
  assert.ok(holeIssues.length >= 1);
  const rings = all(doc, 'path').filter((p) => p.class === 'finding');
  for (const i of holeIssues) assert.ok(rings.some((r) => r['data-hole-id'] === String(i.hole_id)), `hole ${i.hole_id} ringed in the iso view`);
});

/** Whether any edge of a closed loop crosses or lies in a box (Liang-Barsky clipping). */
function loopTouchesBox(loop: number[][], b: Box): boolean {
  return loop.some((a, k) => {
    const c = loop[(k + 1) % loop.length];
    let t0 = 0, t1 = 1;
    const dx = c[0] - a[0], dy = c[1] - a[1];
    for (const [p, q] of [[-dx, a[0] - b[0]], [dx, b[0] + b[2] - a[0]], [-dy, a[1] - b[1]], [dy, b[1] + b[3] - a[1]]]) {
      if (p === 0) { if (q < 0) return false; continue; }
      const r = q / p;
      if (p < 0) { if (r > t1) return false; if (r > t0) t0 = r; } else { if (r < t0) return false; if (r < t1) t1 = r; }
    }
    return true;
  });
}
/** Point in a closed loop (even-odd). */
function insideLoop(loop: number[][], p: number[]): boolean {
  let inside = false;
  for (let k = 0, j = loop.length - 1; k < loop.length; j = k++) {
    const [xi, yi] = loop[k], [xj, yj] = loop[j];
    if ((yi > p[1]) !== (yj > p[1]) && p[0] < ((xj - xi) * (p[1] - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

/** Label boxes, hole centres and the "+N more" note of a labelled view. */
function labelLayout(svg: string): { boxes: Array<{ ref: string; box: Box }>; holeCentres: Array<{ ref: string; at: number[] }>; more: string | null; doc: unknown } {
  const doc = parse(svg);
  const labels = all(doc, 'text').filter((t) => t['data-ref']);
  const boxes = labels.map((t) => ({ ref: String(t['data-ref']), box: nums(t['data-box']) as Box }));
  const holeCentres = labels.filter((t) => String(t['data-ref']).startsWith('hole-')).map((t) => ({ ref: String(t['data-ref']), at: nums(t['data-anchor']) }));
  const more = all(doc, 'text').find((t) => t.class === 'more-labels');
  return { boxes, holeCentres, more: more ? String(more['#text']) : null, doc };
}

function assertLayout(name: string, svg: string, holeIds: number[]): void {
  const { boxes, holeCentres, more, doc } = labelLayout(svg);
  // on a flat, no label covers a cut-out (every loop of the part's path but the outer): no edge of
  // the cut crosses the label's box and the box is not inside the cut
  if ((doc as { svg: Record<string, string> }).svg['data-view'] === 'flat') {
    const part = all(doc, 'path').find((p) => !p.class)!;
    for (const b of boxes) for (const cut of loopsOf(String(part.d)).slice(1)) {
      const centre = [b.box[0] + b.box[2] / 2, b.box[1] + b.box[3] / 2];
      assert.ok(!loopTouchesBox(cut, b.box) && !insideLoop(cut, centre), `${name}: label ${b.ref} covers a cut-out at ${cut[0].map((v) => v.toFixed(0))}`);
    }
  }
  for (let i = 0; i < boxes.length; i++) {
    assert.equal(boxes[i].box.length, 4, `${name}: ${boxes[i].ref} has its box`);
    for (let j = i + 1; j < boxes.length; j++) assert.ok(!overlaps(boxes[i].box, boxes[j].box), `${name}: labels ${boxes[i].ref} and ${boxes[j].ref} overlap`);
    for (const h of holeCentres) assert.ok(!contains(boxes[i].box, h.at), `${name}: label ${boxes[i].ref} covers the centre of ${h.ref}`);
  }
  // every hole is labelled, or the note says how many are not
  const labelled = new Set(holeCentres.map((h) => h.ref));
  const missing = holeIds.filter((id) => !labelled.has(`hole-${id}`));
  if (missing.length) assert.ok(more?.startsWith(`+${missing.length} more`), `${name}: ${missing.length} unlabelled holes are counted (${more})`);
}

test('labels never overlap each other or cover a hole centre; crowded drawings thin out with a note', async () => {
  const names = ['sheet/tray_t1.2_r1.2_flange_holes.step', 'sheet/plate_t6_small_holes_keyhole.step', ...(HAS_CORPUS ? [corpusPath('ender3-e-plate.step'), corpusPath('ender3-sheetmetal-enclosure-bottom.step')] : [])];
  for (const name of names) {
    const { model, report } = await fixture(name);
    const mp = model.parts[0];
    const holes = mp.part.holes.map((h) => h.id);
    const bytes = new Uint8Array(readFileSync(name.startsWith('/') ? name : new URL(`../../fixtures/${name}`, import.meta.url)));
    const files = (await productionFilesForModel(bytes, model.parts, { partIds: [mp.part.id], kinds: ['image_flat_svg', 'image_iso_svg'] }))[mp.part.id];
    if (files.image_flat_svg) assertLayout(`${name} flat`, new TextDecoder().decode(files.image_flat_svg), holes);
    assertLayout(`${name} iso`, new TextDecoder().decode(files.image_iso_svg!), holes);
    assertLayout(`${name} dfm flat`, await dfmSvg(model, report), holes);
  }
});

/** How far a label without a leader may sit from its hole's edge, mm: beside it, not across the part. */
const LABEL_BESIDE_MM = 1.5;

test('a hole label sits beside its hole, however large the hole: within LABEL_BESIDE_MM of its edge, in every direction', { skip: !HAS_CORPUS && 'no corpus' }, async () => {
  // real parts with one large round hole (30.4, 52 x 80 window + 10, 24, 23 mm) among small ones
  for (const file of ['ender3-support-frame.step', 'ender3-lcd-support.step', 'ender3-y-motor-holder.step', 'ender3-x-motor-bracket.step']) {
    const { model, report } = await fixture(corpusPath(file));
    const mp = model.parts[0];
    const doc = parse(await dfmSvg(model, report));
    // px per mm: the overall width dimension's line against the millimetres it states
    const widthMm = Number(all(doc, 'text').find((t) => t.class === 'dimension' && t['data-dimension'] === 'width')!['data-mm']);
    const widthPx = Math.max(...all(doc, 'line').filter((l) => l['data-dimension'] === 'width').map((l) => Math.abs(Number(l.x2) - Number(l.x1))));
    const scale = widthPx / widthMm;
    const leaders = all(doc, 'line').filter((l) => l.class === 'leader').map((l) => [Number(l.x2), Number(l.y2)]);
    let large = 0;
    for (const t of all(doc, 'text').filter((t) => String(t['data-ref']).startsWith('hole-'))) {
      const hole = mp.part.holes.find((h) => `hole-${h.id}` === t['data-ref'])!;
      if (hole.shape !== 'round') continue;
      const box = nums(t['data-box']) as Box, at = nums(t['data-anchor']);
      const near = [Math.min(Math.max(at[0], box[0]), box[0] + box[2]), Math.min(Math.max(at[1], box[1]), box[1] + box[3])];
      const gapMm = Math.hypot(near[0] - at[0], near[1] - at[1]) / scale - hole.diameter_mm / 2;
      assert.ok(gapMm >= 0, `${file}: H${hole.id} covers its own hole (${gapMm.toFixed(2)} mm)`);
      // a label moved away for want of room has a leader ending on it; every other one is beside its hole
      if (leaders.some((p) => Math.abs(p[0] - near[0]) < 1 && Math.abs(p[1] - near[1]) < 1 || contains([box[0] - 1, box[1] - 1, box[2] + 2, box[3] + 2], p))) continue;
      assert.ok(gapMm <= LABEL_BESIDE_MM, `${file}: H${hole.id} (${hole.diameter_mm} mm) is ${gapMm.toFixed(1)} mm from its hole, over ${LABEL_BESIDE_MM} mm`);
      if (hole.diameter_mm >= 20) large++;
    }
    assert.ok(large >= 1 || file === 'ender3-lcd-support.step', `${file}: its large hole is labelled beside it`);
  }
});

test('legend: false leaves the findings list out of the DFM image: the numbered markers stay, the drawing keeps its 3:4 size', async () => {
  const { model, report } = await fixture('sheet/l_t2_holes_near_bend.step');
  const p = report.parts[0];
  assert.ok(p.issues.length >= 1, 'the part has findings');
  const draw = async (legend?: boolean): Promise<string> => new TextDecoder().decode((await dfmImageOf(model, { partId: p.part_id, view: 'flat', format: 'svg', issues: p.issues, configuration: report.configuration, width: 800, ...(legend === undefined ? {} : { legend }) }))!);
  const withLegend = await draw(), without = await draw(false);
  const count = (svg: string, re: RegExp): number => (svg.match(re) ?? []).length;
  assert.ok(count(withLegend, /class="legend/g) > p.issues.length, 'by default the legend lists every finding');
  assert.equal(count(without, /class="legend/g), 0, 'no legend');
  assert.equal(count(without, /class="finding"/g), count(withLegend, /class="finding"/g), 'the same findings marked on the drawing');
  assert.match(without, /<svg[^>]* height="600"/, 'the drawing alone, 3:4 of its width');
});

test('the flat is dimensioned: overall width and height match the flat pattern, bends give angle and direction', async () => {
  for (const name of ['sheet/tray_t1.2_r1.2_flange_holes.step', 'sheet/l_t2_holes_near_bend.step', 'sheet/mixed_angles_t2_r2.step']) {
    const { model } = await fixture(name);
    const mp = model.parts[0];
    const fp = mp.part.flat_pattern!;
    const svg = new TextDecoder().decode((await productionFilesForModel(new Uint8Array(readFileSync(new URL(`../../fixtures/${name}`, import.meta.url))), model.parts, { partIds: [mp.part.id], kinds: ['image_flat_svg'] }))[mp.part.id].image_flat_svg!);
    const doc = parse(svg);
    const dims = all(doc, 'text').filter((t) => t.class === 'dimension');
    const mm = dims.map((t) => Number(t['data-mm'])).sort((a, b) => b - a);
    assert.equal(dims.length, 2, `${name}: width and height`);
    for (const t of dims) assert.equal(String(t['#text']), `${t['data-mm']} mm`);
    const want = [fp.length_mm, fp.width_mm].sort((a, b) => b - a);
    mm.forEach((v, k) => assert.ok(Math.abs(v - want[k]) <= 0.1, `${name}: dimension ${v} mm vs flat ${want[k]} mm`));
    const bendLabels = all(doc, 'text').filter((t) => String(t['data-ref']).startsWith('bend-'));
    assert.equal(bendLabels.length, mp.part.bends.length, `${name}: a label per bend`);
    for (const b of mp.part.bends) {
      const label = bendLabels.find((t) => t['data-ref'] === `bend-${b.id}`);
      assert.equal(String(label?.['#text']), `B${b.id} ${Math.round(b.angle_degrees)}\u00b0 ${b.direction}`, `${name}: bend ${b.id}`);
    }
  }
});

test('a part with no flat still gets its findings drawn: the DFM image falls back to its iso view, saying so', async () => {
  const { model, report } = await fixture('tubes/neg-hex-tube.step');
  assert.ok(report.parts[0].issues.length >= 1, 'a hexagonal tube is refused');
  const svg = await dfmSvg(model, report, 'flat');
  const doc = parse(svg) as { svg: Record<string, string> };
  assert.equal(doc.svg['data-view'], 'iso');
  const legend = all(doc, 'text').filter((t) => t.class === 'legend').map((t) => String(t['#text'])).join(' ');
  assert.match(legend, /iso view \(no flat view\)/);
  for (const i of report.parts[0].issues) assert.ok(legend.includes(`${i.code} (whole part)`), `legend lists ${i.code} for the whole part`);
});

test("a tube's unrolled wall is dimensioned: its length", async () => {
  const name = 'tubes/rect-60x30x2.5-r5-l400-slots.step';
  const { model } = await fixture(name);
  const mp = model.parts[0];
  const svg = new TextDecoder().decode((await productionFilesForModel(new Uint8Array(readFileSync(new URL(`../../fixtures/${name}`, import.meta.url))), model.parts, { partIds: [mp.part.id], kinds: ['image_flat_svg'] }))[mp.part.id].image_flat_svg!);
  const width = all(parse(svg), 'text').find((t) => t.class === 'dimension' && t['data-dimension'] === 'width');
  assert.ok(width && Math.abs(Number(width['data-mm']) - mp.part.tube!.length_mm) <= 0.1, `length ${width?.['data-mm']} vs ${mp.part.tube!.length_mm} mm`);
});

test('labels of far-side features stay readable: drawn over the part, upright, at least 60 % opaque', async () => {
  const name = 'tubes/round-50x3-l250-holes.step';
  const { model } = await fixture(name);
  const mp = model.parts[0];
  const bytes = new Uint8Array(readFileSync(new URL(`../../fixtures/${name}`, import.meta.url)));
  const svg = new TextDecoder().decode((await productionFilesForModel(bytes, model.parts, { partIds: [mp.part.id], kinds: ['image_back_svg'] }))[mp.part.id].image_back_svg!);
  const hidden = all(parse(svg), 'text').filter((t) => t['data-hidden'] === 'true');
  assert.ok(hidden.length >= 1, 'a hole on the far wall');
  for (const t of hidden) {
    assert.ok(Number(t.opacity) >= 0.6, `opacity ${t.opacity}`);
    assert.equal(t.transform, undefined, 'not mirrored or turned');
  }
  // painted after (over) every face of the part
  assert.ok(svg.lastIndexOf('<path') < svg.indexOf('class="labels"'));
});

test('a drawing too crowded for every label leaves some out and says how many, where no label covers the note', () => {
  // 400 holes 10 px apart in a 400 px drawing
  const labels = Array.from({ length: 400 }, (_, i) => ({ at: [100 + (i % 20) * 10, 100 + Math.floor(i / 20) * 10] as [number, number], text: `H${i}`, color: '#c0392b', ref: { kind: 'hole' as const, id: i }, clearPx: 3 }));
  const scene: Scene = { view: 'flat', width: 400, height: 400, background: '#ffffff', polygons: [], lines: [], labels, title: 'crowded' };
  const dropped = layoutLabels(scene);
  assert.ok(dropped > 0 && scene.labels.length > 0 && scene.labels.length + dropped === 400, `${scene.labels.length} drawn, ${dropped} left out`);
  const note = all(parse(sceneToSvg(scene)), 'text').find((t) => t.class === 'more-labels');
  assert.match(String(note?.['#text']), new RegExp(`^\\+${dropped} more labels`));
  const noteBox = textBox(scene.texts!.find((t) => t.cls === 'more-labels')!);
  assert.ok(noteBox[0] + noteBox[2] <= 400, 'the note fits the drawing');
  for (const l of scene.labels) assert.ok(!overlaps(l.box!, noteBox), `${l.text} covers the note`);
});
