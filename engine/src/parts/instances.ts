// Groups the solids of a file into unique parts: two solids are one part when a proper rigid
// motion (rotation + translation, no reflection) maps one onto the other. A mirror image is a
// different part unless the part is itself mirror-symmetric (then a proper rotation maps it too).
import type { Rigid, Solid, Surface, Vec3 } from '../geometry/model.ts';
import { basisOf, cross, dot, hypot3, norm, normalize, point, scale, sub } from '../geometry/vec.ts';
import { massProperties, type MassProperties } from './mass.ts';
import { applyRigid, IDENTITY, rotate } from './rigid.ts';
import { bestRigid } from './align.ts';

/** Volume, area and principal variances of two tessellations of one part differ by the chords'
 * error (measured ~1e-4 relative on 90 deg bends): candidates within this, relative. */
const SIGNATURE_RELATIVE_TOLERANCE = 3e-3;
/** Loose face match under the principal-frame motion: area (relative) and centroid (relative to size). */
const FACE_AREA_RELATIVE_TOLERANCE = 2e-2;
const FACE_POSITION_RELATIVE_TOLERANCE = 1e-2;
/** Exact check after the motion is refined on the B-rep corners, mm (corners are exact points). */
export const CORNER_MATCH_TOLERANCE_MM = 1e-4;
export const CORNER_MATCH_RELATIVE_TOLERANCE = 1e-6;
/** Analytic surfaces of matched faces agree in direction to this, radians. */
const SURFACE_DIRECTION_TOLERANCE_RAD = 1e-5;
/** Two principal variances closer than this (relative) make the principal axes ambiguous. */
const DEGENERATE_VARIANCE_RELATIVE = 3e-3;

interface FaceKey { kind: string; area: number; centroid: Vec3; surface: Surface }

export interface SolidSignature {
  mass: MassProperties;
  area: number;
  faceCount: number;
  faces: FaceKey[];
  /** welded vertices shared by three or more faces: B-rep vertices, exact in every tessellation */
  corners: Vec3[];
  size: number;
}

export function signatureOf(solid: Solid): SolidSignature {
  const faces: FaceKey[] = solid.faces.map((f) => {
    const c: Vec3 = [0, 0, 0];
    let a = 0;
    const pts = solid.points, tri = solid.triangles, fts = f.triangles;
    for (let i = 0; i < fts.length; i++) {
      const t = fts[i];
      const ip = 3 * tri[t * 3], iq = 3 * tri[t * 3 + 1], ir = 3 * tri[t * 3 + 2];
      const p0 = pts[ip], p1 = pts[ip + 1], p2 = pts[ip + 2], q0 = pts[iq], q1 = pts[iq + 1], q2 = pts[iq + 2], r0 = pts[ir], r1 = pts[ir + 1], r2 = pts[ir + 2];
      // norm(cross(q - p, r - p)) / 2 on scalars: the same operations in the same order
      const u0 = q0 - p0, u1 = q1 - p1, u2 = q2 - p2, v0 = r0 - p0, v1 = r1 - p1, v2 = r2 - p2;
      const w = hypot3(u1 * v2 - u2 * v1, u2 * v0 - u0 * v2, u0 * v1 - u1 * v0) / 2;
      a += w;
      c[0] += (w * (p0 + q0 + r0)) / 3; c[1] += (w * (p1 + q1 + r1)) / 3; c[2] += (w * (p2 + q2 + r2)) / 3;
    }
    return { kind: f.surface.kind, area: a, centroid: a > 0 ? scale(c, 1 / a) : [0, 0, 0], surface: f.surface };
  });
  // faces per welded vertex, counted in a typed array (a Map and a sort of its entries cost more than
  // the rest of the signature); corners in ascending vertex order
  const faceCountOf = new Uint32Array(solid.points.length / 3);
  for (const f of solid.faces) { const vs = f.vertices; for (let i = 0; i < vs.length; i++) faceCountOf[vs[i]]++; }
  const corners: Vec3[] = [];
  for (let v = 0; v < faceCountOf.length; v++) if (faceCountOf[v] >= 3) corners.push(point(solid.points, v));
  return { mass: massProperties(solid), area: solid.area, faceCount: solid.faces.length, faces, corners, size: norm(sub(solid.bbox.max, solid.bbox.min)) };
}

