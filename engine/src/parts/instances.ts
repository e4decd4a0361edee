// Groups the solids of a file into unique parts: two solids are one part when a proper rigid
// motion (rotation + translation, no reflection) maps one onto the other. A mirror image is a
// different part unless the part is itself mirror-symmetric (then a proper rotation maps it too).
import type { Rigid, Solid, Vec3 } from '../geometry/model.ts';
import { add, cross, dot, norm, normalize, scale, sub } from '../geometry/vec.ts';
import { massProperties, type MassProperties } from './mass.ts';
import { rotate } from './rigid.ts';

/** Relative tolerance on volume, area and principal variances for two solids to be candidates. */
export const SIGNATURE_RELATIVE_TOLERANCE = 1e-4;
/** Relative tolerance on one face's area when matching faces. */
export const FACE_AREA_RELATIVE_TOLERANCE = 1e-3;
/** Face centroids of matched faces must agree to this plus the relative allowance, mm. */
export const FACE_POSITION_TOLERANCE_MM = 1e-3;
export const FACE_POSITION_RELATIVE_TOLERANCE = 1e-4;
/** Two principal variances closer than this (relative) make the principal axes ambiguous. */
const DEGENERATE_VARIANCE_RELATIVE = 1e-3;

interface FaceKey { kind: string; area: number; centroid: Vec3 }

export interface SolidSignature {
  mass: MassProperties;
  area: number;
  faceCount: number;
  faces: FaceKey[];
  size: number;
}

export function signatureOf(solid: Solid): SolidSignature {
  const faces: FaceKey[] = solid.faces.map((f) => {
    const c: Vec3 = [0, 0, 0];
    let a = 0;
    for (const t of f.triangles) {
      const i = solid.triangles[t * 3], j = solid.triangles[t * 3 + 1], k = solid.triangles[t * 3 + 2];
      const p: Vec3 = [solid.points[i * 3], solid.points[i * 3 + 1], solid.points[i * 3 + 2]];
      const q: Vec3 = [solid.points[j * 3], solid.points[j * 3 + 1], solid.points[j * 3 + 2]];
      const r: Vec3 = [solid.points[k * 3], solid.points[k * 3 + 1], solid.points[k * 3 + 2]];
      const w = norm(cross(sub(q, p), sub(r, p))) / 2;
      a += w;
      c[0] += (w * (p[0] + q[0] + r[0])) / 3; c[1] += (w * (p[1] + q[1] + r[1])) / 3; c[2] += (w * (p[2] + q[2] + r[2])) / 3;
    }
    return { kind: f.surface.kind, area: a, centroid: a > 0 ? scale(c, 1 / a) : [0, 0, 0] };
  });
  return { mass: massProperties(solid), area: solid.area, faceCount: solid.faces.length, faces, size: norm(sub(solid.bbox.max, solid.bbox.min)) };
}

const close = (a: number, b: number, rel: number, abs = 0): boolean => Math.abs(a - b) <= rel * Math.max(Math.abs(a), Math.abs(b)) + abs;

function signaturesMatch(a: SolidSignature, b: SolidSignature): boolean {
  if (a.faceCount !== b.faceCount) return false;
  if (!close(a.mass.volume, b.mass.volume, SIGNATURE_RELATIVE_TOLERANCE)) return false;
  if (!close(a.area, b.area, SIGNATURE_RELATIVE_TOLERANCE)) return false;
  const scaleV = Math.max(...a.mass.variances, 1e-12);
  for (let k = 0; k < 3; k++) if (!close(a.mass.variances[k], b.mass.variances[k], SIGNATURE_RELATIVE_TOLERANCE, scaleV * 1e-9)) return false;
  return true;
}

type Rotation = Rigid['rotation'];

