// The image views of the API (iso, top, bottom, front, back, left, right, flat) as Scenes: the formed
// part in its normalized frame with hidden faces culled and the rest painted back to front, holes and
// bends labelled with their IDs; the flat view shows the cut contours and the bend lines (of a tube:
// its unrolled outer wall with every cut through it).
import type { BendLine, FlatGeometry, Solid, Rigid, Vec2, Vec3, SheetAnalysis, TubeAnalysis } from '../geometry/model.ts';
import { applyRigid, rotate } from './meshes.ts';
import { contourToPolyline, polygonArea } from './polyline.ts';
import { pointInPolygon } from '../tube/section.ts';
import { isWallHole } from '../tube/wall-holes.ts';
import { fitTransform, pxPerMm, shade, type Scene, type SceneLabel, type ScenePolygon, type SceneLine, type SceneText } from './scene.ts';
import { cornerPositions, unrolledPerimeter } from '../tube/outline.ts';

export const VIEWS = ['iso', 'top', 'bottom', 'front', 'back', 'left', 'right', 'flat'] as const;
export type ViewName = (typeof VIEWS)[number];

interface Camera { toward: Vec3; right: Vec3; up: Vec3 }

function norm(v: Vec3): Vec3 { const l = Math.hypot(v[0], v[1], v[2]) || 1; return [v[0] / l, v[1] / l, v[2] / l]; }
function cross(a: Vec3, b: Vec3): Vec3 { return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]; }
function dot(a: Vec3, b: Vec3): number { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

function camera(toward: Vec3, right: Vec3): Camera {
  const t = norm(toward), r = norm(right);
  return { toward: t, right: r, up: cross(t, r) };
}

/** Camera per view; `toward` points from the part to the viewer (normalized frame: X long side, Z up). */
export const CAMERAS: Record<Exclude<ViewName, 'flat'>, Camera> = {
  iso: camera([1, -1, 1], [1, 1, 0]),
  top: camera([0, 0, 1], [1, 0, 0]),
  bottom: camera([0, 0, -1], [1, 0, 0]),
  front: camera([0, -1, 0], [1, 0, 0]),
  back: camera([0, 1, 0], [-1, 0, 0]),
  right: camera([1, 0, 0], [0, 1, 0]),
  left: camera([-1, 0, 0], [0, -1, 0]),
};

const PART_COLOR: [number, number, number] = [176, 186, 198];
const EDGE_COLOR = '#2b3440';
const HOLE_LABEL_COLOR = '#c0392b';
const BEND_LABEL_COLOR = '#1f5fbf';
const FEATURE_LABEL_COLOR = '#7d3c98';
const BEND_LINE_COLOR = '#1f5fbf';
const CORNER_LINE_COLOR = '#5d6d7e';
const MARGIN_PX = 24;
/** End-cut labels sit this far inside the wall from their contour, px. */
const END_LABEL_INSET_PX = 14;
/** light slightly off the viewing direction so faces parallel to the view still differ in shade */
const LIGHT_OFFSET: Vec3 = [0.35, 0.25, 0.5];

export interface ViewInput {
  solid: Solid;
  frame: Rigid;
  analysis: SheetAnalysis | TubeAnalysis | null;
}

export interface ViewOptions { width?: number; height?: number }

function faceCentroid(solid: Solid, faceId: number, frame: Rigid): Vec3 | null {
  const face = solid.faces.find((f) => f.id === faceId);
  if (!face || face.vertices.length === 0) return null;
  const s: Vec3 = [0, 0, 0];
  for (const v of face.vertices) { s[0] += solid.points[3 * v]; s[1] += solid.points[3 * v + 1]; s[2] += solid.points[3 * v + 2]; }
  const n = face.vertices.length;
  return applyRigid(frame, [s[0] / n, s[1] / n, s[2] / n]);
}

/** Mean of the faces' centroids (a bend's skin faces, a tube cut's faces); null when none is found. */
function facesCentroid(solid: Solid, faceIds: number[], frame: Rigid): Vec3 | null {
  const cs = faceIds.map((id) => faceCentroid(solid, id, frame)).filter((c): c is Vec3 => c !== null);
  if (cs.length === 0) return null;
  const m: Vec3 = [0, 0, 0];
  for (const c of cs) { m[0] += c[0] / cs.length; m[1] += c[1] / cs.length; m[2] += c[2] / cs.length; }
  return m;
}

/** Labels behind the part are still drawn, faded: a hole on the far wall keeps its ID in every view.
 * A label is hidden when a surface lies nearer the camera than its point by this many times the local
 * sheet (thickness plus the largest bend radius; a tube's wall). */
const OCCLUSION_MARGIN = 2;

/** Triangles facing the camera, as vertex index triples. */
function frontTriangles(solid: Solid, world: Float64Array, toward: Vec3): Uint32Array {
  const tri = solid.triangles;
  const out: number[] = [];
  for (let t = 0; t < tri.length / 3; t++) {
    const a = tri[3 * t] * 3, b = tri[3 * t + 1] * 3, c = tri[3 * t + 2] * 3;
    const u: Vec3 = [world[b] - world[a], world[b + 1] - world[a + 1], world[b + 2] - world[a + 2]];
    const v: Vec3 = [world[c] - world[a], world[c + 1] - world[a + 1], world[c + 2] - world[a + 2]];
    if (dot(cross(u, v), toward) > 0) out.push(tri[3 * t], tri[3 * t + 1], tri[3 * t + 2]);
  }
  return Uint32Array.from(out);
}

/** Whether a front triangle covers the view point q at a depth beyond `depthLimit` (towards the camera). */
function coveredAt(q: Vec2, depthLimit: number, front: Uint32Array, proj: Vec2[], depth: Float64Array): boolean {
  for (let i = 0; i < front.length; i += 3) {
    const a = front[i], b = front[i + 1], c = front[i + 2];
    const [ax, ay] = proj[a], [bx, by] = proj[b], [cx, cy] = proj[c];
    const det = (bx - ax) * (cy - ay) - (cx - ax) * (by - ay);
    if (det === 0) continue;
    const l1 = ((q[0] - ax) * (cy - ay) - (cx - ax) * (q[1] - ay)) / det;
    const l2 = ((bx - ax) * (q[1] - ay) - (q[0] - ax) * (by - ay)) / det;
    if (l1 < 0 || l2 < 0 || l1 + l2 > 1) continue;
    if (depth[a] + l1 * (depth[b] - depth[a]) + l2 * (depth[c] - depth[a]) > depthLimit) return true;
  }
  return false;
}

/** One formed view of the part. */
export function formedView(input: ViewInput, view: Exclude<ViewName, 'flat'>, options: ViewOptions = {}): Scene {
  const width = options.width ?? 800, height = options.height ?? 600;
  const cam = CAMERAS[view];
  const light = norm([cam.toward[0] + LIGHT_OFFSET[0] * (cam.right[0] + cam.up[0]), cam.toward[1] + LIGHT_OFFSET[1] * (cam.right[1] + cam.up[1]), cam.toward[2] + LIGHT_OFFSET[2] * (cam.right[2] + cam.up[2])]);
  const { solid, frame } = input;
  const pts = solid.points;
  const n = pts.length / 3;
  const world = new Float64Array(pts.length);
  const proj: Vec2[] = new Array(n);
  const depth = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const q = applyRigid(frame, [pts[3 * i], pts[3 * i + 1], pts[3 * i + 2]]);
    world[3 * i] = q[0]; world[3 * i + 1] = q[1]; world[3 * i + 2] = q[2];
    proj[i] = [dot(q, cam.right), dot(q, cam.up)];
    depth[i] = dot(q, cam.toward);
  }
  const toPx = fitTransform(proj, width, height, MARGIN_PX);
  const px = proj.map(toPx);

  type Item = { depth: number; poly: ScenePolygon };
  const items: Item[] = [];
  const tri = solid.triangles;
  const triNormal = (t: number): Vec3 => {
    const a = tri[3 * t] * 3, b = tri[3 * t + 1] * 3, c = tri[3 * t + 2] * 3;
    const u: Vec3 = [world[b] - world[a], world[b + 1] - world[a + 1], world[b + 2] - world[a + 2]];
    const v: Vec3 = [world[c] - world[a], world[c + 1] - world[a + 1], world[c + 2] - world[a + 2]];
    return cross(u, v);
  };
  for (const face of solid.faces) {
    if (face.surface.kind === 'plane' && face.loops.length > 0) {
      const normal = norm(rotate(frame, face.surface.normal));
      const facing = dot(normal, cam.toward);
      if (facing <= 1e-9) continue;
      let d = 0;
      for (const v of face.vertices) d += depth[v];
      items.push({
        depth: d / Math.max(1, face.vertices.length),
        poly: { loops: face.loops.map((loop) => loop.map((v) => px[v])), fill: shade(PART_COLOR, 0.35 + 0.65 * Math.abs(dot(normal, light))), stroke: EDGE_COLOR, strokeWidth: 0.8 },
      });
      continue;
    }
    for (const t of face.triangles) {
      const nrm = triNormal(t);
      const len = Math.hypot(nrm[0], nrm[1], nrm[2]);
      if (!(len > 0)) continue;
      const unit: Vec3 = [nrm[0] / len, nrm[1] / len, nrm[2] / len];
      if (dot(unit, cam.toward) <= 1e-9) continue;
      const a = tri[3 * t], b = tri[3 * t + 1], c = tri[3 * t + 2];
      const fill = shade(PART_COLOR, 0.35 + 0.65 * Math.abs(dot(unit, light)));
      items.push({ depth: (depth[a] + depth[b] + depth[c]) / 3, poly: { loops: [[px[a], px[b], px[c]]], fill, stroke: fill, strokeWidth: 0.6 } });
    }
  }
  items.sort((p, q) => p.depth - q.depth);

  const labels: SceneLabel[] = [];
  const analysis = input.analysis;
  // a label point is a centroid inside the material (mid-wall of a hole, inside a bend's arc): only a
  // surface nearer the camera by more than the sheet around it (its thickness, a bend's radius) hides it, mm
  const local = analysis?.kind === 'sheet' ? analysis.thickness + Math.max(0, ...analysis.bends.map((b) => b.innerRadius)) : analysis?.kind === 'tube' ? analysis.wall : 1;
  const margin = OCCLUSION_MARGIN * local;
  const front = frontTriangles(solid, world, cam.toward);
  const place = (p: Vec3): { at: Vec2; hidden?: true } => {
    const q: Vec2 = [dot(p, cam.right), dot(p, cam.up)];
    return { at: toPx(q), ...(coveredAt(q, dot(p, cam.toward) + margin, front, proj, depth) ? { hidden: true as const } : {}) };
  };
  const scalePx = pxPerMm(toPx);
  if (analysis?.kind === 'sheet') {
    for (const h of analysis.holes) {
      const c = faceCentroid(solid, h.faceId, frame);
      if (c) labels.push({ ...place(c), text: `H${h.id}`, color: HOLE_LABEL_COLOR, ref: { kind: 'hole', id: h.id }, clearPx: (h.diameter / 2) * scalePx });
    }
    for (const b of analysis.bends) {
      const m = facesCentroid(solid, b.faceIds ?? [], frame) ?? (b.anchor ? applyRigid(frame, b.anchor) : null);
      if (!m) continue;
      labels.push({ ...place(m), text: `B${b.id}`, color: BEND_LABEL_COLOR, ref: { kind: 'bend', id: b.id } });
    }
  } else if (analysis?.kind === 'tube') {
    // holes, slots and windows carry the ids of Part.holes (H); end cuts and notches the same id space (F)
    for (const f of analysis.features) {
      const m = facesCentroid(solid, f.faceIds ?? [], frame);
      if (!m) continue;
      const hole = isWallHole(f);
      labels.push({ ...place(m), text: `${hole ? 'H' : 'F'}${f.id}`, color: hole ? HOLE_LABEL_COLOR : FEATURE_LABEL_COLOR, ref: { kind: hole ? 'hole' : 'feature', id: f.id } });
    }
  }
  const formed = (p: Vec3): Vec2 => toPx([dot(p, cam.right), dot(p, cam.up)]);
  return { view, width, height, background: '#ffffff', polygons: items.map((i) => i.poly), lines: [], labels, title: `${solid.name} - ${view}`, toPx: { formed } };
}

