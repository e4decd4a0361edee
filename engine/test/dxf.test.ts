import { test } from 'node:test';
import assert from 'node:assert/strict';
import DxfParser from 'dxf-parser';
import { flatToDxf, LAYER_BEND_DOWN, LAYER_BEND_UP, LAYER_INNER, LAYER_OUTER } from '../src/dxf/index.ts';
import type { Contour, FlatGeometry, Vec2 } from '../src/geometry/model.ts';
import { contourArea, contourLength, transformContour, reverseContour } from '../src/sheet/segments.ts';
import { roundedRectangle } from './files-helpers.ts';

/** 100 x 40 plate with rounded (r 5) corners, one hole d 10, one bend line; rotated 30 degrees and shifted. */
function sampleFlat(): FlatGeometry {
  const r = 5, L = 100, W = 40;
  const outer = roundedRectangle(L, W, r);
  const hole: Contour = [{ kind: 'arc', center: [20, 20], radius: 5, startDegrees: 0, endDegrees: 360, ccw: false }];
  const slot: Contour = reverseContour([
    { kind: 'line', a: [40, 15], b: [60, 15] },
    { kind: 'arc', center: [60, 20], radius: 5, startDegrees: -90, endDegrees: 90, ccw: true },
    { kind: 'line', a: [60, 25], b: [40, 25] },
    { kind: 'arc', center: [40, 20], radius: 5, startDegrees: 90, endDegrees: 270, ccw: true },
  ]);
  const m = { cos: Math.cos(Math.PI / 6), sin: Math.sin(Math.PI / 6), tx: 7, ty: -3 };
  const rot = (p: Vec2): Vec2 => [m.cos * p[0] - m.sin * p[1] + m.tx, m.sin * p[0] + m.cos * p[1] + m.ty];
  return {
    kFactor: 0.42, outer: transformContour(m, outer), inner: [transformContour(m, hole), transformContour(m, slot)],
    bendLines: [{ bendId: 1, a: rot([80, 0]), b: rot([80, W]), direction: 'up', angleDegrees: 90 },
      { bendId: 2, a: rot([30, 0]), b: rot([30, W]), direction: 'down', angleDegrees: 45 }],
    length: L, width: W, area: 0, cutLength: 0, pierceCount: 2,
  };
}

/** dxf-parser drops a layer's linetype (group 6), so read it from the LAYER table records. */
function layerLineType(text: string, layer: string): string | undefined {
  const lines = text.split(/\r?\n/).map((l) => l.trim());
  for (let i = 0; i + 1 < lines.length; i += 2) {
    if (lines[i] === '0' && lines[i + 1] === 'LAYER') {
      let name: string | undefined, ltype: string | undefined;
      for (let j = i + 2; j + 1 < lines.length && lines[j] !== '0'; j += 2) {
        if (lines[j] === '2') name = lines[j + 1];
        if (lines[j] === '6') ltype = lines[j + 1];
      }
      if (name === layer) return ltype;
    }
  }
  return undefined;
}

// dxf-parser's CommonJS build exports the class as module.exports.default under NodeNext typing
const Parser = ((DxfParser as unknown as { default?: unknown }).default ?? DxfParser) as new () => { parseSync(text: string): any };
function parse(text: string) { return new Parser().parseSync(text)!; }

function extents(entities: any[]): { min: Vec2; max: Vec2 } {
  const min: Vec2 = [Infinity, Infinity], max: Vec2 = [-Infinity, -Infinity];
  const grow = (x: number, y: number) => { min[0] = Math.min(min[0], x); min[1] = Math.min(min[1], y); max[0] = Math.max(max[0], x); max[1] = Math.max(max[1], y); };
  for (const e of entities) {
    if (e.type === 'LWPOLYLINE') for (const v of e.vertices) grow(v.x, v.y);
    if (e.type === 'CIRCLE') { grow(e.center.x - e.radius, e.center.y - e.radius); grow(e.center.x + e.radius, e.center.y + e.radius); }
  }
  return { min, max };
}

test('segments: exact area and length of a rounded rectangle with arcs', () => {
  const f = sampleFlat();
  const expectedArea = 100 * 40 - (4 - Math.PI) * 25;
  assert.ok(Math.abs(contourArea(f.outer) - expectedArea) < 1e-9);
  assert.ok(Math.abs(contourLength(f.outer) - (2 * 90 + 2 * 30 + 2 * Math.PI * 5)) < 1e-9);
  assert.ok(Math.abs(contourArea(f.inner[0]) + Math.PI * 25) < 1e-9, 'clockwise hole has negative area');
});

