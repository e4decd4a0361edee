// The DFM report's inline image of one part, from the Part alone (the report's `image_svg`, the
// CLI's --images): its flat's enclosing rectangle, every hole at its centre, each configured hole
// operation labelled, every finding numbered on its hole (or listed for the part), bends in the
// legend. The served DFM image draws on the part's real geometry instead (image.ts).
import type { Part } from '../contract.ts';
import type { PartConfiguration } from './configuration.ts';

export interface SvgIssue { code: string; message: string; severity: 'blocking' | 'warning'; accepted: boolean; hole_id: number | null; bend_id: number | null; details?: Record<string, unknown> }

const WIDTH_PX = 800;
const PAD_PX = 40;
const LINE_PX = 18;
const MAX_DRAW_HEIGHT_PX = 600;
const COLORS = { blocking: '#d32f2f', warning: '#f57c00', accepted: '#388e3c', op: '#1565c0', outline: '#263238', hole: '#455a64', bend: '#6a1b9a' };
/** Legend lines wrap at this many characters (12 px sans-serif in 800 px). */
const LEGEND_WRAP_CHARS = 112;

const esc = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const n = (x: number): string => String(Number(x.toFixed(2)));

export function operationLabels(cfg: PartConfiguration | null): Map<number, string[]> {
  const m = new Map<number, string[]>();
  const add = (id: number, s: string): void => { const l = m.get(id) ?? []; l.push(s); m.set(id, l); };
  if (!cfg) return m;
  for (const t of cfg.taps) add(t.hole_id, `tap ${t.tap_id.replace(/^tap_/, '')}`);
  for (const s of cfg.studs) add(s.hole_id, `stud ${s.stud_id.replace(/^std_/, '')} (${s.side})`);
  for (const s of cfg.nuts) add(s.hole_id, `nut ${s.nut_id.replace(/^nut_/, '')} (${s.side})`);
  for (const s of cfg.standoffs) add(s.hole_id, `standoff ${s.standoff_id.replace(/^sto_/, '')} (${s.side})`);
  for (const c of cfg.countersinks) add(c.hole_id, `csk ${n(c.outer_diameter_mm)}/${c.angle} (${c.side})`);
  return m;
}

/** Words of `text` in lines of at most `width` characters (a longer word has a line of its own). */
export function wrap(text: string, width: number): string[] {
  const out: string[] = [];
  let cur = '';
  for (const word of text.split(' ')) {
    if (cur && cur.length + 1 + word.length > width) { out.push(cur); cur = word; } else cur = cur ? `${cur} ${word}` : word;
  }
  if (cur) out.push(cur);
  return out;
}