/** Chord tolerance of the flat's drawn cut contours, mm (drawing only; DFM highlights trace the same polylines). */
const FLAT_CHORD_MM = 0.05;
/** Room below and left of the flat for its overall dimensions, px. */
const DIMENSION_BAND_PX = 34;
/** Dimension lines sit this far outside the part's extent, px. */
const DIMENSION_OFFSET_PX = 14;
/** Length of the extension lines past the dimension line and of its end ticks, px. */
const DIMENSION_TICK_PX = 5;
const DIMENSION_COLOR = '#37474f';
const DIMENSION_FONT_PX = 12;

/** A length for a drawing, mm: one decimal, no trailing zero (0.05 mm is below any laser's kerf). */
export function formatMm(v: number): string {
  return String(Math.round(v * 10) / 10);
}

/** Overall width and height of the flat with dimension lines (bottom and left of the drawing). */
function flatDimensions(loops: Vec2[][], toPx: (p: Vec2) => Vec2): { lines: SceneLine[]; texts: SceneText[] } {
  let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
  for (const p of loops[0] ?? []) { minX = Math.min(minX, p[0]); maxX = Math.max(maxX, p[0]); minY = Math.min(minY, p[1]); maxY = Math.max(maxY, p[1]); }
  if (!Number.isFinite(minX)) return { lines: [], texts: [] };
  const [x0, y0] = toPx([minX, minY]), [x1, y1] = toPx([maxX, maxY]); // y0 is the bottom (px y grows down)
  const line = (a: Vec2, b: Vec2, dim: string): SceneLine => ({ a, b, stroke: DIMENSION_COLOR, strokeWidth: 1, dashed: false, cls: 'dimension', data: { dimension: dim } });
  const yd = y0 + DIMENSION_OFFSET_PX, xd = x0 - DIMENSION_OFFSET_PX;
  const lines: SceneLine[] = [
    line([x0, y0 + 2], [x0, yd + DIMENSION_TICK_PX], 'width'), line([x1, y0 + 2], [x1, yd + DIMENSION_TICK_PX], 'width'), line([x0, yd], [x1, yd], 'width'),
    line([x0 - DIMENSION_TICK_PX / 2, yd + DIMENSION_TICK_PX / 2], [x0 + DIMENSION_TICK_PX / 2, yd - DIMENSION_TICK_PX / 2], 'width'),
    line([x1 - DIMENSION_TICK_PX / 2, yd + DIMENSION_TICK_PX / 2], [x1 + DIMENSION_TICK_PX / 2, yd - DIMENSION_TICK_PX / 2], 'width'),
    line([x0 - 2, y0], [xd - DIMENSION_TICK_PX, y0], 'height'), line([x0 - 2, y1], [xd - DIMENSION_TICK_PX, y1], 'height'), line([xd, y0], [xd, y1], 'height'),
    line([xd - DIMENSION_TICK_PX / 2, y0 + DIMENSION_TICK_PX / 2], [xd + DIMENSION_TICK_PX / 2, y0 - DIMENSION_TICK_PX / 2], 'height'),
    line([xd - DIMENSION_TICK_PX / 2, y1 + DIMENSION_TICK_PX / 2], [xd + DIMENSION_TICK_PX / 2, y1 - DIMENSION_TICK_PX / 2], 'height'),
  ];
  const texts: SceneText[] = [
    { at: [(x0 + x1) / 2, yd + DIMENSION_FONT_PX], text: `${formatMm(maxX - minX)} mm`, color: DIMENSION_COLOR, sizePx: DIMENSION_FONT_PX, align: 'middle', cls: 'dimension', data: { dimension: 'width', mm: formatMm(maxX - minX) } },
    { at: [xd - DIMENSION_FONT_PX, (y0 + y1) / 2], text: `${formatMm(maxY - minY)} mm`, color: DIMENSION_COLOR, sizePx: DIMENSION_FONT_PX, align: 'middle', rotateDegrees: -90, cls: 'dimension', data: { dimension: 'height', mm: formatMm(maxY - minY) } },
  ];
  return { lines, texts };
}

