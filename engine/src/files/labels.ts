// Label layout: every label and finding marker is moved off the feature it names, so no label covers
// a hole or another label. Greedy, in order (markers first, then labels as given): each item tries
// positions on rings around its feature (12 directions, rings RING_STEP_PX apart, nearest first) and
// takes the first whose box stays inside the drawing and overlaps no placed box, no feature (point,
// hole circle, slot box) and no fixed text (and, when it can, crosses no bend or dimension line).
// An item placed off the first ring gets a leader line; one that finds no place is left out and
// counted in a "+N more" note in the top left corner (kept free by laying out again), thinning a
// crowded drawing rather than stacking labels.
import { LABEL_FONT_PX, MARKER_RADIUS_PX, textWidthPx, type Scene, type SceneLabel, type SceneLine, type SceneText, type Vec2Box } from './scene.ts';
import type { Vec2 } from '../geometry/model.ts';

/** Padding around a label's text box, px. */
const LABEL_PAD_PX = 2;
/** Gap between a feature's edge and its label, px. */
const GAP_PX = 3;
/** Distance between successive rings of candidate positions, px. */
const RING_STEP_PX = 14;
/** Rings tried before a label is left out. */
const RINGS = 9;
/** Directions tried on each ring (starting up-right, turning counter-clockwise on screen). */
const DIRECTIONS = 12;
/** A feature point (hole centre, bend middle) keeps this half-size square free of labels, px. */
const ANCHOR_CLEAR_PX = 4;
/** A leader shorter than this is not drawn (the label is beside its feature), px. */
const LEADER_MIN_PX = 6;
const LEADER_COLOR = '#7f8c8d';
const NOTE_FONT_PX = 11;
/** Labels named in the "+N more" note before it is cut short. */
const NOTE_NAMES = 6;
/** Bisection steps of circleReach (the reach to well under 0.01 px). */
const REACH_STEPS = 30;

type Box = Vec2Box;
const overlaps = (a: Box, b: Box): boolean => a[0] < b[0] + b[2] && b[0] < a[0] + a[2] && a[1] < b[1] + b[3] && b[1] < a[1] + a[3];

/** Box of a fixed text (rotated texts are assumed vertical). */
export function textBox(t: SceneText): Box {
  const w = textWidthPx(t.text, t.sizePx, t.bold), h = t.sizePx * 1.2;
  const [bw, bh] = t.rotateDegrees ? [h, w] : [w, h];
  const x = t.align === 'start' ? t.at[0] : t.align === 'end' ? t.at[0] - bw : t.at[0] - bw / 2;
  return t.rotateDegrees ? [t.at[0] - bw / 2, t.at[1] - bh / 2, bw, bh] : [x, t.at[1] - bh / 2, bw, bh];
}

/** Whether segment ab crosses or lies in box b (Liang-Barsky clipping). */
function segmentHitsBox(a: Vec2, c: Vec2, b: Box): boolean {
  let t0 = 0, t1 = 1;
  const dx = c[0] - a[0], dy = c[1] - a[1];
  const edges: Array<[number, number]> = [[-dx, a[0] - b[0]], [dx, b[0] + b[2] - a[0]], [-dy, a[1] - b[1]], [dy, b[1] + b[3] - a[1]]];
  for (const [p, q] of edges) {
    if (p === 0) { if (q < 0) return false; continue; }
    const r = q / p;
    if (p < 0) { if (r > t1) return false; if (r > t0) t0 = r; } else { if (r < t0) return false; if (r < t1) t1 = r; }
  }
  return true;
}

/** Where the nearest point of a box is from p. */
function nearestOnBox(b: Box, p: Vec2): Vec2 {
  return [Math.min(Math.max(p[0], b[0]), b[0] + b[2]), Math.min(Math.max(p[1], b[1]), b[1] + b[3])];
}

/** Distance from p to the nearest point of a box (0 inside it). */
export function boxDistance(b: Box, p: Vec2): number {
  const q = nearestOnBox(b, p);
  return Math.hypot(q[0] - p[0], q[1] - p[1]);
}

type Feature = { box: Box } | { centre: Vec2; r: number };

/** Least distance d along the unit direction (dx, dy) at which a box of half size hw x hh centred at
 * d (dx, dy) from a circle's centre keeps `clear` from it: the box's nearest point, not its centre
 * or its far corner, is what touches the circle (so a label on a diagonal of a large hole sits as
 * close as one beside it). */
