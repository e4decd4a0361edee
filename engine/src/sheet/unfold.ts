// The skin of the sheet (one side: the root face and every face joined to it across a tangent edge
// or a sharp bend edge), its spanning tree from the root, and the rigid motion of every skin face
// into the flat. Cylindrical faces unroll at the neutral-axis rate r_inner + K t per radian, so a
// bend strip is BA = angle x (r_inner + K t) wide in the flat (ANSI K).
//
// Flat frame: the root face lies in z = 0 with its outward normal +Z, so the material is BELOW z = 0.
// Bend direction: 'up' when the flange rises toward +Z (the skin is the inside of the bend, concave),
// 'down' when it falls toward -Z (the skin is the outside, convex).
import type { CylinderSurface, Face, PlaneSurface, Rigid, Solid, Vec2, Vec3 } from '../geometry/model.ts';
import { basisOf, cross, dot, norm, normalize, point, scale, sub, add, hypot2, hypot3 } from '../geometry/vec.ts';
import { defaultInnerRadius, defaultKFactor } from './kfactor.ts';
import { applyRigid, compose, frameToWorld, rotationAbout, translation } from './rigid3.ts';
import { THICKNESS_TOLERANCE } from './thickness.ts';

/** Normals this close are parallel (coplanar test, tangent test), radians. */
const ANGLE_TOLERANCE = 1e-4;
/** Distance slack for coplanarity and tangency, mm. */
const DISTANCE_TOLERANCE = 1e-3;
/** Smallest angle between two planar skin faces that is a (sharp) bend, degrees. */
const MIN_SHARP_BEND_DEGREES = 0.5;
/** Angles this far before a cylinder's entry edge are float noise, not a wrap past 360 degrees, radians. */
const ANGLE_WRAP = 1e-2;
/** Cylinder radii differing by t within this are the two skins of one bend, mm. */
const BEND_PAIR_TOLERANCE = 1e-2;
/** A bend whose inner radius is below this is modelled sharp, mm. */
export const SHARP_INNER_RADIUS = 0.05;
/** Two skin faces that map the same shared vertex this far apart do not close up in the flat, mm. */
const CLOSURE_TOLERANCE = 0.01;

const RAD = 180 / Math.PI;

export interface CylinderMap {
  origin: Vec3;
  /** rotation axis with w0 = axis x u0 */
  axis: Vec3;
  /** radial direction at the entry edge, unit */
  u0: Vec3;
  /** tangent direction at the entry edge, into the face, unit */
  w0: Vec3;
  radius: number;
  /** flat length per radian: r_inner + K t */
  rate: number;
}

export interface FaceMap { face: number; motion: Rigid; cylinder: CylinderMap | null; bend: number | null }

export interface UnfoldBend {
  /** index in bends[] (final ids are assigned later from the geometry) */
  index: number;
  faces: number[];
  /** sharp bends (no faces of their own): the middle of the bend edge in the source frame, mm */
  anchor: Vec3 | null;
  sharp: boolean;
  convex: boolean;
  angle: number;
  innerRadius: number;
  kFactor: number;
  length: number;
  /** bend line (middle of the unrolled strip) in the unaligned flat */
  line: [Vec2, Vec2];
  /** width of the unrolled strip, mm */
  allowance: number;
  /** chain bookkeeping for cylinder bends */
  cyl: CylinderMap | null;
  motion: Rigid;
  smin: number;
  smax: number;
}

export interface Unfolding {
  root: number;
  thickness: number;
  skin: Set<number>;
  maps: Map<number, FaceMap>;
  bends: UnfoldBend[];
  /** tree edges as "f:g" keys (both orders) */
  treeEdges: Set<string>;
  /** faces of another kind that touch the skin (B-spline, torus, cone) */
  foreignNeighbours: number[];
  /** cylinders tangent to the skin that would be bends but have no opposite skin at R -/+ t */
  unpairedBends: number[];
}

export class UnfoldError extends Error {
  constructor(readonly reason: 'not_unfoldable' | 'non_cylindrical_bend' | 'not_constant_thickness', message: string) { super(message); }
}

interface EdgeRef { other: number; vertices: number[] }