test('production DXF: mm units, closed contours on their layers, flat axis aligned at the origin', () => {
  const doc = parse(flatToDxf(sampleFlat(), { bendLines: false }));
  assert.equal(doc.header['$INSUNITS'], 4);
  const outer = doc.entities.filter((e: any) => e.layer === LAYER_OUTER);
  const inner = doc.entities.filter((e: any) => e.layer === LAYER_INNER);
  assert.equal(outer.length, 1);
  assert.equal(inner.length, 2);
  assert.ok(outer.every((e: any) => e.type === 'LWPOLYLINE' && e.shape === true), 'outer is a closed polyline');
  assert.ok(inner.some((e: any) => e.type === 'CIRCLE'), 'round hole is a circle');
  assert.ok(inner.some((e: any) => e.type === 'LWPOLYLINE' && e.shape === true), 'slot is a closed polyline');
  // the corner arcs touch the rectangle sides at their midpoints, so vertex extents are the flat extents
  const ext = extents(outer);
  assert.ok(Math.abs(ext.min[0]) < 1e-6 && Math.abs(ext.min[1]) < 1e-6, `min ${ext.min}`);
  assert.ok(Math.abs(ext.max[0] - 100) < 1e-6 && Math.abs(ext.max[1] - 40) < 1e-6, `max ${ext.max}`);
  const extMax = doc.header['$EXTMAX'], extMin = doc.header['$EXTMIN'];
  assert.ok(Math.abs(extMin.x) < 1e-6 && Math.abs(extMin.y) < 1e-6, JSON.stringify(extMin));
  assert.ok(Math.abs(extMax.x - 100) < 1e-6 && Math.abs(extMax.y - 40) < 1e-6, JSON.stringify(extMax));
  const bulges = outer[0].vertices.filter((v: any) => v.bulge).map((v: any) => v.bulge);
  assert.equal(bulges.length, 4);
  for (const b of bulges) assert.ok(Math.abs(b - Math.tan(Math.PI / 8)) < 1e-9);
  assert.equal(doc.entities.filter((e: any) => e.layer === LAYER_BEND_UP || e.layer === LAYER_BEND_DOWN).length, 0);
});

test('bend-lines DXF: one dashed line per bend on BEND_UP / BEND_DOWN, labelled', () => {
  const text = flatToDxf(sampleFlat(), { bendLines: true });
  const doc = parse(text);
  const up = doc.entities.filter((e: any) => e.layer === LAYER_BEND_UP && e.type === 'LINE');
  const down = doc.entities.filter((e: any) => e.layer === LAYER_BEND_DOWN && e.type === 'LINE');
  assert.equal(up.length, 1);
  assert.equal(down.length, 1);
  assert.equal(layerLineType(text, LAYER_BEND_UP), 'DASHED');
  assert.equal(layerLineType(text, LAYER_BEND_DOWN), 'DASHED');
  assert.equal(layerLineType(text, LAYER_OUTER), 'CONTINUOUS');
  // bend line at x = 80 of the aligned flat, across the full width
  const [a, b] = up[0].vertices;
  assert.ok(Math.abs(a.x - 80) < 1e-6 && Math.abs(b.x - 80) < 1e-6);
  assert.ok(Math.abs(Math.abs(b.y - a.y) - 40) < 1e-6);
  const texts = doc.entities.filter((e: any) => e.type === 'TEXT' || e.type === 'MTEXT').map((e: any) => e.text);
  assert.ok(texts.includes('UP 90°') && texts.includes('DOWN 45°'), texts.join(','));
});

test('round trip of a real unfolded U channel with slots: closed contours, extents = flat size, one bend line per bend', async () => {
  const { readFileSync } = await import('node:fs');
  const { importStep } = await import('../src/import/index.ts');
  const { buildSolid } = await import('../src/geometry/topology.ts');
  const { recognizeSheet } = await import('../src/sheet/index.ts');
  const [imported] = await importStep(readFileSync(new URL('../../fixtures/sheet/u_t1.5_slots.step', import.meta.url)));
  const r = recognizeSheet(buildSolid(imported, 0));
  assert.equal(r.kind, 'sheet');
  if (r.kind !== 'sheet') return;
  for (const bendLines of [false, true]) {
    const text = flatToDxf(r.flat, { bendLines });
    const doc = parse(text);
    assert.equal(doc.header['$INSUNITS'], 4);
    const cuts = doc.entities.filter((e: any) => e.layer === LAYER_OUTER || e.layer === LAYER_INNER);
    assert.equal(cuts.filter((e: any) => e.layer === LAYER_OUTER).length, 1);
    assert.equal(cuts.filter((e: any) => e.layer === LAYER_INNER).length, r.flat.pierceCount);
    for (const e of cuts) assert.ok(e.type === 'CIRCLE' || (e.type === 'LWPOLYLINE' && e.shape === true), `${e.type} closed`);
    // straight outline: vertex extents are the exact extents
    const ext = extents(cuts.filter((e: any) => e.layer === LAYER_OUTER));
    assert.ok(Math.abs(ext.min[0]) < 1e-6 && Math.abs(ext.min[1]) < 1e-6);
    assert.ok(Math.abs(ext.max[0] - r.flat.length) < 1e-6 && Math.abs(ext.max[1] - r.flat.width) < 1e-6, `${ext.max} vs ${r.flat.length} x ${r.flat.width}`);
    const bends = doc.entities.filter((e: any) => e.type === 'LINE' && (e.layer === LAYER_BEND_UP || e.layer === LAYER_BEND_DOWN));
    assert.equal(bends.length, bendLines ? r.bends.length : 0);
  }
});

test('the same flat gives the same DXF bytes every time, whatever was drawn before', () => {
  const first = flatToDxf(sampleFlat(), { bendLines: true });
  flatToDxf(sampleFlat(), { bendLines: false }); // another drawing in between
  assert.equal(flatToDxf(sampleFlat(), { bendLines: true }), first);
});
