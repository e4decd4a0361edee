// Cut contours of a tube: the boundary of its outer skin (every place the laser goes through the
// wall, traced on the outside), their exact lengths, and what each contour is (end cut, hole,
// slot, notch, cut-out).
import type { Solid, Surface, Vec3, TubeFeature } from '../geometry/model.ts';
import { sub, dot, norm, scale, point, hypot3 } from '../geometry/vec.ts';
import { implicitForm, projectInto, PROJECTED, sameSurface, parallelDirections, type ImplicitForm } from './surfaces.ts';
import { DEGENERATE_CHORD_MM, EDGE_REFINEMENT_LEVELS, MIDPOINT_MOVE_SHARE, STRAIGHT_SAGITTA_MM } from './tolerances.ts';

export interface CutEdge { a: number; b: number; skinFace: number; cutFace: number }

/** Directed boundary edges of the face set `skin` (a->b as wound in the skin triangle), chained. */
export function skinBoundaryLoops(solid: Solid, faceOfTri: Int32Array, skin: Set<number>): CutEdge[][] {
  const T = solid.triangles;
  const n = solid.points.length / 3;
  const owner = new Map<number, number>();
  for (let t = 0; t < T.length / 3; t++) {
    for (let k = 0; k < 3; k++) owner.set(T[t * 3 + k] * n + T[t * 3 + ((k + 1) % 3)], t);
  }
  const out = new Map<number, CutEdge[]>();
  for (let t = 0; t < T.length / 3; t++) {
    if (!skin.has(faceOfTri[t])) continue;
    for (let k = 0; k < 3; k++) {
      const a = T[t * 3 + k], b = T[t * 3 + ((k + 1) % 3)];
      const twin = owner.get(b * n + a);
      const other = twin === undefined ? -1 : faceOfTri[twin];
      if (skin.has(other)) continue;
      const e = { a, b, skinFace: faceOfTri[t], cutFace: other };
      const list = out.get(a);
      if (list) list.push(e); else out.set(a, [e]);
    }
  }
  const loops: CutEdge[][] = [];
  const used = new Set<CutEdge>();
  for (const list of out.values()) {
    for (const first of list) {
      if (used.has(first)) continue;
      const loop: CutEdge[] = [];
      let e: CutEdge | undefined = first;
      while (e && !used.has(e)) {
        used.add(e);
        loop.push(e);
        const cand: CutEdge[] = out.get(e.b) ?? [];
        // where loops touch at a vertex, prefer continuing along the same cut face
        e = cand.find((c) => !used.has(c) && c.cutFace === loop[loop.length - 1].cutFace) ?? cand.find((c) => !used.has(c));
      }
      loops.push(loop);
    }
  }
  return loops;
}

/** One loop's measurement: chordKept is set by refinedLength when a piece of the curve could not be found (its chord is kept). */
interface Refinement { chordKept: boolean }

/** Length of the curve p->q on both surfaces, refined by midpoint projection until the curve is
 * indistinguishable from its chords (or the depth limit is reached); sets r.chordKept where a piece
 * stays a chord. Scalar arithmetic in the order of the vector helpers (the lengths are bit-identical
 * to theirs): this runs about a hundred thousand times per tube. */
function refinedLength(sa: ImplicitForm, sb: ImplicitForm, px: number, py: number, pz: number, qx: number, qy: number, qz: number, level: number, r: Refinement, visit?: CurveVisit): number {
  const chord = hypot3(qx - px, qy - py, qz - pz);
  if (chord < DEGENERATE_CHORD_MM) return chord;
  const cx = (px + qx) * 0.5, cy = (py + qy) * 0.5, cz = (pz + qz) * 0.5;
  if (!projectInto(sa, sb, cx, cy, cz, MIDPOINT_MOVE_SHARE * chord)) { r.chordKept = true; return chord; }
  const mx = PROJECTED[0], my = PROJECTED[1], mz = PROJECTED[2];
  // hypot3(mx - cx, my - cy, mz - cz): the projection measured it (same arguments, same double)
  const sagitta = PROJECTED[3];
  visit?.(mx, my, mz);
  // arc minus chord ~ 8 s^2 / (3 c): below STRAIGHT_SAGITTA_MM there is nothing left to measure
  if (sagitta < STRAIGHT_SAGITTA_MM || level === 0) return chord + (8 * sagitta * sagitta) / (3 * chord);
  const l = refinedLength(sa, sb, px, py, pz, mx, my, mz, level - 1, r, visit);
  return l + refinedLength(sa, sb, mx, my, mz, qx, qy, qz, level - 1, r, visit);
}

/** Sees a point x, y, z (mm) found on an exact cut curve. */
export type CurveVisit = (x: number, y: number, z: number) => void;

