// The 'flat' image of a tube part: its unrolled outer wall (x along the axis, s around the outer
// perimeter) with every cut contour, from the real importer and recogniser on the tube fixtures.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { PNG } from 'pngjs';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { analyzeModel } from '../src/analyze.ts';
import { productionFilesForModel, type ModelPart } from '../src/files/generate.ts';
import { cornerPositions, outlineExtent, unrolledPerimeter } from '../src/tube/outline.ts';
import type { TubeAnalysis, Vec2 } from '../src/geometry/model.ts';

/** Outline points may pass the tube's extent by this much (the length is measured on the same curves), mm. */
const EXTENT_TOL_MM = 0.05;
/** A hole's drawn outline is centred on its recorded unrolled centre within this, mm. */
const CENTRE_TOL_MM = 0.5;
/** Axial span of a drawn contour against its nominal size, mm (chords sit within 0.01 mm of the curve). */
const SPAN_TOL_MM = 0.1;

const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' });

function svgDoc(svg: string): { labels: string[]; refs: string[]; paths: string[]; dashed: number } {
  assert.equal(XMLValidator.validate(svg), true, 'SVG is well-formed XML');
  const doc = parser.parse(svg);
  const groups: Array<Record<string, unknown>> = [doc.svg.g].flat().filter(Boolean);
  const texts = [groups.find((g) => g.class === 'labels')?.text ?? []].flat() as Array<{ '#text': string | number; 'data-ref': string }>;
  const paths = groups.flatMap((g) => [g.path ?? []].flat() as Array<{ d: string }>).map((p) => p.d);
  const lines = groups.flatMap((g) => [g.line ?? []].flat() as Array<{ 'stroke-dasharray'?: string }>);
  return { labels: texts.map((t) => String(t['#text'])), refs: texts.map((t) => t['data-ref']), paths, dashed: lines.filter((l) => l['stroke-dasharray']).length };
}

/** Pixels of a PNG that are not white. */
function inkOf(bytes: Buffer): number {
  const png = PNG.sync.read(bytes);
  let ink = 0;
  for (let p = 0; p < png.data.length; p += 4) if (png.data[p] !== 255 || png.data[p + 1] !== 255 || png.data[p + 2] !== 255) ink++;
  return ink;
}

async function tube(name: string): Promise<{ bytes: Uint8Array; mp: ModelPart; t: TubeAnalysis }> {
  const bytes = new Uint8Array(readFileSync(new URL(`../../fixtures/tubes/${name}.step`, import.meta.url)));
  const mp = (await analyzeModel(bytes)).parts[0];
  assert.equal(mp.analysis.kind, 'tube', name);
  return { bytes, mp, t: mp.analysis as TubeAnalysis };
}

function box(lines: Vec2[][]): { x0: number; x1: number; s0: number; s1: number } {
  const pts = lines.flat();
  return {
    x0: Math.min(...pts.map((p) => p[0])), x1: Math.max(...pts.map((p) => p[0])),
    s0: Math.min(...pts.map((p) => p[1])), s1: Math.max(...pts.map((p) => p[1])),
  };
}

const FIXTURES = ['round-50x3-l250-holes', 'rect-60x30x2.5-r5-l400-slots', 'round-42.4x2.6-miter45-both', 'square-30x2-r3-notch', 'square-40x2-sharp-l200-cross-hole'];

for (const name of FIXTURES) {
  test(`${name}: every cut contour is stored on the unrolled wall, inside it, and survives JSON`, async () => {
    const { t } = await tube(name);
    const P = unrolledPerimeter(t);
    for (const f of t.features) {
      const pieces = f.outline ?? [];
      assert.ok(pieces.length > 0 && pieces.every((pc) => pc.length >= 2), `${f.kind} ${f.id} has an outline`);
      for (const [x, s] of pieces.flat()) {
        assert.ok(x >= -EXTENT_TOL_MM && x <= t.length + EXTENT_TOL_MM, `${f.kind} ${f.id}: x ${x} outside 0..${t.length}`);
        assert.ok(s >= 0 && s <= P, `${f.kind} ${f.id}: s ${s} outside 0..${P}`);
      }
      if (f.kind === 'end_cut') {
        // once round the tube: one piece from one seam edge to the other
        assert.equal(pieces.length, 1, `end cut ${f.id} is one piece`);
        const ends = [pieces[0][0][1], pieces[0][pieces[0].length - 1][1]].sort((a, b) => a - b);
        assert.deepEqual(ends, [0, P], `end cut ${f.id} runs from s = 0 to the perimeter`);
      }
      if (f.kind === 'hole' && pieces.length === 1) {
        const b = box(pieces);
        assert.ok(Math.abs((b.x0 + b.x1) / 2 - f.unrolled![0]) <= CENTRE_TOL_MM && Math.abs((b.s0 + b.s1) / 2 - f.unrolled![1]) <= CENTRE_TOL_MM,
          `hole ${f.id}: outline centre [${(b.x0 + b.x1) / 2}, ${(b.s0 + b.s1) / 2}] vs unrolled ${f.unrolled}`);
        assert.ok(Math.abs(b.x1 - b.x0 - f.diameter!) <= SPAN_TOL_MM, `hole ${f.id}: spans ${b.x1 - b.x0} along x, diameter ${f.diameter}`);
      }
    }
    assert.deepEqual(JSON.parse(JSON.stringify(t.features)), t.features);
  });
}