/** Bend annotation: its id, angle and direction (up: towards the viewer of the flat). */
export function bendText(b: BendLine): string {
  return `B${b.bendId} ${Math.round(b.angleDegrees)}\u00b0 ${b.direction}`;
}

/** The flat pattern: cut contours filled, bend lines dashed with their IDs, angles and directions,
 * holes labelled, overall width and height dimensioned. */
export function flatView(flat: FlatGeometry, analysis: SheetAnalysis | null, name: string, options: ViewOptions = {}): Scene {
  const width = options.width ?? 800, height = options.height ?? 600;
  const loops = [flat.outer, ...flat.inner].map((c) => contourToPolyline(c, FLAT_CHORD_MM));
  const all: Vec2[] = loops.flat();
  const fit = fitTransform(all, width - DIMENSION_BAND_PX, height - DIMENSION_BAND_PX, MARGIN_PX);
  const toPx = (p: Vec2): Vec2 => { const q = fit(p); return [q[0] + DIMENSION_BAND_PX, q[1]]; };
  const scalePx = pxPerMm(toPx);
  const loopsPx = loops.map((l) => l.map(toPx));
  const polygons: ScenePolygon[] = [{ loops: loopsPx, fill: shade(PART_COLOR, 1), stroke: EDGE_COLOR, strokeWidth: 1 }];
  const dims = flatDimensions(loops, toPx);
  const lines: SceneLine[] = [...flat.bendLines.map((b) => ({ a: toPx(b.a), b: toPx(b.b), stroke: BEND_LINE_COLOR, strokeWidth: 1.2, dashed: true, data: { 'bend-id': String(b.bendId) } })), ...dims.lines];
  const labels: SceneLabel[] = [];
  const inner = loops.slice(1);
  for (const h of analysis?.holes ?? []) {
    // the label keeps clear of the hole's own cut (a slot's length, a keyhole's lobe), not just its width;
    // a round hole keeps its circle (clearPx), so a label sits beside it in every direction
    const i = holeLoopIndex(h.center, inner);
    const outline = i >= 0 ? loopsPx[i + 1] : undefined;
    const keepOut = outline && h.shape !== 'round' ? { keepOut: halfBoxAround(outline, toPx(h.center)) } : {};
    labels.push({ at: toPx(h.center), text: `H${h.id}`, color: HOLE_LABEL_COLOR, ref: { kind: 'hole', id: h.id }, clearPx: (h.diameter / 2) * scalePx, ...keepOut, ...(outline ? { outline } : {}) });
  }
  for (const b of flat.bendLines) labels.push({ at: toPx([(b.a[0] + b.b[0]) / 2, (b.a[1] + b.b[1]) / 2]), text: bendText(b), color: BEND_LABEL_COLOR, ref: { kind: 'bend' as const, id: b.bendId } });
  return { view: 'flat', width, height, background: '#ffffff', polygons, lines, labels, texts: dims.texts, title: `${name} - flat`, toPx: { flat: toPx } };
}