function edgesByFace(solid: Solid): Map<number, EdgeRef[]> {
  const out = new Map<number, EdgeRef[]>();
  for (const e of solid.edges) {
    const [f, g] = e.faces;
    if (!out.has(f)) out.set(f, []);
    if (!out.has(g)) out.set(g, []);
    out.get(f)!.push({ other: g, vertices: e.vertices });
    out.get(g)!.push({ other: f, vertices: e.vertices });
  }
  for (const list of out.values()) list.sort((x, y) => x.other - y.other || x.vertices[0] - y.vertices[0]);
  return out;
}

function centroid(solid: Solid, ids: ArrayLike<number>): Vec3 {
  const c: Vec3 = [0, 0, 0];
  for (let i = 0; i < ids.length; i++) { const p = point(solid.points, ids[i]); c[0] += p[0]; c[1] += p[1]; c[2] += p[2]; }
  return scale(c, 1 / Math.max(1, ids.length));
}

function radial(p: Vec3, origin: Vec3, axis: Vec3): Vec3 {
  const d = sub(p, origin);
  return sub(d, scale(axis, dot(d, axis)));
}

/** Angle of p about the cylinder map, from its entry edge, in [0, 2pi). */
export function angleOn(c: CylinderMap, p: Vec3): number {
  const d = sub(p, c.origin);
  let phi = Math.atan2(dot(d, c.w0), dot(d, c.u0));
  // vertices on the entry edge may sit a hair before it: only a clearly negative angle wraps
  if (phi < -ANGLE_WRAP) phi += 2 * Math.PI;
  return phi;
}

/** The motion that unrolls the tangent plane at angle phi of the cylinder onto its entry tangent plane. */
function unrollMotion(c: CylinderMap, phi: number): Rigid {
  return compose(translation(scale(c.w0, phi * c.rate)), rotationAbout(c.origin, c.axis, -phi));
}

export function flatPoint(map: FaceMap, p: Vec3): Vec2 {
  const q = map.cylinder ? applyRigid(unrollMotion(map.cylinder, angleOn(map.cylinder, p)), p) : p;
  const r = applyRigid(map.motion, q);
  return [r[0], r[1]];
}

type Join = { kind: 'coplanar' } | { kind: 'tangent' } | { kind: 'sharp'; angle: number; convex: boolean };

/**
 * How g continues the skin from f, or null when g is not skin (a side face, the other skin, a feature).
 * Planes must be sheet planes (an opposite face at t) and bend cylinders must have their opposite skin,
 * so the walk never escapes along a side wall that happens to be tangent or flush with a flange.
 */
function classifyJoin(solid: Solid, f: Face, g: Face, edge: number[], t: number, sheetPlanes: Map<number, Set<number>>, bendSkin: (face: Face) => boolean): Join | null {
  const a = f.surface, b = g.surface;
  if (b.kind === 'plane' && !sheetPlanes.has(g.id)) return null;
  if (b.kind === 'cylinder' && !bendSkin(g)) return null;
  if (a.kind === 'plane' && b.kind === 'plane') {
    const c = dot(a.normal, b.normal);
    if (c > Math.cos(ANGLE_TOLERANCE) && Math.abs(a.offset - b.offset) < DISTANCE_TOLERANCE) return { kind: 'coplanar' };
    const angle = Math.acos(Math.max(-1, Math.min(1, c)));
    if (angle * RAD < MIN_SHARP_BEND_DEGREES || angle * RAD > 180 - MIN_SHARP_BEND_DEGREES) return null;
    // a thickness side face spans exactly t away from the skin; a sharp-bent flange reaches further
    const e0 = point(solid.points, edge[0]);
    let reach = 0;
    for (const v of g.vertices) reach = Math.max(reach, Math.abs(dot(sub(point(solid.points, v), e0), a.normal)));
    if (reach <= t + THICKNESS_TOLERANCE * 10) return null;
    const convex = dot(sub(centroid(solid, g.vertices), e0), a.normal) < 0;
    return { kind: 'sharp', angle, convex };
  }
  if (a.kind === 'plane' && b.kind === 'cylinder') return planeTangent(a, b) ? { kind: 'tangent' } : null;
  if (a.kind === 'cylinder' && b.kind === 'plane') return planeTangent(b, a) ? { kind: 'tangent' } : null;
  if (a.kind === 'cylinder' && b.kind === 'cylinder') {
    if (Math.abs(Math.abs(dot(a.axis, b.axis)) - 1) > ANGLE_TOLERANCE * ANGLE_TOLERANCE) return null;
    const apart = norm(radial(b.origin, a.origin, a.axis));
    // one bend split in two faces: same axis, same radius
    if (apart < DISTANCE_TOLERANCE) return Math.abs(a.radius - b.radius) < DISTANCE_TOLERANCE && a.convex === b.convex ? { kind: 'tangent' } : null;
    // two bends with no flat between: parallel axes, the cylinders touch along the shared edge
    const touching = a.convex === b.convex ? Math.abs(apart - Math.abs(a.radius - b.radius)) : Math.abs(apart - (a.radius + b.radius));
    return touching < DISTANCE_TOLERANCE ? { kind: 'tangent' } : null;
  }
  return null;
}

