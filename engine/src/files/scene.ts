// A 2D drawing of one view of a part, in pixels (y down), shared by the SVG writer and the PNG
// rasteriser so both images show exactly the same thing.
import type { Vec2 } from '../geometry/model.ts';

/** class and data-* attributes of an element in the SVG (how clients and tests find a finding) */
export interface SceneTags { cls?: string; data?: Record<string, string> }
export interface ScenePolygon extends SceneTags { loops: Vec2[][]; fill: string; stroke: string | null; strokeWidth: number }
export interface SceneLine extends SceneTags { a: Vec2; b: Vec2; stroke: string; strokeWidth: number; dashed: boolean }
export interface SceneLabel {
  /** centre of the label's text, px; layoutLabels() moves it off its feature */
  at: Vec2; text: string; color: string;
  /** the feature the label names, e.g. hole 3 */
  ref: { kind: 'hole' | 'bend' | 'feature'; id: number };
  /** the feature is behind the part in this view: drawn italic and lighter, never hidden */
  hidden?: boolean;
  /** the feature's point the label names, px (set by layoutLabels from `at`) */
  anchor?: Vec2;
  /** radius around the anchor the label keeps clear of (a hole's radius on screen), px */
  clearPx?: number;
  /** half width and height of the feature's box around the anchor (a slot), px; wins over clearPx */
  keepOut?: [number, number];
  /** the feature's own cut contour, px (a hole's loop on the flat view): what a DFM finding on it highlights */
  outline?: Vec2[];
  /** the text box layoutLabels placed, px [x, y, width, height] */
  box?: [number, number, number, number];
}
/** A numbered finding marker (DFM images): a filled disc with the finding's number. */
export interface SceneMarker extends SceneTags { at: Vec2; no: number; color: string; anchor?: Vec2; clearPx?: number; keepOut?: [number, number] }
/** Free text: dimensions, legend lines, notes. */
export interface SceneText extends SceneTags { at: Vec2; text: string; color: string; sizePx: number; align: 'start' | 'middle' | 'end'; bold?: boolean; rotateDegrees?: number }

/** Opacity of a label whose feature is behind the part in the view. */
export const HIDDEN_LABEL_OPACITY = 0.75;

export interface Scene {
  view: string;
  width: number;
  height: number;
  background: string;
  /** painted in order: later covers earlier */
  polygons: ScenePolygon[];
  lines: SceneLine[];
  labels: SceneLabel[];
  title: string;
  /** drawn over the part and its lines (DFM findings) */
  overlays?: ScenePolygon[];
  overlayLines?: SceneLine[];
  /** leader lines from features to their moved labels and markers (layoutLabels) */
  leaders?: SceneLine[];
  texts?: SceneText[];
  markers?: SceneMarker[];
  /** model -> pixel mapping of the drawing, for overlays: flat (mm, flat frame) or formed (mm, normalized frame) */
  toPx?: { flat?: (p: Vec2) => Vec2; formed?: (p: [number, number, number]) => Vec2 };
}

/** Maps model coordinates (mm, y up) into a width x height pixel box with a margin, keeping proportions. */
/** Pixels per millimetre of a model -> pixel mapping that scales uniformly (fitTransform's). */
export function pxPerMm(toPx: (p: Vec2) => Vec2): number {
  const o = toPx([0, 0]), x = toPx([1, 0]);
  return Math.hypot(x[0] - o[0], x[1] - o[1]);
}

export function fitTransform(points: Iterable<Vec2>, width: number, height: number, marginPx: number): (p: Vec2) => Vec2 {
  let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
  for (const p of points) {
    if (p[0] < minX) minX = p[0]; if (p[0] > maxX) maxX = p[0];
    if (p[1] < minY) minY = p[1]; if (p[1] > maxY) maxY = p[1];
  }
  if (!Number.isFinite(minX)) { minX = minY = 0; maxX = maxY = 1; }
  const spanX = Math.max(maxX - minX, 1e-6), spanY = Math.max(maxY - minY, 1e-6);
  const scale = Math.min((width - 2 * marginPx) / spanX, (height - 2 * marginPx) / spanY);
  const ox = (width - scale * spanX) / 2, oy = (height - scale * spanY) / 2;
  return (p) => [ox + (p[0] - minX) * scale, height - (oy + (p[1] - minY) * scale)];
}

export function shade(base: [number, number, number], intensity: number): string {
  const k = Math.max(0, Math.min(1, intensity));
  const c = base.map((v) => Math.round(Math.max(0, Math.min(255, v * k))));
  return `#${c.map((v) => v.toString(16).padStart(2, '0')).join('')}`;
}

/** Radius of a numbered finding marker, px. */
export const MARKER_RADIUS_PX = 9;
/** Label text size, px. */
export const LABEL_FONT_PX = 13;
/** Average advance of a DejaVu Sans character, in ems (bold is wider): text boxes are estimated, not measured. */
const CHAR_EM = 0.64, BOLD_CHAR_EM = 0.72;

/** Estimated width of a line of text, px (DejaVu Sans, the font the PNG is rendered with). */
export function textWidthPx(text: string, sizePx: number, bold = false): number {
  return [...text].length * sizePx * (bold ? BOLD_CHAR_EM : CHAR_EM);
}

/** A box in pixels: [x, y, width, height]. */
export type Vec2Box = [number, number, number, number];