/** Index of a hole's cut contour among the inner loops: the smallest loop around its centre; -1 if none. */
function holeLoopIndex(center: Vec2, inner: Vec2[][]): number {
  let best = -1, bestArea = Infinity;
  inner.forEach((l, i) => {
    if (!pointInPolygon(center, l)) return;
    const a = Math.abs(polygonArea(l));
    if (a < bestArea) { best = i; bestArea = a; }
  });
  return best;
}

/** Half width and height of the box around `at` that holds every point (pixels). */
export function halfBoxAround(points: Vec2[], at: Vec2): [number, number] {
  let hw = 0, hh = 0;
  for (const p of points) { hw = Math.max(hw, Math.abs(p[0] - at[0])); hh = Math.max(hh, Math.abs(p[1] - at[1])); }
  return [hw, hh];
}

/** A piece's x where it crosses s (linear between its points); null when it never reaches s. */
function xAtS(piece: Vec2[], s: number): number | null {
  for (let i = 0; i + 1 < piece.length; i++) {
    const [x0, s0] = piece[i], [x1, s1] = piece[i + 1];
    if ((s0 - s) * (s1 - s) > 0 || s0 === s1) continue;
    return x0 + ((s - s0) / (s1 - s0)) * (x1 - x0);
  }
  return piece.find((q) => q[1] === s)?.[0] ?? null;
}