function planeTangent(p: PlaneSurface, c: CylinderSurface): boolean {
  if (Math.abs(dot(p.normal, c.axis)) > ANGLE_TOLERANCE) return false;
  return Math.abs(Math.abs(dot(p.normal, c.origin) - p.offset) - c.radius) < DISTANCE_TOLERANCE;
}

/** The radius at which a cylinder's opposite skin lies, or null for the outer skin of a sharp-inside bend. */
export function oppositeRadius(c: CylinderSurface, t: number): number | null {
  const want = c.convex ? c.radius - t : c.radius + t;
  return want < SHARP_INNER_RADIUS ? null : want;
}

/** Is there a face (of any fitted type) whose vertices all lie at `radius` from the cylinder's axis? */
export function hasCoaxialFace(solid: Solid, skinFace: number, c: CylinderSurface, radius: number): boolean {
  const P = solid.points, o = c.origin, a = c.axis;
  return solid.faces.some((f) => {
    if (f.id === skinFace || f.vertices.length < 3) return false;
    const step = Math.max(1, Math.floor(f.vertices.length / 64));
    for (let i = 0; i < f.vertices.length; i += step) {
      // norm(radial(p, origin, axis)) on scalars, the same operations in the same order (it runs for
      // every face against every bend cylinder)
      const v = 3 * f.vertices[i];
      const d0 = P[v] - o[0], d1 = P[v + 1] - o[1], d2 = P[v + 2] - o[2];
      const h = d0 * a[0] + d1 * a[1] + d2 * a[2];
      if (Math.abs(hypot3(d0 - a[0] * h, d1 - a[1] * h, d2 - a[2] * h) - radius) > BEND_PAIR_TOLERANCE) return false;
    }
    return true;
  });
}