const close = (a: number, b: number, rel: number, abs = 0): boolean => Math.abs(a - b) <= rel * Math.max(Math.abs(a), Math.abs(b)) + abs;

function signaturesMatch(a: SolidSignature, b: SolidSignature): boolean {
  if (a.faceCount !== b.faceCount || a.corners.length !== b.corners.length) return false;
  if (!close(a.mass.volume, b.mass.volume, SIGNATURE_RELATIVE_TOLERANCE)) return false;
  if (!close(a.area, b.area, SIGNATURE_RELATIVE_TOLERANCE)) return false;
  const scaleV = Math.max(...a.mass.variances, 1e-12);
  for (let k = 0; k < 3; k++) if (!close(a.mass.variances[k], b.mass.variances[k], SIGNATURE_RELATIVE_TOLERANCE, scaleV * SIGNATURE_RELATIVE_TOLERANCE)) return false;
  return true;
}

type Rotation = Rigid['rotation'];

/** Rotation taking orthonormal a0, a1 onto orthonormal b0, b1 (and a0 x a1 onto b0 x b1). */
function rotationBetween(a0: Vec3, a1: Vec3, b0: Vec3, b1: Vec3): Rotation {
  const a2 = cross(a0, a1), b2 = cross(b0, b1);
  const r: number[][] = [[0, 0, 0], [0, 0, 0], [0, 0, 0]];
  for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) r[i][j] = b0[i] * a0[j] + b1[i] * a1[j] + b2[i] * a2[j];
  return r as Rotation;
}

/** Candidate proper rotations mapping solid a's principal frame onto b's. */
function candidateRotations(a: SolidSignature, b: SolidSignature): Rotation[] {
  const va = a.mass.variances;
  const top = Math.max(va[2], 1e-12);
  const deg01 = Math.abs(va[1] - va[0]) <= DEGENERATE_VARIANCE_RELATIVE * top;
  const deg12 = Math.abs(va[2] - va[1]) <= DEGENERATE_VARIANCE_RELATIVE * top;
  const [a0, , a2] = a.mass.axes;
  const [b0, , b2] = b.mass.axes;
  if (!deg01 && !deg12) {
    const out: Rotation[] = [];
    for (const s0 of [1, -1]) for (const s2 of [1, -1]) out.push(rotationBetween(a0, a2, scale(b0, s0), scale(b2, s2)));
    return out;
  }
  if (deg01 && deg12) return anchoredRotations(a, b, null);
  // One unique axis: the rotation about it is fixed by matching a distinctive face.
  return deg01 ? anchoredRotations(a, b, [a2, b2]) : anchoredRotations(a, b, [a0, b0]);
}

/**
 * A part whose faces all centre on its axis (a plain tube, a washer, a disc): the exact corners
 * (seam vertices) fix the turn about the axis; without any off-axis corner every turn is the same.
 */
function revolutionRotations(a: SolidSignature, b: SolidSignature, axis: [Vec3, Vec3]): Rotation[] {
  const ca = a.mass.centroid, cb = b.mass.centroid;
  const looseR = FACE_POSITION_RELATIVE_TOLERANCE * a.size;
  const split = (c: Vec3, centre: Vec3, u: Vec3): { h: number; radial: Vec3 } => { const d = sub(c, centre); const h = dot(d, u); return { h, radial: sub(d, scale(u, h)) }; };
  const out: Rotation[] = [];
  const anchor = a.corners.map((c) => split(c, ca, axis[0])).sort((x, y) => norm(y.radial) - norm(x.radial))[0];
  for (const s of [1, -1]) {
    const ub = scale(axis[1], s);
    if (!anchor || norm(anchor.radial) <= 1e-6 * a.size) {
      out.push(rotationBetween(axis[0], basisOf(axis[0])[0], ub, basisOf(ub)[0]));
      continue;
    }
    const da = normalize(anchor.radial);
    for (const c of b.corners) {
      const sb = split(c, cb, ub);
      if (Math.abs(sb.h - anchor.h) > looseR || Math.abs(norm(sb.radial) - norm(anchor.radial)) > looseR) continue;
      out.push(rotationBetween(axis[0], da, ub, normalize(sb.radial)));
      if (out.length > 64) return out;
    }
  }
  return out;
}