export function annotatedPartSvg(part: Part, issues: SvgIssue[], cfg: PartConfiguration | null): string {
  const fp = part.flat_pattern;
  const tube = part.tube;
  // drawing extent, mm: the flat rectangle, or the tube's side view, or the formed footprint
  let L = fp?.length_mm ?? tube?.length_mm ?? part.formed_dimensions.length_mm;
  let W = fp?.width_mm ?? (tube ? (tube.outer_height_mm ?? tube.outer_diameter_mm ?? 0) : part.formed_dimensions.width_mm);
  // tube analysis gives hole sizes without positions (centre [0, 0]): those are listed, not drawn
  const unplaced = (h: Part['holes'][number]): boolean => tube !== null && h.center_mm[0] === 0 && h.center_mm[1] === 0;
  const placed = part.holes.filter((h) => !unplaced(h));
  let minX = 0, minY = 0;
  for (const h of placed) {
    const r = h.diameter_mm / 2;
    minX = Math.min(minX, h.center_mm[0] - r); minY = Math.min(minY, h.center_mm[1] - r);
    L = Math.max(L, h.center_mm[0] + r); W = Math.max(W, h.center_mm[1] + r);
  }
  // blind features are drawn where they are, like holes (a tube's on its unrolled wall)
  for (const f of part.blind_features ?? []) {
    const r = (f.length_mm === null ? f.size_mm : Math.min(f.size_mm, f.length_mm)) / 2;
    minX = Math.min(minX, f.center_mm[0] - r); minY = Math.min(minY, f.center_mm[1] - r);
    L = Math.max(L, f.center_mm[0] + r); W = Math.max(W, f.center_mm[1] + r);
  }
  const spanX = Math.max(L - minX, 1), spanY = Math.max(W - minY, 1);
  const scale = Math.min((WIDTH_PX - 2 * PAD_PX) / spanX, MAX_DRAW_HEIGHT_PX / spanY);
  const drawH = spanY * scale;
  const X = (x: number): number => PAD_PX + (x - minX) * scale;
  const Y = (y: number): number => PAD_PX + drawH - (y - minY) * scale; // flat frame y up, SVG y down

  const numbered = issues.map((iss, i) => ({ ...iss, no: i + 1 }));
  const color = (i: SvgIssue): string => (i.accepted ? COLORS.accepted : COLORS[i.severity]);
  const legend: string[] = [];
  legend.push(`${part.name}: ${fp ? `flat ${n(fp.length_mm)} x ${n(fp.width_mm)} mm` : tube ? `${tube.profile} tube, length ${n(tube.length_mm)} mm` : 'no flat pattern'}` +
    (part.detected_thickness_mm !== null ? `, t ${n(part.detected_thickness_mm)} mm` : ''));
  for (const h of part.holes.filter(unplaced)) legend.push(`hole ${h.id}: ${h.shape} ${n(h.diameter_mm)} mm (position not drawn)`);
  for (const b of part.bends) legend.push(`bend ${b.id}: ${n(b.angle_degrees)} deg ${b.direction}, R ${n(b.radius_mm)} mm, length ${n(b.length_mm)} mm`);
  for (const i of numbered) legend.push(`${i.no}. [${i.accepted ? 'accepted' : i.severity}] ${i.code}: ${i.message}`);
  if (numbered.length === 0) legend.push('No findings.');

  const lines = legend.flatMap((text) => wrap(text, LEGEND_WRAP_CHARS).map((l, k) => ({ text: l, issue: k === 0 ? numbered.find((i) => text.startsWith(`${i.no}. [`)) ?? null : null, of: text })));
  const height = Math.ceil(PAD_PX * 2 + drawH + lines.length * LINE_PX + 10);
  const out: string[] = [];
  out.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH_PX}" height="${height}" viewBox="0 0 ${WIDTH_PX} ${height}" font-family="sans-serif" font-size="12">`);
  out.push(`<title>${esc(`DFM ${part.name} (${part.id})`)}</title>`);
  out.push(`<rect x="0" y="0" width="${WIDTH_PX}" height="${height}" fill="#ffffff"/>`);
  if (fp || tube) {
    const w = (fp?.length_mm ?? tube!.length_mm), h = (fp?.width_mm ?? (tube!.outer_height_mm ?? tube!.outer_diameter_mm ?? 0));
    out.push(`<rect class="outline" x="${n(X(0))}" y="${n(Y(h))}" width="${n(w * scale)}" height="${n(h * scale)}" fill="#eceff1" stroke="${COLORS.outline}" stroke-width="1.5"/>`);
  }
  for (const b of part.bends) {
    if (!b.line_mm) continue;
    const [[x1, y1], [x2, y2]] = b.line_mm;
    out.push(`<line class="bend" data-bend-id="${b.id}" x1="${n(X(x1))}" y1="${n(Y(y1))}" x2="${n(X(x2))}" y2="${n(Y(y2))}" stroke="${COLORS.bend}" stroke-width="1.2" stroke-dasharray="8 4"/>`);
    out.push(`<text x="${n((X(x1) + X(x2)) / 2 + 4)}" y="${n((Y(y1) + Y(y2)) / 2 - 4)}" fill="${COLORS.bend}" font-size="11">${esc(`bend ${b.id} ${b.direction}`)}</text>`);
    for (const i of numbered.filter((x) => x.bend_id === b.id && x.hole_id === null)) {
      out.push(`<line class="finding" data-code="${esc(i.code)}" x1="${n(X(x1))}" y1="${n(Y(y1))}" x2="${n(X(x2))}" y2="${n(Y(y2))}" stroke="${color(i)}" stroke-width="3" opacity="0.6"/>`);
    }
  }
  const ops = operationLabels(cfg);
  for (const h of placed) {
    const cx = X(h.center_mm[0]), cy = Y(h.center_mm[1]);
    const r = Math.max((h.diameter_mm / 2) * scale, 2);
    const hasOp = ops.has(h.id);
    out.push(`<circle class="hole" data-hole-id="${h.id}" cx="${n(cx)}" cy="${n(cy)}" r="${n(r)}" fill="${hasOp ? '#bbdefb' : '#ffffff'}" stroke="${hasOp ? COLORS.op : COLORS.hole}" stroke-width="1.2"/>`);
    if (h.countersink) out.push(`<circle cx="${n(cx)}" cy="${n(cy)}" r="${n(Math.max((h.countersink.outer_diameter_mm / 2) * scale, r + 1))}" fill="none" stroke="${COLORS.hole}" stroke-dasharray="3 2"/>`);
    const labels = ops.get(h.id) ?? [];
    labels.forEach((text, k) => out.push(`<text class="operation" data-hole-id="${h.id}" x="${n(cx + r + 4)}" y="${n(cy + 4 + k * 13)}" fill="${COLORS.op}">${esc(`#${h.id} ${text}`)}</text>`));
    const here = numbered.filter((i) => i.hole_id === h.id);
    here.forEach((i, k) => {
      const bx = cx - r - 10 - k * 18, by = cy - r - 8;
      out.push(`<circle class="finding" data-code="${esc(i.code)}" cx="${n(cx)}" cy="${n(cy)}" r="${n(r + 4 + k * 3)}" fill="none" stroke="${color(i)}" stroke-width="2"/>`);
      out.push(`<circle cx="${n(bx)}" cy="${n(by)}" r="8" fill="${color(i)}"/><text x="${n(bx)}" y="${n(by + 4)}" fill="#fff" text-anchor="middle" font-size="10">${i.no}</text>`);
    });
  }
  // blind features (counterbores, pockets, chamfers...): a dashed marker at the feature, numbered by its finding
  for (const f of part.blind_features ?? []) {
    const [x, y] = f.center_mm;
    const cx = X(x), cy = Y(y), r = Math.max(((f.length_mm === null ? f.size_mm : Math.min(f.size_mm, f.length_mm)) / 2) * scale + 4, 6);
    const mine = numbered.filter((i) => i.details?.feature_id === f.id && i.hole_id === f.hole_id);
    const c = mine[0] ? color(mine[0]) : COLORS.hole;
    out.push(`<circle class="blind-feature" data-feature-id="${f.id}" data-kind="${f.kind}" cx="${n(cx)}" cy="${n(cy)}" r="${n(r)}" fill="none" stroke="${c}" stroke-width="2" stroke-dasharray="4 3"/>`);
    mine.forEach((i, k) => {
      const bx = cx + r + 10 + k * 18, by = cy - r - 8;
      out.push(`<circle class="finding" data-code="${esc(i.code)}" cx="${n(bx)}" cy="${n(by)}" r="8" fill="${color(i)}"/><text x="${n(bx)}" y="${n(by + 4)}" fill="#fff" text-anchor="middle" font-size="10">${i.no}</text>`);
    });
  }
  const y0 = PAD_PX * 2 + drawH;
  for (const [k, line] of lines.entries()) {
    const iss = numbered.find((i) => line.of.startsWith(`${i.no}. [`));
    out.push(`<text class="legend" x="${PAD_PX / 2 + (line.issue || !iss ? 0 : 16)}" y="${n(y0 + k * LINE_PX)}" fill="${iss ? color(iss) : COLORS.outline}">${esc(line.text)}</text>`);
  }
  out.push('</svg>');
  return out.join('\n');
}