export function unfoldSkin(solid: Solid, root: number, thickness: number, sheetPlanes: Map<number, Set<number>>, kOverride: number | undefined): Unfolding {
  const t = thickness;
  const bendSkinMemo = new Map<number, boolean>();
  const bendSkin = (face: Face): boolean => {
    if (!bendSkinMemo.has(face.id)) {
      const c = face.surface as CylinderSurface;
      const want = oppositeRadius(c, t);
      bendSkinMemo.set(face.id, want === null ? c.radius <= t + SHARP_INNER_RADIUS : hasCoaxialFace(solid, face.id, c, want));
    }
    return bendSkinMemo.get(face.id)!;
  };
  // a face and its opposite (at t) are two sides of one wall: never both in the skin
  const excluded = new Set<number>(sheetPlanes.get(root) ?? []);
  const edges = edgesByFace(solid);
  const rootFace = solid.faces[root];
  const rootPlane = rootFace.surface as PlaneSurface;
  // root frame: any in-plane basis; the flat is rotated to its enclosing rectangle later
  const [ex, ey] = basisOf(rootPlane.normal);
  const origin = scale(rootPlane.normal, rootPlane.offset);
  const maps = new Map<number, FaceMap>();
  maps.set(root, { face: root, motion: frameToWorld(origin, ex, ey, rootPlane.normal), cylinder: null, bend: null });
  const skin = new Set<number>([root]);
  const bends: UnfoldBend[] = [];
  const treeEdges = new Set<string>();
  const foreign = new Set<number>();
  const unpaired = new Set<number>();
  const queue = [root];
  const kFor = (rin: number) => kOverride ?? defaultKFactor(rin, t);

  while (queue.length > 0) {
    const f = queue.shift()!;
    const fm = maps.get(f)!;
    const face = solid.faces[f];
    for (const e of edges.get(f) ?? []) {
      const g = e.other;
      const gFace = solid.faces[g];
      if (gFace.surface.kind === 'other' || gFace.surface.kind === 'cone') foreign.add(g);
      if (skin.has(g) || excluded.has(g)) continue;
      const join = classifyJoin(solid, face, gFace, e.vertices, t, sheetPlanes, bendSkin);
      if (!join && gFace.surface.kind === 'cylinder' && classifyJoin(solid, face, gFace, e.vertices, t, sheetPlanes, () => true)) unpaired.add(g);
      if (!join) continue;
      skin.add(g);
      for (const o of sheetPlanes.get(g) ?? []) excluded.add(o);
      treeEdges.add(`${f}:${g}`); treeEdges.add(`${g}:${f}`);
      queue.push(g);
      const edgePts = e.vertices.map((v) => point(solid.points, v));
      // motion of the tangent plane where g starts, into the flat
      let entryMotion = fm.motion;
      if (fm.cylinder) {
        let phi = 0;
        for (const p of edgePts) phi += angleOn(fm.cylinder, p);
        entryMotion = compose(fm.motion, unrollMotion(fm.cylinder, phi / edgePts.length));
      }
      if (join.kind === 'coplanar') {
        maps.set(g, { face: g, motion: entryMotion, cylinder: null, bend: null });
      } else if (join.kind === 'tangent' && gFace.surface.kind === 'cylinder') {
        const s = gFace.surface;
        let u0: Vec3 = [0, 0, 0];
        for (const p of edgePts) u0 = add(u0, normalize(radial(p, s.origin, s.axis)));
        u0 = normalize(u0);
        let w0 = normalize(cross(s.axis, u0));
        let side = 0;
        for (const v of gFace.vertices) side += dot(radial(point(solid.points, v), s.origin, s.axis), w0);
        if (side < 0) w0 = scale(w0, -1);
        const axis = cross(u0, w0);
        const continuing = fm.cylinder !== null && fm.bend !== null && face.surface.kind === 'cylinder'
          && norm(radial(s.origin, face.surface.origin, face.surface.axis)) < DISTANCE_TOLERANCE;
        const modelled = Math.max(0, s.convex ? s.radius - t : s.radius);
        const parentBend = continuing ? bends[fm.bend!] : null;
        const cyl: CylinderMap = { origin: s.origin, axis, u0, w0, radius: s.radius, rate: 0 };
        let span = 0, smin = Infinity, smax = -Infinity;
        for (const v of gFace.vertices) {
          const p = point(solid.points, v);
          span = Math.max(span, angleOn(cyl, p));
          const h = dot(sub(p, s.origin), axis);
          smin = Math.min(smin, h); smax = Math.max(smax, h);
        }
        // an (almost) zero inner radius is a sharp bend; the design flat still follows the modelled
        // radius (a closed hem's allowance is angle x (r + K t) of what is drawn): the tooling radius it
        // is made with belongs to the production view (DFM sharp_bend_radius_applied)
        const sharp = !parentBend && modelled < SHARP_INNER_RADIUS;
        const rin = modelled;
        cyl.rate = parentBend ? parentBend.cyl!.rate : rin + kFor(rin) * t;
        let bendIndex: number;
        if (parentBend) {
          parentBend.faces.push(g);
          parentBend.angle += span;
          // axial extent in the first face's parametrisation
          for (const v of gFace.vertices) {
            const h = dot(sub(point(solid.points, v), parentBend.cyl!.origin), parentBend.cyl!.axis);
            parentBend.smin = Math.min(parentBend.smin, h); parentBend.smax = Math.max(parentBend.smax, h);
          }
          bendIndex = parentBend.index;
        } else {
          bendIndex = bends.length;
          bends.push({
            index: bendIndex, faces: [g], anchor: null, sharp, convex: s.convex, angle: span, innerRadius: rin, kFactor: kFor(rin),
            length: 0, line: [[0, 0], [0, 0]], allowance: 0, cyl, motion: entryMotion, smin, smax,
          });
        }
        maps.set(g, { face: g, motion: entryMotion, cylinder: cyl, bend: bendIndex });
      } else if (join.kind === 'tangent') {
        maps.set(g, { face: g, motion: entryMotion, cylinder: null, bend: null });
      } else if (join.kind === 'sharp' && face.surface.kind === 'plane' && gFace.surface.kind === 'plane') {
        const a = face.surface, b = gFace.surface;
        // edge line
        const e0 = edgePts[0];
        const dir = normalize(sub(edgePts[edgePts.length - 1], e0));
        if (norm(dir) === 0) continue;
        // a sharp inside corner whose outside is a bend face of radius t about it is modelled with inner
        // radius 0, and the flat follows that; two planes meeting on both sides say nothing about the
        // radius meant, so that corner is made with the default one, keeping the mold lines
        const rin = outerBendAbout(solid, e0, dir, t) ? 0 : defaultInnerRadius(t);
        const k = kFor(rin);
        const allowance = join.angle * (rin + k * t);
        const setback = (join.convex ? rin + t : rin) * Math.tan(join.angle / 2);
        const gap = allowance - 2 * setback;
        let lo = Infinity, hi = -Infinity;
        for (const p of edgePts) { const h = dot(sub(p, e0), dir); lo = Math.min(lo, h); hi = Math.max(hi, h); }
        // rotate g about the edge so its normal turns onto f's, then open the gap away from f
        const k3 = normalize(cross(b.normal, a.normal));
        const rot = rotationAbout(e0, k3, join.angle);
        let m = normalize(cross(a.normal, dir));
        if (dot(sub(centroid(solid, face.vertices), e0), m) > 0) m = scale(m, -1);
        const local = compose(translation(scale(m, gap)), rot);
        maps.set(g, { face: g, motion: compose(entryMotion, local), cylinder: null, bend: bends.length });
        const pA = add(add(e0, scale(dir, lo)), scale(m, gap / 2)), pB = add(add(e0, scale(dir, hi)), scale(m, gap / 2));
        const qa = applyRigid(entryMotion, pA), qb = applyRigid(entryMotion, pB);
        bends.push({
          index: bends.length, faces: [], anchor: add(e0, scale(dir, (lo + hi) / 2)), sharp: true, convex: join.convex, angle: join.angle, innerRadius: rin, kFactor: k,
          length: hi - lo, line: [[qa[0], qa[1]], [qb[0], qb[1]]], allowance, cyl: null, motion: entryMotion, smin: lo, smax: hi,
        });
      } else {
        skin.delete(g);
      }
    }
  }
  // bend lines of the cylinder bends: the middle of the unrolled strip
  for (const b of bends) {
    if (!b.cyl) continue;
    const c = b.cyl;
    const mid = b.angle / 2;
    const at = (s: number): Vec2 => {
      const p = add(add(c.origin, scale(c.u0, c.radius)), add(scale(c.axis, s), scale(c.w0, mid * c.rate)));
      const q = applyRigid(b.motion, p);
      return [q[0], q[1]];
    };
    b.line = [at(b.smin), at(b.smax)];
    b.length = b.smax - b.smin;
    b.allowance = b.angle * c.rate;
  }
  for (const f of skin) foreign.delete(f);
  return { root, thickness: t, skin, maps, bends, treeEdges, foreignNeighbours: [...foreign].sort((x, y) => x - y), unpairedBends: [...unpaired].sort((x, y) => x - y) };
}