/** Rotations that map an anchor face of a (far from the centroid) onto each candidate face of b. */
function anchoredRotations(a: SolidSignature, b: SolidSignature, axis: [Vec3, Vec3] | null): Rotation[] {
  const ca = a.mass.centroid, cb = b.mass.centroid;
  const radial = (c: Vec3, centre: Vec3, u: Vec3 | null): Vec3 => { const d = sub(c, centre); return u ? sub(d, scale(u, dot(d, u))) : d; };
  const ua = axis?.[0] ?? null;
  const ordered = a.faces
    .map((f, i) => ({ i, r: norm(radial(f.centroid, ca, ua)) }))
    .filter((x) => x.r > 1e-3 * a.size)
    .sort((x, y) => y.r - x.r);
  const anchor = ordered[0];
  if (!anchor) return axis ? revolutionRotations(a, b, axis) : [];
  const fa = a.faces[anchor.i];
  const looseR = FACE_POSITION_RELATIVE_TOLERANCE * a.size;
  const out: Rotation[] = [];
  if (axis) {
    const da = normalize(radial(fa.centroid, ca, axis[0]));
    for (const s of [1, -1]) {
      const ub = scale(axis[1], s);
      for (const fb of b.faces) {
        if (fb.kind !== fa.kind || !close(fb.area, fa.area, FACE_AREA_RELATIVE_TOLERANCE)) continue;
        const rb = radial(fb.centroid, cb, ub);
        if (Math.abs(norm(rb) - anchor.r) > looseR) continue;
        out.push(rotationBetween(axis[0], da, ub, normalize(rb)));
      }
    }
    return out;
  }
  // Isotropic inertia (cube-like): two anchors fix the rotation.
  const d1 = normalize(sub(fa.centroid, ca));
  const second = ordered.find((x) => norm(cross(normalize(sub(a.faces[x.i].centroid, ca)), d1)) > 0.1);
  if (!second) return [];
  const fa2 = a.faces[second.i];
  const d2 = normalize(sub(sub(fa2.centroid, ca), scale(d1, dot(sub(fa2.centroid, ca), d1))));
  for (const fb of b.faces) {
    if (fb.kind !== fa.kind || !close(fb.area, fa.area, FACE_AREA_RELATIVE_TOLERANCE)) continue;
    for (const fb2 of b.faces) {
      if (fb2 === fb || fb2.kind !== fa2.kind || !close(fb2.area, fa2.area, FACE_AREA_RELATIVE_TOLERANCE)) continue;
      const e1 = normalize(sub(fb.centroid, cb));
      const e2 = normalize(sub(sub(fb2.centroid, cb), scale(e1, dot(sub(fb2.centroid, cb), e1))));
      out.push(rotationBetween(d1, d2, e1, e2));
      if (out.length > 64) return out;
    }
  }
  return out;
}

function sameSurface(sa: Surface, sb: Surface, m: Rigid, tol: number): boolean {
  if (sa.kind !== sb.kind) return false;
  const parallel = (u: Vec3, v: Vec3): boolean => norm(cross(u, v)) <= SURFACE_DIRECTION_TOLERANCE_RAD;
  if (sa.kind === 'plane' && sb.kind === 'plane') {
    const n = rotate(m.rotation, sa.normal);
    if (dot(n, sb.normal) < 0 || !parallel(n, sb.normal)) return false;
    return Math.abs(dot(sb.normal, applyRigid(m, scale(sa.normal, sa.offset))) - sb.offset) <= tol;
  }
  if (sa.kind === 'cylinder' && sb.kind === 'cylinder') {
    if (Math.abs(sa.radius - sb.radius) > tol || sa.convex !== sb.convex) return false;
    const u = rotate(m.rotation, sa.axis);
    if (!parallel(u, sb.axis)) return false;
    const d = sub(applyRigid(m, sa.origin), sb.origin);
    return norm(sub(d, scale(sb.axis, dot(d, sb.axis)))) <= tol;
  }
  if (sa.kind === 'cone' && sb.kind === 'cone') {
    if (Math.abs(sa.halfAngleDegrees - sb.halfAngleDegrees) > 1e-3 || sa.convex !== sb.convex) return false;
    const u = rotate(m.rotation, sa.axis);
    return dot(u, sb.axis) > 0 && parallel(u, sb.axis) && norm(sub(applyRigid(m, sa.apex), sb.apex)) <= tol * 10;
  }
  return true;
}