export function circleReach(clear: number, dx: number, dy: number, hw: number, hh: number): number {
  const ax = Math.abs(dx), ay = Math.abs(dy);
  const dist = (d: number): number => Math.hypot(Math.max(0, d * ax - hw), Math.max(0, d * ay - hh));
  // dist grows with d (from 0 while the centre is inside the box): bisect between 0 and a reach
  // surely far enough (the centre's own distance plus the box's half diagonal)
  let lo = 0, hi = clear + Math.hypot(hw, hh);
  for (let k = 0; k < REACH_STEPS; k++) { const mid = (lo + hi) / 2; if (dist(mid) >= clear) hi = mid; else lo = mid; }
  return hi;
}

export interface LayoutOptions {
  /** where labels may go, px [x, y, width, height]; default the whole image */
  bounds?: Box;
}

/** Lays out the scene's labels and markers in place (see the header); returns how many were left out. */
export function layoutLabels(scene: Scene, options: LayoutOptions = {}): number {
  const bounds: Box = options.bounds ?? [2, 2, scene.width - 4, scene.height - 4];
  for (const m of scene.markers ?? []) m.anchor ??= m.at;
  for (const l of scene.labels) l.anchor ??= l.at;
  const all = scene.labels, given = scene.leaders ?? [];
  let pass = layoutOnce(scene, all, bounds, null);
  let note: SceneText | null = null;
  if (pass.dropped.length) {
    // crowded: lay out again with room kept for the note in the top left corner
    // as many names as fit the drawing's width
    const text = (dropped: string[]): string => {
      for (let n = Math.min(NOTE_NAMES, dropped.length); ; n--) {
        const t = `+${dropped.length} more labels not drawn (crowded)${n ? `: ${dropped.slice(0, n).join(', ')}${dropped.length > n ? ', ...' : ''}` : ''}`;
        if (n === 0 || textWidthPx(t, NOTE_FONT_PX) <= bounds[2] - 8) return t;
      }
    };
    // room for the longest the note can get: every label's count, the longest names
    const names = all.map((l) => l.text.split(' ')[0]).sort((a, b) => b.length - a.length);
    const slack = text([...names.slice(0, NOTE_NAMES), ...names]).replace(/^\+\d+/, `+${all.length}`);
    const reserved: Box = [bounds[0] + 4, bounds[1] + 4, textWidthPx(slack, NOTE_FONT_PX), NOTE_FONT_PX * 1.2];
    pass = layoutOnce(scene, all, bounds, reserved);
    note = { at: [reserved[0], reserved[1] + reserved[3] / 2], text: text(pass.dropped), color: LEADER_COLOR, sizePx: NOTE_FONT_PX, align: 'start', cls: 'more-labels' };
  }
  scene.labels = pass.kept;
  scene.leaders = [...given, ...pass.leaders];
  if (note) (scene.texts ??= []).push(note);
  return pass.dropped.length;
}

