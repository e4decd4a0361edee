// The nest for the shop (docs/nesting.md "Files"): per sheet a DXF (millimetres) with the sheet's
// boundary, every placed cut contour and each part's id as text on a layer of its own, and an SVG
// picture of the same sheet.
import { createRequire } from 'node:module';
import Drawing from 'dxf-writer';
import { rotateOutline, type Outline, type Point } from './raster.ts';
import type { NestResult } from './nest.ts';

export const NEST_LAYER_SHEET = 'SHEET';
export const NEST_LAYER_CUT = 'CUT';
export const NEST_LAYER_IDS = 'PART_IDS';
/** Part id text height, mm: at most this, smaller on a small part. */
const ID_TEXT_HEIGHT_MM = 8;

// the same handle counter reset as the flat DXF (engine/src/dxf/index.ts): the same nest, the same bytes
const handles = createRequire(import.meta.url)('dxf-writer/src/Handle.js') as { seed: number };

interface Placed { id: string; loops: Point[][]; centre: Point; size: number }

function placedOn(result: NestResult, outlines: ReadonlyMap<string, Outline>, sheetIndex: number): Placed[] {
  const sheet = result.sheets[sheetIndex];
  if (!sheet) throw new RangeError(`the nest has no sheet ${sheetIndex}`);
  return sheet.placements.map((p) => {
    const o = outlines.get(p.id);
    if (!o) throw new RangeError(`no outline for part ${p.id}`);
    const turned = rotateOutline(o, p.rotation_deg);
    const t = (l: readonly Point[]): Point[] => l.map(([x, y]) => [x + p.x_mm, y + p.y_mm] as Point);
    const loops = [t(turned.outer), ...turned.holes.map(t)];
    const xs = loops[0].map((q) => q[0]), ys = loops[0].map((q) => q[1]);
    const [x0, x1, y0, y1] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
    return { id: p.id, loops, centre: [(x0 + x1) / 2, (y0 + y1) / 2] as Point, size: Math.min(x1 - x0, y1 - y0) };
  });
}

/** Sheet `sheetIndex` of the nest as DXF text: SHEET, CUT and PART_IDS layers, mm. */
export function nestSheetDxf(result: NestResult, outlines: ReadonlyMap<string, Outline>, sheetIndex: number): string {
  const placed = placedOn(result, outlines, sheetIndex);
  handles.seed = 0;
  const d = new Drawing();
  d.setUnits('Millimeters');
  const { length_mm: L, width_mm: W } = result.sheet;
  d.header('EXTMIN', [[10, 0], [20, 0], [30, 0]]);
  d.header('EXTMAX', [[10, L], [20, W], [30, 0]]);
  d.addLayer(NEST_LAYER_SHEET, Drawing.ACI.CYAN, 'CONTINUOUS');
  d.addLayer(NEST_LAYER_CUT, Drawing.ACI.WHITE, 'CONTINUOUS');
  d.addLayer(NEST_LAYER_IDS, Drawing.ACI.YELLOW, 'CONTINUOUS');
  d.setActiveLayer(NEST_LAYER_SHEET);
  d.drawPolyline([[0, 0], [L, 0], [L, W], [0, W]], true);
  d.setActiveLayer(NEST_LAYER_CUT);
  for (const p of placed) for (const l of p.loops) d.drawPolyline(l.map(([x, y]) => [x, y] as [number, number]), true);
  d.setActiveLayer(NEST_LAYER_IDS);
  for (const p of placed) d.drawText(p.centre[0], p.centre[1], Math.min(ID_TEXT_HEIGHT_MM, Math.max(1, p.size / 4)), 0, p.id, 'center', 'middle');
  return d.toDxfString();
}

const esc = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const n2 = (x: number): string => String(Math.round(x * 100) / 100);

/** Sheet `sheetIndex` of the nest as an SVG picture, `widthPx` wide (y up, as on the machine). */
export function nestSheetSvg(result: NestResult, outlines: ReadonlyMap<string, Outline>, sheetIndex: number, widthPx = 800): string {
  const placed = placedOn(result, outlines, sheetIndex);
  const { length_mm: L, width_mm: W } = result.sheet;
  const heightPx = Math.round((widthPx * W) / L);
  const paths = placed.map((p) => `<path d="${p.loops.map((l) => `M${l.map(([x, y]) => `${n2(x)} ${n2(W - y)}`).join('L')}Z`).join('')}"/>`).join('');
  const labels = placed.map((p) => `<text x="${n2(p.centre[0])}" y="${n2(W - p.centre[1])}" font-size="${n2(Math.min(ID_TEXT_HEIGHT_MM, Math.max(1, p.size / 4)))}">${esc(p.id)}</text>`).join('');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${widthPx}" height="${heightPx}" viewBox="0 0 ${n2(L)} ${n2(W)}">`
    + `<rect width="${n2(L)}" height="${n2(W)}" fill="#eef1f4" stroke="#5b6b7b" stroke-width="1"/>`
    + `<g fill="#7fa7d4" fill-rule="evenodd" stroke="#1f3b5b" stroke-width="0.5">${paths}</g>`
    + `<g fill="#10202f" text-anchor="middle" dominant-baseline="middle" font-family="sans-serif">${labels}</g></svg>`;
}
