// The DFM image's drawing of one analyzed part (the served image, dfmImage, and the report's
// image_svg when dfm() is given the analyzed model): the part's own view (the real flat with every
// cut-out as cut, or a formed view; a part with no flat shows its iso view) with each finding drawn
// where it is: the hole's real contour or the bend line highlighted in the finding's colour and a
// numbered marker beside it, and (unless turned off) a legend under the drawing listing each number
// with its severity, code and message.
import type { AnalyzedPart } from '../analyze.ts';
import type { Vec2 } from '../geometry/model.ts';
import { layoutLabels } from '../files/labels.ts';
import { MARKER_RADIUS_PX, pxPerMm, type Scene, type ScenePolygon, type SceneText } from '../files/scene.ts';
import { sceneToSvg } from '../files/svg.ts';
import { flatView, formatMm, formedView, hasUnrolledWall, tubeFlatView, type ViewName } from '../files/views.ts';
import { effectiveSelections, parseConfiguration, type PartConfiguration } from './configuration.ts';

export interface SvgIssue { code: string; message: string; severity: 'blocking' | 'warning'; accepted: boolean; hole_id: number | null; bend_id: number | null; details?: Record<string, unknown> }

export interface DfmDrawingOptions {
  view: ViewName;
  /** px; the drawing is 3:4 of it, the legend below adds what it needs */
  width?: number;
  /** the report's findings of this part, in the report's order (numbered from 1) */
  issues: SvgIssue[];
  /** the report's configuration (operations on holes are named on the drawing) */
  configuration?: unknown;
  /** the legend under the drawing (default true): false for a page that lists the findings itself
   * beside the image, which then carries only the numbered markers */
  legend?: boolean;
}

const COLORS = { blocking: '#d32f2f', warning: '#ef6c00', accepted: '#2e7d32', text: '#263238' } as const;
const DRAWING_ASPECT = 0.75;
/** Highlight stroke width, px. */
const HIGHLIGHT_PX = 3;
/** Ring around a feature that has no contour in the view (formed views, blind work), px beyond its radius. */
const RING_GAP_PX = 3;
/** Smallest ring radius, px (a tiny feature still gets a visible ring). */
const MIN_RING_PX = 6;
const LEGEND_FONT_PX = 12;
const LEGEND_LINE_PX = 18;
const LEGEND_PAD_PX = 16;
/** Average character width of the legend font, px (wrap width). */
const LEGEND_CHAR_PX = LEGEND_FONT_PX * 0.6;

const n = (x: number): string => String(Number(x.toFixed(2)));