/** Rotation taking unit vectors a0, a1 (orthonormal) onto b0, b1. */
function rotationBetween(a0: Vec3, a1: Vec3, b0: Vec3, b1: Vec3): Rotation {
  const a2 = cross(a0, a1), b2 = cross(b0, b1);
  // R = B A^T, with A, B the matrices whose columns are the frames
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
  const out: Rotation[] = [];
  const [a0, , a2] = a.mass.axes;
  const [b0, , b2] = b.mass.axes;
  if (!deg01 && !deg12) {
    for (const s0 of [1, -1]) for (const s2 of [1, -1]) out.push(rotationBetween(a0, a2, scale(b0, s0), scale(b2, s2)));
    return out;
  }
  if (deg01 && deg12) return out.concat(anchoredRotations(a, b, null));
  // One unique axis: the rotation about it is fixed by matching a distinctive face.
  const ua = deg01 ? a2 : a0, ub = deg01 ? b2 : b0;
  return anchoredRotations(a, b, [ua, ub]);
}

/** Rotations that map an anchor face of a (far from the centroid) onto each candidate face of b. */
function anchoredRotations(a: SolidSignature, b: SolidSignature, axis: [Vec3, Vec3] | null): Rotation[] {
  const ca = a.mass.centroid, cb = b.mass.centroid;
  const radial = (c: Vec3, centre: Vec3, u: Vec3 | null): Vec3 => { const d = sub(c, centre); return u ? sub(d, scale(u, dot(d, u))) : d; };
  const ua = axis?.[0] ?? null;
  const ordered = a.faces
    .map((f, i) => ({ i, r: norm(radial(f.centroid, ca, ua)) }))
    .filter((x) => x.r > 1e-6 * a.size)
    .sort((x, y) => y.r - x.r);
  const anchor = ordered[0];
  if (!anchor) return [];
  const fa = a.faces[anchor.i];
  const out: Rotation[] = [];
  if (axis) {
    const da = normalize(radial(fa.centroid, ca, axis[0]));
    for (const s of [1, -1]) {
      const ub = scale(axis[1], s);
      for (const fb of b.faces) {
        if (fb.kind !== fa.kind || !close(fb.area, fa.area, FACE_AREA_RELATIVE_TOLERANCE)) continue;
        const rb = radial(fb.centroid, cb, ub);
        if (!close(norm(rb), anchor.r, 1e-3, 1e-3)) continue;
        out.push(rotationBetween(axis[0], da, ub, normalize(rb)));
      }
    }
    return out;
  }
  // Isotropic inertia (cube-like): two anchors fix the rotation.
  const second = ordered.find((x) => norm(cross(normalize(radial(a.faces[x.i].centroid, ca, null)), normalize(radial(fa.centroid, ca, null)))) > 0.1);
  if (!second) return [];
  const fa2 = a.faces[second.i];
  const d1 = normalize(sub(fa.centroid, ca));
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

/** True when every face of a, moved by the motion, lands on a face of b of the same kind and area. */
function facesCoincide(a: SolidSignature, b: SolidSignature, r: Rotation): Vec3 | null {
  const t = sub(b.mass.centroid, rotate(r, a.mass.centroid));
  const tol = FACE_POSITION_TOLERANCE_MM + FACE_POSITION_RELATIVE_TOLERANCE * a.size;
  const used = new Uint8Array(b.faces.length);
  for (const fa of a.faces) {
    const p = add(rotate(r, fa.centroid), t);
    let hit = -1;
    for (let j = 0; j < b.faces.length; j++) {
      const fb = b.faces[j];
      if (used[j] || fb.kind !== fa.kind || !close(fb.area, fa.area, FACE_AREA_RELATIVE_TOLERANCE, 1e-9)) continue;
      if (norm(sub(fb.centroid, p)) <= tol) { hit = j; break; }
    }
    if (hit < 0) return null;
    used[hit] = 1;
  }
  return t;
}

/** The proper rigid motion taking solid a onto solid b, or null when they are different parts. */
export function matchSolids(a: SolidSignature, b: SolidSignature): Rigid | null {
  if (!signaturesMatch(a, b)) return null;
  for (const r of candidateRotations(a, b)) {
    const t = facesCoincide(a, b, r);
    if (t) return { rotation: r, translation: t };
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
    groups.push({ representative: i, members: [{ solid: i, transform: { rotation: [[1, 0, 0], [0, 1, 0], [0, 0, 1]], translation: [0, 0, 0] } }] });
  });
  return groups;
}
