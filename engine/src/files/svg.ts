// Scene -> SVG text. Labels are <text> elements with data-ref attributes (hole-3, bend-1) so a
// client (and the tests) can find a feature's label without parsing the drawing.
import { HIDDEN_LABEL_OPACITY, type Scene } from './scene.ts';

function esc(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}
const f = (v: number): string => (Math.round(v * 100) / 100).toString();

const LABEL_FONT_PX = 13;

export function sceneToSvg(scene: Scene): string {
  const out: string[] = [];
  out.push(`<?xml version="1.0" encoding="UTF-8"?>`);
  out.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${scene.width}" height="${scene.height}" viewBox="0 0 ${scene.width} ${scene.height}" data-view="${esc(scene.view)}">`);
  out.push(`<title>${esc(scene.title)}</title>`);
  out.push(`<rect width="100%" height="100%" fill="${scene.background}"/>`);
  out.push(`<g stroke-linejoin="round">`);
  for (const p of scene.polygons) {
    const d = p.loops.filter((l) => l.length >= 2).map((l) => `M${l.map((q) => `${f(q[0])} ${f(q[1])}`).join('L')}Z`).join('');
    if (!d) continue;
    const stroke = p.stroke ? ` stroke="${p.stroke}" stroke-width="${p.strokeWidth}"` : '';
    out.push(`<path d="${d}" fill="${p.fill}" fill-rule="evenodd"${stroke}/>`);
  }
  out.push(`</g>`);
  if (scene.lines.length) {
    out.push(`<g class="bend-lines" fill="none">`);
    for (const l of scene.lines) {
      const dash = l.dashed ? ' stroke-dasharray="8 4"' : '';
      out.push(`<line x1="${f(l.a[0])}" y1="${f(l.a[1])}" x2="${f(l.b[0])}" y2="${f(l.b[1])}" stroke="${l.stroke}" stroke-width="${l.strokeWidth}"${dash}/>`);
    }
    out.push(`</g>`);
  }
  if (scene.labels.length) {
    out.push(`<g class="labels" font-family="Helvetica, Arial, sans-serif" font-size="${LABEL_FONT_PX}" font-weight="bold" text-anchor="middle" dominant-baseline="central" paint-order="stroke" stroke="#ffffff" stroke-width="3">`);
    for (const l of scene.labels) {
      const hidden = l.hidden ? ` opacity="${HIDDEN_LABEL_OPACITY}" data-hidden="true"` : '';
      out.push(`<text x="${f(l.at[0])}" y="${f(l.at[1])}" fill="${l.color}" data-ref="${l.ref.kind}-${l.ref.id}"${hidden}>${esc(l.text)}</text>`);
    }
    out.push(`</g>`);
  }
  out.push(`</svg>`);
  return out.join('\n');
}
