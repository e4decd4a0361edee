// Scene -> SVG text. Labels are <text> elements with data-ref attributes (hole-3, bend-1) so a
// client (and the tests) can find a feature's label without parsing the drawing; DFM findings carry
// class="finding" and data-code. The PNG is this SVG rendered (png.ts).
import { HIDDEN_LABEL_OPACITY, LABEL_FONT_PX, MARKER_RADIUS_PX, type Scene, type SceneTags } from './scene.ts';

function esc(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}
const f = (v: number): string => (Math.round(v * 100) / 100).toString();
/** Helvetica/Arial in browsers; DejaVu Sans (bundled) where the PNG is rendered. */
/** Text is centred on its y by a shift of this many ems (dominant-baseline is not drawn alike everywhere). */
const BASELINE_EM = 0.35;
const MARKER_FONT_PX = 11;
const FONT_STACK = 'DejaVu Sans, Helvetica, Arial, sans-serif';

function tags(t: SceneTags): string {
  let s = t.cls ? ` class="${esc(t.cls)}"` : '';
  for (const [k, v] of Object.entries(t.data ?? {})) s += ` data-${k}="${esc(v)}"`;
  return s;
}

export function sceneToSvg(scene: Scene): string {
  const out: string[] = [];
  out.push(`<?xml version="1.0" encoding="UTF-8"?>`);
  out.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${scene.width}" height="${scene.height}" viewBox="0 0 ${scene.width} ${scene.height}" data-view="${esc(scene.view)}" font-family="${FONT_STACK}">`);
  out.push(`<title>${esc(scene.title)}</title>`);
  out.push(`<rect width="100%" height="100%" fill="${scene.background}"/>`);
  const polygons = (list: Scene['polygons']): void => {
    for (const p of list) {
      const d = p.loops.filter((l) => l.length >= 2).map((l) => `M${l.map((q) => `${f(q[0])} ${f(q[1])}`).join('L')}Z`).join('');
      if (!d) continue;
      const stroke = p.stroke ? ` stroke="${p.stroke}" stroke-width="${p.strokeWidth}"` : '';
      out.push(`<path${tags(p)} d="${d}" fill="${p.fill}" fill-rule="evenodd"${stroke}/>`);
    }
  };
  const lines = (cls: string, list: Scene['lines']): void => {
    if (!list.length) return;
    out.push(`<g class="${cls}" fill="none" stroke-linecap="round">`);
    for (const l of list) {
      const dash = l.dashed ? ' stroke-dasharray="8 4"' : '';
      out.push(`<line${tags(l)} x1="${f(l.a[0])}" y1="${f(l.a[1])}" x2="${f(l.b[0])}" y2="${f(l.b[1])}" stroke="${l.stroke}" stroke-width="${l.strokeWidth}"${dash}/>`);
    }
    out.push(`</g>`);
  };
  out.push(`<g stroke-linejoin="round">`);
  polygons(scene.polygons);
  out.push(`</g>`);
  lines('bend-lines', scene.lines);
  if (scene.overlays?.length) { out.push(`<g class="overlays" stroke-linejoin="round">`); polygons(scene.overlays); out.push(`</g>`); }
  lines('overlay-lines', scene.overlayLines ?? []);
  lines('leaders', scene.leaders ?? []);
  if (scene.labels.length) {
    out.push(`<g class="labels" font-size="${LABEL_FONT_PX}" font-weight="bold" text-anchor="middle" paint-order="stroke" stroke="#ffffff" stroke-width="3">`);
    for (const l of scene.labels) {
      const hidden = l.hidden ? ` opacity="${HIDDEN_LABEL_OPACITY}" font-style="italic" data-hidden="true"` : '';
      const box = l.box ? ` data-box="${l.box.map(f).join(' ')}"` : '';
      const anchor = l.anchor ? ` data-anchor="${f(l.anchor[0])} ${f(l.anchor[1])}"` : '';
      out.push(`<text x="${f(l.at[0])}" y="${f(l.at[1])}" dy="${f(LABEL_FONT_PX * BASELINE_EM)}" fill="${l.color}" data-ref="${l.ref.kind}-${l.ref.id}"${box}${anchor}${hidden}>${esc(l.text)}</text>`);
    }
    out.push(`</g>`);
  }
  if (scene.texts?.length) {
    out.push(`<g class="texts">`);
    for (const t of scene.texts) {
      const rot = t.rotateDegrees ? ` transform="rotate(${f(t.rotateDegrees)} ${f(t.at[0])} ${f(t.at[1])})"` : '';
      out.push(`<text${tags(t)} x="${f(t.at[0])}" y="${f(t.at[1])}" dy="${f(t.sizePx * BASELINE_EM)}" fill="${t.color}" font-size="${t.sizePx}" text-anchor="${t.align}"${t.bold ? ' font-weight="bold"' : ''}${rot}>${esc(t.text)}</text>`);
    }
    out.push(`</g>`);
  }
  if (scene.markers?.length) {
    out.push(`<g class="markers" font-size="${MARKER_FONT_PX}" font-weight="bold" text-anchor="middle">`);
    for (const m of scene.markers) {
      out.push(`<g${tags({ ...m, data: { no: String(m.no), ...m.data } })}><circle cx="${f(m.at[0])}" cy="${f(m.at[1])}" r="${MARKER_RADIUS_PX}" fill="${m.color}" stroke="#ffffff" stroke-width="1.5"/><text x="${f(m.at[0])}" y="${f(m.at[1])}" dy="${f(MARKER_FONT_PX * BASELINE_EM)}" fill="#ffffff">${m.no}</text></g>`);
    }
    out.push(`</g>`);
  }
  out.push(`</svg>`);
  return out.join('\n');
}