function operationLabels(cfg: PartConfiguration | null): Map<number, string[]> {
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
function wrap(text: string, width: number): string[] {
  const out: string[] = [];
  let cur = '';
  for (const word of text.split(' ')) {
    if (cur && cur.length + 1 + word.length > width) { out.push(cur); cur = word; } else cur = cur ? `${cur} ${word}` : word;
  }
  if (cur) out.push(cur);
  return out;
}

function partConfiguration(configuration: unknown, partId: string): PartConfiguration | null {
  if (configuration === undefined || configuration === null) return null;
  try { return effectiveSelections(parseConfiguration(configuration), partId).part; } catch { return null; }
}

function ring(c: Vec2, r: number): Vec2[] {
  return Array.from({ length: 32 }, (_, k) => [c[0] + r * Math.cos((k * Math.PI) / 16), c[1] + r * Math.sin((k * Math.PI) / 16)] as Vec2);
}

/** The base view of the part: the one asked for, or its iso view when it has no flat to draw on
 * (a refused part, a tube without an unrolled wall). */
function baseScene(mp: AnalyzedPart, view: ViewName, width: number, height: number): { scene: Scene; view: ViewName } {
  const a = mp.analysis;
  if (view === 'flat') {
    if (a.kind === 'sheet') return { scene: flatView(a.flat, a, mp.part.name, { width, height }), view };
    if (a.kind === 'tube' && hasUnrolledWall(a)) return { scene: tubeFlatView(a, mp.part.name, { width, height }), view };
  }
  const formed = view === 'flat' ? 'iso' : view;
  return { scene: formedView({ solid: mp.solid, frame: mp.frame, analysis: a.kind === 'refused' ? null : a }, formed, { width, height }), view: formed };
}

export function dfmImageSvg(mp: AnalyzedPart, options: DfmDrawingOptions): string {
  const part = mp.part;
  const cfg = partConfiguration(options.configuration, part.id);
  const width = options.width ?? 800, height = Math.round(width * DRAWING_ASPECT);
  const { scene, view } = baseScene(mp, options.view, width, height);
  scene.title = `DFM ${part.name} (${part.id}) - ${view}`;

  const numbered = options.issues.map((iss, i) => ({ ...iss, no: i + 1 }));
  const color = (i: SvgIssue): string => (i.accepted ? COLORS.accepted : COLORS[i.severity]);
  const overlays: ScenePolygon[] = (scene.overlays ??= []);
  const overlayLines = (scene.overlayLines ??= []);
  const markers = (scene.markers ??= []);
  const flat = scene.toPx?.flat, formed = scene.toPx?.formed;
  const scalePx = flat ? pxPerMm(flat) : 0;
  const labelOf = (kind: 'hole' | 'bend' | 'feature', id: number) => scene.labels.find((l) => l.ref.kind === kind && l.ref.id === id) ?? null;
  const a = mp.analysis;

  // operations configured on holes are named on their labels (tap M5, csk 10/90 (top), ...)
  const ops = operationLabels(cfg);
  for (const l of scene.labels) if (l.ref.kind === 'hole' && ops.has(l.ref.id)) l.text = `${l.text} ${ops.get(l.ref.id)!.join(', ')}`;

  const unplaced: number[] = [];
  for (const i of numbered) {
    const c = color(i);
    const tags = { cls: 'finding', data: { code: i.code, no: String(i.no), severity: i.accepted ? 'accepted' : i.severity } };
    const outline = (loops: Vec2[][], extra: Record<string, string>): void => { overlays.push({ loops, fill: 'none', stroke: c, strokeWidth: HIGHLIGHT_PX, ...tags, data: { ...tags.data, ...extra } }); };
    const mark = (anchor: Vec2, clearPx: number): void => { markers.push({ at: anchor, anchor, no: i.no, color: c, clearPx, ...tags }); };
    const featureId = typeof i.details?.feature_id === 'number' ? i.details.feature_id : null;
    const blind = featureId !== null ? (part.blind_features ?? []).find((f) => f.id === featureId) ?? null : null;
    if (blind) {
      const at = flat ? flat(blind.center_mm) : formed ? formed(blind.position_mm) : null;
      if (!at) { unplaced.push(i.no); continue; }
      const r = Math.max(MIN_RING_PX, scalePx * (blind.length_mm === null ? blind.size_mm : Math.min(blind.size_mm, blind.length_mm)) / 2 + RING_GAP_PX);
      outline([ring(at, r)], { 'feature-id': String(blind.id) });
      mark(at, r);
    } else if (i.hole_id !== null) {
      // the hole's own cut contour, as the flat view found it (the smallest inner loop around its centre)
      const loop = labelOf('hole', i.hole_id)?.outline;
      const tubeCut = a.kind === 'tube' && flat ? a.features.find((f) => f.id === i.hole_id)?.outline ?? null : null;
      const label = labelOf('hole', i.hole_id) ?? labelOf('feature', i.hole_id);
      if (loop) {
        outline([loop], { 'hole-id': String(i.hole_id) });
      } else if (tubeCut && tubeCut.length && flat) {
        outline(tubeCut.map((pc) => pc.map(flat)), { 'hole-id': String(i.hole_id) });
      } else if (label) {
        outline([ring(label.at, Math.max(MIN_RING_PX, (label.clearPx ?? 0) + RING_GAP_PX))], { 'hole-id': String(i.hole_id) });
      }
      if (label) markers.push({ at: label.at, anchor: label.at, no: i.no, color: c, clearPx: Math.max(MIN_RING_PX, (label.clearPx ?? 0) + RING_GAP_PX), ...(label.keepOut ? { keepOut: label.keepOut } : {}), ...tags });
      else unplaced.push(i.no);
    } else if (i.bend_id !== null) {
      const line = view === 'flat' ? scene.lines.find((l) => l.data?.['bend-id'] === String(i.bend_id)) : undefined;
      const label = labelOf('bend', i.bend_id);
      if (line) overlayLines.push({ a: line.a, b: line.b, stroke: c, strokeWidth: HIGHLIGHT_PX + 1, dashed: false, ...tags, data: { ...tags.data, 'bend-id': String(i.bend_id) } });
      else if (label) outline([ring(label.at, MIN_RING_PX + RING_GAP_PX)], { 'bend-id': String(i.bend_id) });
      if (label) mark(label.at, line ? 0 : MIN_RING_PX + RING_GAP_PX); else unplaced.push(i.no);
    } else {
      unplaced.push(i.no);
    }
  }
  layoutLabels(scene, { bounds: [2, 2, width - 4, height - 4] });
  if (options.legend === false) return sceneToSvg(scene);

  // the legend, under the drawing: the part, then each finding's number, severity, code and message
  const texts: SceneText[] = (scene.texts ??= []);
  const chars = Math.floor((width - 2 * LEGEND_PAD_PX - 2 * MARKER_RADIUS_PX - 8) / LEGEND_CHAR_PX);
  let y = height + LEGEND_LINE_PX / 2;
  const line = (text: string, fill: string, x = LEGEND_PAD_PX, extra: Partial<SceneText> = {}): void => {
    texts.push({ at: [x, y], text, color: fill, sizePx: LEGEND_FONT_PX, align: 'start', cls: 'legend', ...extra });
    y += LEGEND_LINE_PX;
  };
  scene.lines.push({ a: [LEGEND_PAD_PX, height], b: [width - LEGEND_PAD_PX, height], stroke: '#b0bec5', strokeWidth: 1, dashed: false });
  y += 4;
  const fp = part.flat_pattern, tube = part.tube;
  line(`${part.name}: ${fp ? `flat ${formatMm(fp.length_mm)} x ${formatMm(fp.width_mm)} mm` : tube ? `${tube.profile} tube, length ${formatMm(tube.length_mm)} mm` : 'no flat pattern'}` +
    (part.detected_thickness_mm !== null ? `, t ${formatMm(part.detected_thickness_mm)} mm` : '') + `, ${view} view${view === options.view ? '' : ` (no ${options.view} view)`}`, COLORS.text, LEGEND_PAD_PX, { bold: true });
  if (numbered.length === 0) line('No findings.', COLORS.accepted);
  for (const i of numbered) {
    const c = color(i);
    const where = unplaced.includes(i.no) ? ' (whole part)' : '';
    const rows = wrap(`[${i.accepted ? 'accepted' : i.severity}] ${i.code}${where}: ${i.message}`, chars);
    markers.push({ at: [LEGEND_PAD_PX + MARKER_RADIUS_PX, y], no: i.no, color: c, cls: 'legend-marker', data: { code: i.code, no: String(i.no) } });
    rows.forEach((row) => line(row, c, LEGEND_PAD_PX + 2 * MARKER_RADIUS_PX + 8, { data: { no: String(i.no) } }));
  }
  scene.height = Math.ceil(y + LEGEND_PAD_PX / 2);
  return sceneToSvg(scene);
}