/** Centre of the bounding box of some polylines. */
function boxCentre(lines: Vec2[][]): Vec2 | null {
  const all = lines.flat();
  if (all.length === 0) return null;
  const xs = all.map((q) => q[0]), ss = all.map((q) => q[1]);
  return [(Math.min(...xs) + Math.max(...xs)) / 2, (Math.min(...ss) + Math.max(...ss)) / 2];
}

/** Whether the analysis carries the unrolled contours the tube flat view draws (an analysis made
 * before they existed, or a bare stand-in, has none). */
export function hasUnrolledWall(analysis: TubeAnalysis): boolean {
  return (analysis.features ?? []).some((f) => f.kind === 'end_cut' && (f.outline?.length ?? 0) > 0);
}

/**
 * A tube's unrolled outer wall as the tube laser cuts it: x along the axis, s around the outer
 * perimeter from the +Y side towards +Z (mm, the axes of TubeFeature.unrolled). The wall is bounded
 * by the two end contours and the seam lines s = 0 and s = perimeter; holes, slots and cut-outs are
 * cut out of it (a contour straddling the seam shows at both edges); dashed lines mark where the
 * flat walls of a rectangular tube meet its corners, so a hole's wall reads at a glance.
 */
export function tubeFlatView(analysis: TubeAnalysis, name: string, options: ViewOptions = {}): Scene {
  const width = options.width ?? 800, height = options.height ?? 600;
  const P = unrolledPerimeter(analysis), L = analysis.length;
  const endPiece = (end: 'start' | 'end'): Vec2[] | null => {
    const cuts = analysis.features.filter((f) => f.kind === 'end_cut' && f.end === end);
    const pieces = cuts.length === 1 ? cuts[0].outline ?? [] : [];
    if (pieces.length !== 1) return null;
    const pc = pieces[0];
    const [a, b] = [pc[0][1], pc[pc.length - 1][1]];
    if (Math.min(a, b) > 1e-6 || Math.max(a, b) < P - 1e-6) return null;
    return a <= b ? pc : [...pc].reverse();
  };
  const start = endPiece('start'), end = endPiece('end');
  // an end contour that does not go once round (unusual_end_cuts) leaves the wall a plain strip,
  // its contours drawn as they are
  const wall: Vec2[] = start && end ? [...start, ...[...end].reverse()] : [[0, 0], [L, 0], [L, P], [0, P]];
  const cuts = analysis.features.filter((f) => f.kind === 'hole' || f.kind === 'slot' || f.kind === 'cutout').flatMap((f) => f.outline ?? []);
  const strays = start && end ? [] : analysis.features.filter((f) => f.kind === 'end_cut').flatMap((f) => f.outline ?? []);

  const fit = fitTransform([...wall, ...cuts.flat(), ...strays.flat()], width - DIMENSION_BAND_PX, height - DIMENSION_BAND_PX, MARGIN_PX);
  const toPx = (p: Vec2): Vec2 => { const q = fit(p); return [q[0] + DIMENSION_BAND_PX, q[1]]; };
  // a piece cut by the seam closes along the seam, which is the wall's own edge: even-odd leaves it open
  const polygons: ScenePolygon[] = [{ loops: [wall, ...cuts].map((l) => l.map(toPx)), fill: shade(PART_COLOR, 1), stroke: EDGE_COLOR, strokeWidth: 1 }];
  const lines: SceneLine[] = [];
  for (const pc of strays) for (let i = 0; i + 1 < pc.length; i++) lines.push({ a: toPx(pc[i]), b: toPx(pc[i + 1]), stroke: EDGE_COLOR, strokeWidth: 1, dashed: false });
  for (const s of cornerPositions(analysis)) {
    const x0 = (start && xAtS(start, s)) ?? 0, x1 = (end && xAtS(end, s)) ?? L;
    lines.push({ a: toPx([x0, s]), b: toPx([x1, s]), stroke: CORNER_LINE_COLOR, strokeWidth: 1, dashed: true });
  }

  const labels: SceneLabel[] = [];
  for (const f of analysis.features) {
    const hole = isWallHole(f);
    const ref = { kind: hole ? ('hole' as const) : ('feature' as const), id: f.id };
    const text = `${hole ? 'H' : 'F'}${f.id}`, color = hole ? HOLE_LABEL_COLOR : FEATURE_LABEL_COLOR;
    if (f.kind === 'end_cut') {
      // on the contour half way round, nudged into the wall so it does not sit on the drawing's edge
      const pc = f.end === 'start' ? start : end;
      const x = (pc && xAtS(pc, P / 2)) ?? (f.end === 'start' ? 0 : L);
      const at = toPx([x, P / 2]);
      labels.push({ at: [at[0] + (f.end === 'start' ? END_LABEL_INSET_PX : -END_LABEL_INSET_PX), at[1]], text, color, ref });
      continue;
    }
    const pieces = f.outline ?? [];
    // a contour cut by the seam shows as a part at each edge of the drawing: both are named
    const anchors = pieces.length > 1 ? pieces.map((pc) => boxCentre([pc])) : [f.unrolled ?? boxCentre(pieces)];
    for (const c of anchors) if (c) labels.push({ at: toPx(c), text, color, ref });
  }
  // overall length and unrolled perimeter, like a sheet's flat
  const dims = flatDimensions([wall], toPx);
  lines.push(...dims.lines);
  return { view: 'flat', width, height, background: '#ffffff', polygons, lines, labels, texts: dims.texts, title: `${name} - flat (unrolled outer wall)`, toPx: { flat: toPx } };
}