/** `visit` sees every point found on the exact curve between the mesh vertices (for extents). */
export function loopLength(solid: Solid, edges: CutEdge[], visit?: CurveVisit): { length: number; exact: boolean } {
  let length = 0, exact = true;
  const refinement: Refinement = { chordKept: false };
  const P = solid.points;
  for (const e of edges) {
    const sa = solid.faces[e.skinFace].surface, sb = e.cutFace >= 0 ? solid.faces[e.cutFace].surface : null;
    const i = e.a * 3, j = e.b * 3;
    const px = P[i], py = P[i + 1], pz = P[i + 2], qx = P[j], qy = P[j + 1], qz = P[j + 2];
    if (!sb || sb.kind === 'other' || sa.kind === 'other') { length += hypot3(qx - px, qy - py, qz - pz); exact = false; continue; }
    length += refinedLength(implicitForm(sa), implicitForm(sb), px, py, pz, qx, qy, qz, EDGE_REFINEMENT_LEVELS, refinement, visit);
  }
  return { length, exact: exact && !refinement.chordKept };
}

/** Winding number of the loop about the tube axis, in turns (about +-1 for an end contour). */
export function windingAboutAxis(solid: Solid, edges: CutEdge[], center: Vec3, e2: Vec3, e3: Vec3): number {
  let total = 0;
  for (const e of edges) {
    const p = sub(point(solid.points, e.a), center), q = sub(point(solid.points, e.b), center);
    const a0 = Math.atan2(dot(p, e3), dot(p, e2)), a1 = Math.atan2(dot(q, e3), dot(q, e2));
    let da = a1 - a0;
    while (da > Math.PI) da -= 2 * Math.PI;
    while (da < -Math.PI) da += 2 * Math.PI;
    total += da;
  }
  return total / (2 * Math.PI);
}

/** Distinct surfaces of the faces a loop cuts through. */
function cutSurfaces(solid: Solid, edges: CutEdge[]): Surface[] {
  const out: Surface[] = [];
  const seen = new Set<number>();
  for (const e of edges) {
    if (e.cutFace < 0 || seen.has(e.cutFace)) continue;
    seen.add(e.cutFace);
    const s = solid.faces[e.cutFace].surface;
    if (!out.some((o) => sameSurface(o, s) || (o.kind === 'cylinder' && s.kind === 'cylinder' && sameCylinderIgnoringSide(o, s)))) out.push(s);
  }
  return out;
}

function sameCylinderIgnoringSide(a: Extract<Surface, { kind: 'cylinder' }>, b: Extract<Surface, { kind: 'cylinder' }>): boolean {
  return sameSurface({ ...a, convex: true }, { ...b, convex: true });
}

export interface LoopFeature { kind: TubeFeature['kind']; diameter?: number; width?: number; length?: number; angleDegrees?: number }

/** What an inner (non-end) contour is, from the surfaces of the walls it cuts. */
export function classifyInteriorLoop(solid: Solid, edges: CutEdge[]): LoopFeature {
  const surfaces = cutSurfaces(solid, edges);
  const cyl = surfaces.filter((s): s is Extract<Surface, { kind: 'cylinder' }> => s.kind === 'cylinder');
  const planes = surfaces.filter((s) => s.kind === 'plane');
  if (surfaces.length === 1 && cyl.length === 1) return { kind: 'hole', diameter: 2 * cyl[0].radius };
  if (cyl.length === 2 && surfaces.length === cyl.length + planes.length && planes.length <= 2
    && Math.abs(cyl[0].radius - cyl[1].radius) < 1e-3 && parallelDirections(cyl[0].axis, cyl[1].axis)) {
    const w = sub(cyl[1].origin, cyl[0].origin);
    const between = norm(sub(w, scale(cyl[0].axis, dot(w, cyl[0].axis))));
    return { kind: 'slot', width: 2 * cyl[0].radius, length: between + 2 * cyl[0].radius };
  }
  return { kind: 'cutout' };
}

/** End contour: the angle of its main cut plane to the section plane, and whether it has a notch. */
export function classifyEndLoop(solid: Solid, edges: CutEdge[], d: Vec3): { angleDegrees: number | null; notched: boolean } {
  const surfaces = cutSurfaces(solid, edges);
  // the main end plane is the one with the longest share of the contour
  const share = new Map<Surface, number>();
  for (const e of edges) {
    if (e.cutFace < 0) continue;
    const s = solid.faces[e.cutFace].surface;
    const key = surfaces.find((o) => o === s || sameSurface(o, s)) ?? s;
    share.set(key, (share.get(key) ?? 0) + norm(sub(point(solid.points, e.b), point(solid.points, e.a))));
  }
  let main: Surface | null = null, best = -1;
  for (const [s, l] of share) if (l > best) { best = l; main = s; }
  const angle = main && main.kind === 'plane' ? (Math.acos(Math.min(1, Math.abs(dot(main.normal, d)))) * 180) / Math.PI : null;
  return { angleDegrees: angle, notched: surfaces.length > 1 };
}
