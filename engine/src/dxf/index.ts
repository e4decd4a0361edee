// Flat-pattern DXF (millimetres, $INSUNITS 4) with dxf-writer.
// production_dxf: closed cut contours only, outer and inner on their own layers.
// production_bend_lines_dxf: the same plus bend lines on BEND_UP / BEND_DOWN in a dashed linetype,
// each labelled with its angle and direction.
import { createRequire } from 'node:module';
import Drawing from 'dxf-writer';
import type { Contour, FlatGeometry, Vec2 } from '../geometry/model.ts';
import { alignFlat } from '../sheet/align.ts';
import { arcSweep, contourBounds, segmentEnd, segmentStart } from '../sheet/segments.ts';

export interface FlatDxfOptions {
  bendLines: boolean;
  /** the bend table (header and rows of text, e.g. bendTableRows), written under the flat on its own layer */
  bendTable?: string[][];
}

export const LAYER_OUTER = 'CUT_OUTER';
export const LAYER_INNER = 'CUT_INNER';
export const LAYER_BEND_UP = 'BEND_UP';
export const LAYER_BEND_DOWN = 'BEND_DOWN';
export const LAYER_BEND_TABLE = 'BEND_TABLE';
/** Bend table text height and the gap between it and the flat, mm. */
const TABLE_TEXT_HEIGHT = 3;
const TABLE_GAP = 10;
/** Two contours whose vertices agree to this, mm, are one contour (written once). */
const DEDUP_TOLERANCE = 1e-6;
/** Label text height, mm; shrunk for short bend lines so the label stays on the part. */
const LABEL_HEIGHT = 2.5;

// dxf-writer numbers entity handles from a counter shared by every drawing of the process; started
// afresh for each drawing (built synchronously, so nothing interleaves), the same flat always gives
// the same bytes: files can be compared, cached and diffed.
const handles = createRequire(import.meta.url)('dxf-writer/src/Handle.js') as { seed: number };

export function flatToDxf(flat: FlatGeometry, options: FlatDxfOptions): string {
  const placed = alignFlat(flat);
  handles.seed = 0;
  const d = new Drawing();
  d.setUnits('Millimeters');
  // extents of the cut geometry: the flat's enclosing rectangle, so viewers and nesting read the size
  const box = contourBounds(placed.outer);
  d.header('EXTMIN', [[10, box.min[0]], [20, box.min[1]], [30, 0]]);
  d.header('EXTMAX', [[10, box.max[0]], [20, box.max[1]], [30, 0]]);
  d.addLineType('CENTER', '____ _ ____ _ ', [12.7, -2.54, 2.54, -2.54]);
  d.addLayer(LAYER_OUTER, Drawing.ACI.WHITE, 'CONTINUOUS');
  d.addLayer(LAYER_INNER, Drawing.ACI.RED, 'CONTINUOUS');
  d.setActiveLayer(LAYER_OUTER);
  drawContour(d, placed.outer);
  d.setActiveLayer(LAYER_INNER);
  const seen = new Set<string>();
  for (const c of placed.inner) {
    const key = contourKey(c);
    if (seen.has(key)) continue;
    seen.add(key);
    drawContour(d, c);
  }
  if (options.bendLines) {
    d.addLayer(LAYER_BEND_UP, Drawing.ACI.GREEN, 'DASHED');
    d.addLayer(LAYER_BEND_DOWN, Drawing.ACI.BLUE, 'DASHED');
    for (const b of placed.bendLines) {
      d.setActiveLayer(b.direction === 'up' ? LAYER_BEND_UP : LAYER_BEND_DOWN);
      d.drawLine(b.a[0], b.a[1], b.b[0], b.b[1]);
      const len = Math.hypot(b.b[0] - b.a[0], b.b[1] - b.a[1]);
      const rot = (Math.atan2(b.b[1] - b.a[1], b.b[0] - b.a[0]) * 180) / Math.PI;
      const upright = rot > 90 || rot <= -90 ? rot + 180 : rot;
      const label = `${b.direction.toUpperCase()} ${round(b.angleDegrees, 2)}°`;
      const height = Math.min(LABEL_HEIGHT, len / (label.length + 2));
      d.drawText((b.a[0] + b.b[0]) / 2, (b.a[1] + b.b[1]) / 2, height, upright, label, 'center', 'bottom');
    }
  }
  if (options.bendTable?.length) {
    // columns as wide as their longest cell; the table is outside the cut extents, on a layer that cuts nothing
    d.addLayer(LAYER_BEND_TABLE, Drawing.ACI.CYAN, 'CONTINUOUS');
    d.setActiveLayer(LAYER_BEND_TABLE);
    const rows = options.bendTable;
    const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => (r[c] ?? '').length)));
    const charW = TABLE_TEXT_HEIGHT * 0.8;
    rows.forEach((r, i) => {
      let x = box.min[0];
      const y = box.min[1] - TABLE_GAP - (i + 1) * TABLE_TEXT_HEIGHT * 1.6;
      r.forEach((cell, c) => { d.drawText(x, y, TABLE_TEXT_HEIGHT, 0, cell); x += ((widths[c] ?? cell.length) + 2) * charW; });
    });
  }
  return d.toDxfString();
}

function drawContour(d: Drawing, c: Contour): void {
  if (c.length === 1 && c[0].kind === 'arc' && Math.abs(Math.abs(arcSweep(c[0])) - 2 * Math.PI) < 1e-9) {
    d.drawCircle(c[0].center[0], c[0].center[1], c[0].radius);
    return;
  }
  // LWPOLYLINE vertex bulge = tan(sweep / 4), positive counter-clockwise
  const pts: Array<[number, number, number]> = c.map((s) => {
    const a = segmentStart(s);
    return [a[0], a[1], s.kind === 'arc' ? Math.tan(arcSweep(s) / 4) : 0];
  });
  d.drawPolyline(pts as unknown as Array<[number, number]>, true);
}

function contourKey(c: Contour): string {
  const q = (p: Vec2) => `${Math.round(p[0] / DEDUP_TOLERANCE)},${Math.round(p[1] / DEDUP_TOLERANCE)}`;
  const keys = c.map((s) => q(segmentStart(s)) + (s.kind === 'arc' ? 'a' : 'l') + q(segmentEnd(s)));
  return keys.slice().sort().join('|');
}

function round(x: number, digits: number): number { const f = 10 ** digits; return Math.round(x * f) / f; }