test('a 45 deg miter on a round tube spans its outer diameter along the axis', async () => {
  const { t } = await tube('round-42.4x2.6-miter45-both');
  const miters = t.features.filter((f) => f.kind === 'end_cut');
  assert.equal(miters.length, 2);
  for (const f of miters) {
    assert.ok(Math.abs(f.angleDegrees! - 45) < 0.01);
    const b = box(f.outline!);
    assert.ok(Math.abs(b.x1 - b.x0 - t.outerDiameter!) <= SPAN_TOL_MM, `${f.end} miter spans ${b.x1 - b.x0} mm, OD ${t.outerDiameter}`);
  }
});

test('a hole across the seam is split there into one piece at each edge, not drawn across the wall', async () => {
  const { t } = await tube('square-40x2-sharp-l200-cross-hole');
  const P = unrolledPerimeter(t);
  const seam = t.features.filter((f) => f.kind === 'hole' && f.outline!.length > 1);
  assert.equal(seam.length, 1, 'the cross hole centred on the +Y wall straddles s = 0');
  const [h] = seam;
  assert.equal(h.outline!.length, 2);
  for (const pc of h.outline!) {
    const edge = pc[0][1] < P / 2 ? 0 : P;
    assert.ok(pc.every((q) => Math.abs(q[1] - edge) < P / 4), 'each piece stays at its edge of the drawing');
    assert.equal(pc[0][1], edge, 'a piece starts on the seam');
    assert.equal(pc[pc.length - 1][1], edge, 'a piece ends on the seam');
  }
  const b = box(h.outline!);
  assert.ok(Math.abs(b.x1 - b.x0 - h.diameter!) <= SPAN_TOL_MM, `spans ${b.x1 - b.x0} along x, diameter ${h.diameter}`);
});

test('a notch keeps the runs of its own cut faces: 12 wide around, 15 deep from the far end', async () => {
  const { t } = await tube('square-30x2-r3-notch');
  const notch = t.features.find((f) => f.kind === 'notch')!;
  const b = box(notch.outline!);
  assert.ok(Math.abs(b.s1 - b.s0 - 12) <= SPAN_TOL_MM, `notch width ${b.s1 - b.s0}`);
  assert.ok(Math.abs(b.x1 - t.length) <= EXTENT_TOL_MM && Math.abs(b.x1 - b.x0 - 15) <= SPAN_TOL_MM, `notch x ${b.x0}..${b.x1}`);
});

for (const name of FIXTURES) {
  test(`${name}: the flat image is the unrolled wall, every hole labelled with its Part.holes id`, async () => {
    const { bytes, mp, t } = await tube(name);
    const files = (await productionFilesForModel(bytes, [mp], { kinds: ['image_flat_svg', 'image_flat_png'] }))[mp.part.id];
    assert.deepEqual(Object.keys(files).sort(), ['image_flat_png', 'image_flat_svg']);
    const svg = new TextDecoder().decode(files.image_flat_svg!);
    assert.match(svg, /data-view="flat"/);
    const { labels, refs, paths, dashed } = svgDoc(svg);
    for (const h of mp.part.holes) {
      assert.ok(labels.includes(`H${h.id}`), `hole H${h.id} labelled (labels ${labels})`);
      assert.ok(refs.includes(`hole-${h.id}`), `hole ${h.id} referenced`);
    }
    for (const f of t.features.filter((x) => x.kind !== 'hole' && x.kind !== 'slot')) {
      assert.ok(labels.includes(`F${f.id}`) && refs.includes(`feature-${f.id}`), `${f.kind} F${f.id} labelled (labels ${labels})`);
    }
    // one filled path: the wall bounded by the end contours and the seam, each cut piece a hole in it
    assert.equal(paths.length, 1);
    const cutPieces = t.features.filter((f) => f.kind === 'hole' || f.kind === 'slot' || f.kind === 'cutout').reduce((n, f) => n + f.outline!.length, 0);
    assert.equal(paths[0].split('M').length - 1, 1 + cutPieces, 'subpaths: the wall and every cut piece');
    // where flat walls meet corners: two tangent lines per rounded corner, one per sharp corner, none round
    const corners = t.profile === 'round' ? 0 : t.cornerRadius! > 0 ? 8 : 4;
    assert.equal(cornerPositions(t).length, corners);
    assert.equal(dashed, corners, 'dashed corner lines');
    assert.ok(inkOf(Buffer.from(files.image_flat_png!)) > 800 * 600 * 0.05, 'the PNG shows the wall');
  });
}

test('a cut\'s extent on the unrolled wall is measured round the circle: a window split by the seam keeps its own size', () => {
  const P = 100;
  const rect = (x0: number, x1: number, s0: number, s1: number): Array<[number, number]> => [[x0, s0], [x1, s0], [x1, s1], [x0, s1], [x0, s0]];
  assert.deepEqual(outlineExtent([rect(10, 40, 20, 35)], P), { x: 30, s: 15 });
  // 12 mm wide across s = 0: one piece from 94 to 100, one from 0 to 6
  const split = outlineExtent([rect(10, 40, 94, 100), rect(10, 40, 0, 6)], P)!;
  assert.equal(split.x, 30);
  assert.ok(Math.abs(split.s - 12) < 1e-9, `s extent ${split.s}`);
  assert.equal(outlineExtent([[[0, 0], [1, 1]]], P), null, 'too few points for an outline');
});