function layoutOnce(scene: Scene, labels: SceneLabel[], bounds: Box, reserved: Box | null): { kept: SceneLabel[]; dropped: string[]; leaders: SceneLine[] } {
  const inside = (b: Box): boolean => b[0] >= bounds[0] && b[1] >= bounds[1] && b[0] + b[2] <= bounds[0] + bounds[2] && b[1] + b[3] <= bounds[1] + bounds[3];
  const markers = scene.markers ?? [];
  const anchors: Box[] = [...markers.map((m) => m.anchor!), ...labels.map((l) => l.anchor!)]
    .map((a) => [a[0] - ANCHOR_CLEAR_PX, a[1] - ANCHOR_CLEAR_PX, 2 * ANCHOR_CLEAR_PX, 2 * ANCHOR_CLEAR_PX]);
  // the features themselves (a hole's circle or a slot's box): a label never covers one
  // (a round hole is its circle, not the square around it: a label may sit in the square's corner)
  const features: Feature[] = [...markers, ...labels].flatMap((item): Feature[] => {
    const a = item.anchor!;
    if (item.keepOut) { const [hw, hh] = item.keepOut; return hw > 0 || hh > 0 ? [{ box: [a[0] - hw, a[1] - hh, 2 * hw, 2 * hh] }] : []; }
    return (item.clearPx ?? 0) > 0 ? [{ centre: a, r: item.clearPx! }] : [];
  });
  const coversFeature = (box: Box): boolean => features.some((f) => ('box' in f ? overlaps(f.box, box) : boxDistance(box, f.centre) < f.r));
  const placed: Box[] = [...(scene.texts ?? []).map(textBox), ...(reserved ? [reserved] : [])];
  const leaders: SceneLine[] = [];

  // bend and dimension lines: a label beside its line reads better than one across it, but a crowded
  // drawing may put labels across lines rather than leave them out (second pass)
  const segments = scene.lines.map((l) => [l.a, l.b] as const);
  // distance from the anchor, along (dx, dy), at which a w x h box centred there clears the feature
  type Reach = (dx: number, dy: number, w: number, h: number) => number;
  const reachOf = (item: { clearPx?: number; keepOut?: [number, number] }): Reach => {
    const k = item.keepOut;
    if (k) return (dx, dy, w, h) => Math.min(Math.abs(dx) > 1e-9 ? (k[0] + w / 2 + GAP_PX) / Math.abs(dx) : Infinity, Math.abs(dy) > 1e-9 ? (k[1] + h / 2 + GAP_PX) / Math.abs(dy) : Infinity);
    const r = item.clearPx ?? 0;
    return (dx, dy, w, h) => circleReach(r + GAP_PX, dx, dy, w / 2, h / 2);
  };
  const place = (anchor: Vec2, reach: Reach, w: number, h: number): { box: Box; centre: Vec2; ring: number } | null => {
    for (const avoidLines of [true, false]) {
      const spot = placeOnRings(anchor, reach, w, h, avoidLines);
      if (spot) return spot;
    }
    return null;
  };
  const placeOnRings = (anchor: Vec2, reach: Reach, w: number, h: number, avoidLines: boolean): { box: Box; centre: Vec2; ring: number } | null => {
    for (let ring = 0; ring < RINGS; ring++) {
      for (let k = 0; k < DIRECTIONS; k++) {
        const t = Math.PI / 4 + (2 * Math.PI * k) / DIRECTIONS;
        const dx = Math.cos(t), dy = -Math.sin(t);
        const d = reach(dx, dy, w, h) + ring * RING_STEP_PX;
        const centre: Vec2 = [anchor[0] + dx * d, anchor[1] + dy * d];
        const box: Box = [centre[0] - w / 2, centre[1] - h / 2, w, h];
        if (!inside(box) || placed.some((b) => overlaps(b, box)) || anchors.some((b) => overlaps(b, box)) || coversFeature(box)) continue;
        if (avoidLines && segments.some(([p, q]) => segmentHitsBox(p, q, box))) continue;
        return { box, centre, ring };
      }
    }
    return null;
  };
  // a label off its first ring is no longer beside its feature: a leader joins them, from the
  // feature's edge (circle or box) to the label's nearest point
  const leader = (item: { anchor?: Vec2; clearPx?: number; keepOut?: [number, number] }, box: Box, color: string): void => {
    const anchor = item.anchor!;
    const q = nearestOnBox(box, anchor);
    const d = Math.hypot(q[0] - anchor[0], q[1] - anchor[1]);
    if (d === 0) return;
    const k = item.keepOut;
    const from: Vec2 = k
      ? [Math.min(Math.max(q[0], anchor[0] - k[0]), anchor[0] + k[0]), Math.min(Math.max(q[1], anchor[1] - k[1]), anchor[1] + k[1])]
      : [anchor[0] + ((q[0] - anchor[0]) / d) * (item.clearPx ?? 0), anchor[1] + ((q[1] - anchor[1]) / d) * (item.clearPx ?? 0)];
    if (Math.hypot(q[0] - from[0], q[1] - from[1]) <= LEADER_MIN_PX) return;
    leaders.push({ a: from, b: q, stroke: color, strokeWidth: 1, dashed: false, cls: 'leader' });
  };

  for (const m of markers) {
    const r = MARKER_RADIUS_PX + 1;
    const spot = place(m.anchor!, reachOf(m), 2 * r, 2 * r);
    // a finding is never thinned out: without room it stays on its feature
    const box: Box = spot ? spot.box : [m.anchor![0] - r, m.anchor![1] - r, 2 * r, 2 * r];
    m.at = spot ? spot.centre : m.anchor!;
    placed.push(box);
    if (spot && spot.ring > 0) leader(m, box, m.color);
  }
  const dropped: string[] = [];
  const kept = labels.filter((l) => {
    const w = textWidthPx(l.text, LABEL_FONT_PX, true) + 2 * LABEL_PAD_PX, h = LABEL_FONT_PX + 2 * LABEL_PAD_PX;
    const spot = place(l.anchor!, reachOf(l), w, h);
    if (!spot) { dropped.push(l.text.split(' ')[0]); return false; }
    l.at = spot.centre;
    l.box = spot.box;
    placed.push(spot.box);
    if (spot.ring > 0) leader(l, spot.box, LEADER_COLOR);
    return true;
  });
  return { kept, dropped, leaders };
}
