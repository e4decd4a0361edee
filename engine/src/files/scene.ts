// A 2D drawing of one view of a part, in pixels (y down), shared by the SVG writer and the PNG
// rasteriser so both images show exactly the same thing.
import type { Vec2 } from '../geometry/model.ts';

export interface ScenePolygon { loops: Vec2[][]; fill: string; stroke: string | null; strokeWidth: number }
export interface SceneLine { a: Vec2; b: Vec2; stroke: string; strokeWidth: number; dashed: boolean }
export interface SceneLabel {
  at: Vec2; text: string; color: string;
  /** the feature the label names, e.g. hole 3 */
  ref: { kind: 'hole' | 'bend' | 'feature'; id: number };
  /** the feature is behind the part in this view: drawn faded */
  hidden?: boolean;
}

/** Opacity of a label whose feature is behind the part in the view (SVG; the PNG blends to white). */
export const HIDDEN_LABEL_OPACITY = 0.35;

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
}

/** Maps model coordinates (mm, y up) into a width x height pixel box with a margin, keeping proportions. */
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