/** Is there a convex cylinder of radius t whose axis is the sharp edge through e0 along dir (the outside of a sharp-inside bend)? */
function outerBendAbout(solid: Solid, e0: Vec3, dir: Vec3, t: number): boolean {
  return solid.faces.some((f) => {
    const c = f.surface;
    if (c.kind !== 'cylinder' || !c.convex || Math.abs(c.radius - t) > BEND_PAIR_TOLERANCE) return false;
    if (Math.abs(Math.abs(dot(c.axis, dir)) - 1) > ANGLE_TOLERANCE) return false;
    return norm(radial(e0, c.origin, c.axis)) < BEND_PAIR_TOLERANCE;
  });
}

/**
 * Skin faces that touch across a non-tree edge (a closed corner: a flange meeting another flange or
 * wall) must be separated in the flat: such edges become cut seams. Returns them as "f:g" keys.
 */
export function findSeams(solid: Solid, u: Unfolding): Set<string> {
  const seams = new Set<string>();
  for (const e of solid.edges) {
    const [f, g] = e.faces;
    if (!u.skin.has(f) || !u.skin.has(g) || u.treeEdges.has(`${f}:${g}`)) continue;
    const mf = u.maps.get(f)!, mg = u.maps.get(g)!;
    for (const v of e.vertices) {
      const p = point(solid.points, v);
      const a = flatPoint(mf, p), b = flatPoint(mg, p);
      if (hypot2(a[0] - b[0], a[1] - b[1]) > CLOSURE_TOLERANCE) { seams.add(`${f}:${g}`); seams.add(`${g}:${f}`); break; }
    }
  }
  return seams;
}