/** Pairs every face of a, moved by m, with a face of b of the same kind, area and place; exact
 * additionally requires the analytic surfaces to coincide. */
function facesCoincide(a: SolidSignature, b: SolidSignature, m: Rigid, exactTol: number | null): boolean {
  const looseTol = FACE_POSITION_RELATIVE_TOLERANCE * a.size;
  const used = new Uint8Array(b.faces.length);
  for (const fa of a.faces) {
    const p = applyRigid(m, fa.centroid);
    let hit = -1;
    for (let j = 0; j < b.faces.length; j++) {
      const fb = b.faces[j];
      if (used[j] || fb.kind !== fa.kind || !close(fb.area, fa.area, FACE_AREA_RELATIVE_TOLERANCE, 1e-9)) continue;
      if (norm(sub(fb.centroid, p)) > looseTol) continue;
      if (exactTol !== null && !sameSurface(fa.surface, fb.surface, m, exactTol)) continue;
      hit = j;
      break;
    }
    if (hit < 0) return false;
    used[hit] = 1;
  }
  return true;
}

/** Refines a rough motion on the exact B-rep corners; null when the corners do not correspond. */
function refineOnCorners(a: SolidSignature, b: SolidSignature, rough: Rigid, tol: number): Rigid | null {
  if (a.corners.length < 3) return rough;
  const looseTol = FACE_POSITION_RELATIVE_TOLERANCE * a.size;
  const to: Vec3[] = [];
  const used = new Uint8Array(b.corners.length);
  for (const c of a.corners) {
    const p = applyRigid(rough, c);
    let best = -1, bestD = looseTol;
    for (let j = 0; j < b.corners.length; j++) {
      if (used[j]) continue;
      const d = norm(sub(b.corners[j], p));
      if (d <= bestD) { best = j; bestD = d; }
    }
    if (best < 0) return null;
    used[best] = 1;
    to.push(b.corners[best]);
  }
  const exact = bestRigid(a.corners, to);
  for (let i = 0; i < a.corners.length; i++) if (norm(sub(applyRigid(exact, a.corners[i]), to[i])) > tol) return null;
  return exact;
}

/** The proper rigid motion taking solid a onto solid b, or null when they are different parts. */
export function matchSolids(a: SolidSignature, b: SolidSignature): Rigid | null {
  if (!signaturesMatch(a, b)) return null;
  const tol = CORNER_MATCH_TOLERANCE_MM + CORNER_MATCH_RELATIVE_TOLERANCE * a.size;
  for (const r of candidateRotations(a, b)) {
    const rough: Rigid = { rotation: r, translation: sub(b.mass.centroid, rotate(r, a.mass.centroid)) };
    if (!facesCoincide(a, b, rough, null)) continue;
    const exact = refineOnCorners(a, b, rough, tol);
    if (!exact) continue;
    if (a.corners.length < 3 || facesCoincide(a, b, exact, tol)) return exact;
  }
  return null;
}

export interface InstanceGroup {
  /** index of the solid that stands for the part */
  representative: number;
  /** every solid of the part (the representative first), with the motion representative -> it */
  members: Array<{ solid: number; transform: Rigid }>;
}

/** Unique parts in first-seen order; each solid belongs to exactly one group. */
export function groupInstances(solids: Solid[]): InstanceGroup[] {
  const sigs = solids.map(signatureOf);
  const groups: InstanceGroup[] = [];
  solids.forEach((_, i) => {
    for (const g of groups) {
      const m = matchSolids(sigs[g.representative], sigs[i]);
      if (m) { g.members.push({ solid: i, transform: m }); return; }
    }
    groups.push({ representative: i, members: [{ solid: i, transform: IDENTITY }] });
  });
  return groups;
}
