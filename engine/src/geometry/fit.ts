// Classifies one B-rep face by an exact fit of its tessellation vertices. OCCT puts every vertex
// ON the exact surface (plane residual ~1e-12 mm, cylinder ~1e-8 mm on real exports), so a fit
// within a few tenths of a micron identifies the analytic surface; normals only seed the fits
// (they are averaged and float32 in OCCT's output, and facet normals are chords on coarse meshes).
import type { Vec3, Surface, PlaneSurface, CylinderSurface, ConeSurface } from './model.ts';
import { sub, add, scale, dot, cross, norm, normalize, basisOf, eigenSym3 } from './vec.ts';
import { levenbergMarquardt } from './leastsquares.ts';

/** Largest vertex distance from the fitted surface that still counts as on it, mm. */
export const SURFACE_FIT_TOLERANCE_MM = 2e-4;
/** Additional allowance proportional to the model size (float noise of large coordinates), mm per mm. */
export const SURFACE_FIT_RELATIVE_TOLERANCE = 1e-7;
/** A cone this close to a plane (90 deg) or a cylinder (0 deg) is reported as one, degrees. */
export const CONE_MIN_HALF_ANGLE_DEGREES = 0.5;
export const CONE_MAX_HALF_ANGLE_DEGREES = 89.5;
/** A closed boundary loop winding this close to 360 deg about the axis makes a full cylinder, degrees. */
export const FULL_TURN_TOLERANCE_DEGREES = 1;
/** Vertices used by the iterative fits (evenly subsampled); the residual check uses all. */
const MAX_FIT_POINTS = 240;

const RAD = 180 / Math.PI;

export interface FaceSample {
  /** distinct vertex positions of the face, xyz */
  points: Float64Array;
  /** per triangle: outward unit normal (from positions), area, centroid */
  facets: Array<{ normal: Vec3; area: number; centroid: Vec3 }>;
  /** boundary loops as positions, each closed implicitly */
  loops: Vec3[][];
  /** size of the whole model, mm (for the relative tolerance) */
  modelSize: number;
}

export interface FitResult { surface: Surface; /** max vertex distance from the surface, mm */ residual: number }

function pts(sample: FaceSample): Vec3[] {
  const out: Vec3[] = [];
  for (let i = 0; i < sample.points.length; i += 3) out.push([sample.points[i], sample.points[i + 1], sample.points[i + 2]]);
  return out;
}

function subsample(points: Vec3[]): Vec3[] {
  if (points.length <= MAX_FIT_POINTS) return points;
  const out: Vec3[] = [];
  const step = points.length / MAX_FIT_POINTS;
  for (let i = 0; i < MAX_FIT_POINTS; i++) out.push(points[Math.floor(i * step)]);
  return out;
}

function centroidOf(points: Vec3[]): Vec3 {
  const c: Vec3 = [0, 0, 0];
  for (const p of points) { c[0] += p[0]; c[1] += p[1]; c[2] += p[2]; }
  return scale(c, 1 / points.length);
}

function extentOf(points: Vec3[]): number {
  const lo: Vec3 = [Infinity, Infinity, Infinity], hi: Vec3 = [-Infinity, -Infinity, -Infinity];
  for (const p of points) for (let k = 0; k < 3; k++) { lo[k] = Math.min(lo[k], p[k]); hi[k] = Math.max(hi[k], p[k]); }
  return norm(sub(hi, lo));
}

function areaWeightedNormal(sample: FaceSample): Vec3 {
  let s: Vec3 = [0, 0, 0];
  for (const f of sample.facets) s = add(s, scale(f.normal, f.area));
  return s;
}

export function fitPlane(points: Vec3[], outward: Vec3): { surface: PlaneSurface; residual: number } {
  const c = centroidOf(points);
  const m = [[0, 0, 0], [0, 0, 0], [0, 0, 0]];
  for (const p of points) {
    const d = sub(p, c);
    for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) m[i][j] += d[i] * d[j];
  }
  let n = eigenSym3(m).vectors[0];
  if (dot(n, outward) < 0) n = scale(n, -1);
  let residual = 0;
  for (const p of points) residual = Math.max(residual, Math.abs(dot(n, sub(p, c))));
  return { surface: { kind: 'plane', normal: n, offset: dot(n, c) }, residual };
}

function distanceToAxis(p: Vec3, o: Vec3, a: Vec3): number {
  const d = sub(p, o);
  return norm(sub(d, scale(a, dot(d, a))));
}

/** Circle through 2D points: algebraic (Kasa) fit, good enough to seed the 3D refinement. */
function circle2d(points: Array<[number, number]>): { cx: number; cy: number; r: number } | null {
  let sx = 0, sy = 0;
  for (const [x, y] of points) { sx += x; sy += y; }
  const mx = sx / points.length, my = sy / points.length;
  let suu = 0, svv = 0, suv = 0, suuu = 0, svvv = 0, suvv = 0, svuu = 0;
  for (const [x, y] of points) {
    const u = x - mx, v = y - my;
    suu += u * u; svv += v * v; suv += u * v;
    suuu += u * u * u; svvv += v * v * v; suvv += u * v * v; svuu += v * u * u;
  }
  const det = suu * svv - suv * suv;
  if (Math.abs(det) < 1e-30) return null;
  const b1 = (suuu + suvv) / 2, b2 = (svvv + svuu) / 2;
  const uc = (b1 * svv - b2 * suv) / det, vc = (suu * b2 - suv * b1) / det;
  const r = Math.sqrt(uc * uc + vc * vc + (suu + svv) / points.length);
  return { cx: uc + mx, cy: vc + my, r };
}

interface CylinderParams { axis: Vec3; origin: Vec3; radius: number }

function refineCylinder(points: Vec3[], seed: CylinderParams, size: number): CylinderParams {
  let cur = seed;
  for (let round = 0; round < 2; round++) {
    const [e1, e2] = basisOf(cur.axis);
    const base = cur;
    const param = (t: number[]): CylinderParams => ({
      axis: normalize(add(base.axis, add(scale(e1, t[0]), scale(e2, t[1])))),
      origin: add(base.origin, add(scale(e1, t[2]), scale(e2, t[3]))),
      radius: base.radius + t[4],
    });
    const res = (t: number[]): Float64Array => {
      const c = param(t);
      const out = new Float64Array(points.length);
      for (let i = 0; i < points.length; i++) out[i] = distanceToAxis(points[i], c.origin, c.axis) - c.radius;
      return out;
    };
    const h = 1e-6 * Math.max(size, 1);
    cur = param(levenbergMarquardt(res, [0, 0, 0, 0, 0], { steps: [1e-7, 1e-7, h, h, h] }));
  }
  return cur;
}

function angleAbout(p: Vec3, origin: Vec3, e1: Vec3, e2: Vec3): number {
  const d = sub(p, origin);
  return Math.atan2(dot(d, e2), dot(d, e1));
}

/** Angular extent of the face about the axis, degrees: 360 when a boundary loop winds once around it. */
function angularSpan(sample: FaceSample, points: Vec3[], origin: Vec3, axis: Vec3): number {
  const [e1, e2] = basisOf(axis);
  for (const loop of sample.loops) {
    if (loop.length < 3) continue;
    let turn = 0;
    let prev = angleAbout(loop[loop.length - 1], origin, e1, e2);
    for (const p of loop) {
      const a = angleAbout(p, origin, e1, e2);
      let d = a - prev;
      if (d > Math.PI) d -= 2 * Math.PI;
      if (d < -Math.PI) d += 2 * Math.PI;
      turn += d;
      prev = a;
    }
    if (Math.abs(Math.abs(turn * RAD) - 360) < FULL_TURN_TOLERANCE_DEGREES) return 360;
  }
  const angles = points.map((p) => angleAbout(p, origin, e1, e2)).sort((a, b) => a - b);
  let gap = angles[0] + 2 * Math.PI - angles[angles.length - 1];
  for (let i = 1; i < angles.length; i++) gap = Math.max(gap, angles[i] - angles[i - 1]);
  return (2 * Math.PI - gap) * RAD;
}

export function fitCylinder(sample: FaceSample, points: Vec3[], tolerance: number): { surface: CylinderSurface; residual: number } | null {
  if (points.length < 5 || sample.facets.length < 2) return null;
  // A cylinder's facet normals are all perpendicular to its axis.
  const m = [[0, 0, 0], [0, 0, 0], [0, 0, 0]];
  for (const f of sample.facets) for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) m[i][j] += f.area * f.normal[i] * f.normal[j];
  const axis0 = eigenSym3(m).vectors[0];
  const [e1, e2] = basisOf(axis0);
  const c0 = centroidOf(points);
  const flat = points.map((p): [number, number] => { const d = sub(p, c0); return [dot(d, e1), dot(d, e2)]; });
  const circ = circle2d(flat);
  if (!circ || !Number.isFinite(circ.r)) return null;
  const size = extentOf(points);
  if (circ.r > 1e4 * Math.max(size, 1e-3)) return null;
  const seed: CylinderParams = { axis: axis0, origin: add(c0, add(scale(e1, circ.cx), scale(e2, circ.cy))), radius: circ.r };
  const fitPts = subsample(points);
  let cyl = seed;
  const residualOf = (c: CylinderParams): number => {
    let r = 0;
    for (const p of points) r = Math.max(r, Math.abs(distanceToAxis(p, c.origin, c.axis) - c.radius));
    return r;
  };
  let residual = residualOf(cyl);
  if (residual > tolerance * 1e-3) {
    cyl = refineCylinder(fitPts, seed, size);
    residual = residualOf(cyl);
  }
  if (!(residual <= tolerance) || !(cyl.radius > 0)) return null;
  // Axis origin at the face centroid's projection; axial extent measured from it.
  let axis = cyl.axis;
  const origin = add(cyl.origin, scale(axis, dot(sub(c0, cyl.origin), axis)));
  let convexVote = 0;
  for (const f of sample.facets) {
    const d = sub(f.centroid, origin);
    const radial = sub(d, scale(axis, dot(d, axis)));
    convexVote += f.area * dot(f.normal, radial);
  }
  // Canonical axis direction: first non-zero component positive (stable ids and comparisons).
  const k = Math.abs(axis[0]) > 1e-9 ? 0 : Math.abs(axis[1]) > 1e-9 ? 1 : 2;
  if (axis[k] < 0) axis = scale(axis, -1);
  let axialMin = Infinity, axialMax = -Infinity;
  for (const p of points) { const h = dot(sub(p, origin), axis); axialMin = Math.min(axialMin, h); axialMax = Math.max(axialMax, h); }
  return {
    surface: { kind: 'cylinder', axis, origin, radius: cyl.radius, spanDegrees: angularSpan(sample, points, origin, axis), convex: convexVote > 0, axialMin, axialMax },
    residual,
  };
}

interface ConeParams { apex: Vec3; axis: Vec3; half: number }

function coneDistance(p: Vec3, c: ConeParams): number {
  const d = sub(p, c.apex);
  const h = dot(d, c.axis);
  const rho = norm(sub(d, scale(c.axis, h)));
  return rho * Math.cos(c.half) - h * Math.sin(c.half);
}

export function fitCone(sample: FaceSample, points: Vec3[], tolerance: number): { surface: ConeSurface; residual: number } | null {
  if (points.length < 6 || sample.facets.length < 3) return null;
  // A cone's unit normals all make the same angle with its axis: their tips lie on a plane normal to it.
  const tips = sample.facets.map((f) => f.normal);
  const tc = centroidOf(tips);
  const m = [[0, 0, 0], [0, 0, 0], [0, 0, 0]];
  for (const f of sample.facets) {
    const d = sub(f.normal, tc);
    for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) m[i][j] += f.area * d[i] * d[j];
  }
  const eig = eigenSym3(m);
  if (!(eig.values[1] > 1e-12 * (eig.values[2] || 1))) return null;
  let axis = eig.vectors[0];
  // A point on the axis: closest to every facet's normal line (they all cross the axis).
  const c0 = centroidOf(points);
  const size = extentOf(points);
  const a = [[0, 0, 0], [0, 0, 0], [0, 0, 0]];
  const b: Vec3 = [0, 0, 0];
  const reg = 1e-6;
  for (const f of sample.facets) {
    for (let i = 0; i < 3; i++) {
      for (let j = 0; j < 3; j++) {
        const pij = (i === j ? 1 : 0) - f.normal[i] * f.normal[j];
        a[i][j] += f.area * pij;
        b[i] += f.area * pij * f.centroid[j];
      }
    }
  }
  let totalArea = 0;
  for (const f of sample.facets) totalArea += f.area;
  for (let i = 0; i < 3; i++) { a[i][i] += reg * totalArea; b[i] += reg * totalArea * c0[i]; }
  const q = solve3(a, b);
  if (!q) return null;
  // Points lie on rho = m h + b0 in (axial, radial) coordinates about the axis through q.
  let sh = 0, sr = 0, shh = 0, shr = 0;
  for (const p of points) {
    const d = sub(p, q);
    const h = dot(d, axis), rho = norm(sub(d, scale(axis, h)));
    sh += h; sr += rho; shh += h * h; shr += h * rho;
  }
  const n = points.length;
  const den = n * shh - sh * sh;
  if (Math.abs(den) < 1e-20) return null;
  let slope = (n * shr - sh * sr) / den;
  const intercept = (sr - slope * sh) / n;
  if (Math.abs(slope) < 1e-9) return null;
  let apex = add(q, scale(axis, -intercept / slope));
  if (slope < 0) { axis = scale(axis, -1); slope = -slope; }
  let cone: ConeParams = { apex, axis, half: Math.atan(slope) };
  const fitPts = subsample(points);
  const residualOf = (c: ConeParams): number => { let r = 0; for (const p of points) r = Math.max(r, Math.abs(coneDistance(p, c))); return r; };
  let residual = residualOf(cone);
  if (residual > tolerance * 1e-3) {
    for (let round = 0; round < 2; round++) {
      const [e1, e2] = basisOf(cone.axis);
      const base = cone;
      const param = (t: number[]): ConeParams => ({
        apex: add(base.apex, [t[2], t[3], t[4]]),
        axis: normalize(add(base.axis, add(scale(e1, t[0]), scale(e2, t[1])))),
        half: base.half + t[5],
      });
      const res = (t: number[]): Float64Array => { const c = param(t); const out = new Float64Array(fitPts.length); fitPts.forEach((p, i) => { out[i] = coneDistance(p, c); }); return out; };
      const h = 1e-6 * Math.max(size, 1);
      cone = param(levenbergMarquardt(res, [0, 0, 0, 0, 0, 0], { steps: [1e-7, 1e-7, h, h, h, 1e-7] }));
    }
    residual = residualOf(cone);
  }
  const halfDeg = cone.half * RAD;
  if (!(residual <= tolerance) || halfDeg < CONE_MIN_HALF_ANGLE_DEGREES || halfDeg > CONE_MAX_HALF_ANGLE_DEGREES) return null;
  apex = cone.apex;
  let vote = 0;
  for (const f of sample.facets) vote += f.area * dot(f.normal, cone.axis);
  return { surface: { kind: 'cone', apex, axis: cone.axis, halfAngleDegrees: halfDeg, convex: vote < 0 }, residual };
}

function solve3(a: number[][], b: Vec3): Vec3 | null {
  const det = dot(a[0] as Vec3, cross(a[1] as Vec3, a[2] as Vec3));
  if (Math.abs(det) < 1e-300) return null;
  const c0 = cross(a[1] as Vec3, a[2] as Vec3), c1 = cross(a[2] as Vec3, a[0] as Vec3), c2 = cross(a[0] as Vec3, a[1] as Vec3);
  // inverse of a (symmetric) = [c0 c1 c2] / det, applied to b
  return [
    (c0[0] * b[0] + c1[0] * b[1] + c2[0] * b[2]) / det,
    (c0[1] * b[0] + c1[1] * b[1] + c2[1] * b[2]) / det,
    (c0[2] * b[0] + c1[2] * b[1] + c2[2] * b[2]) / det,
  ];
}

/** Surface of one face: plane, cylinder, cone, else other. */
export function fitSurface(sample: FaceSample): FitResult {
  const points = pts(sample);
  if (points.length < 3) return { surface: { kind: 'other', hint: 'degenerate' }, residual: Infinity };
  const tolerance = SURFACE_FIT_TOLERANCE_MM + SURFACE_FIT_RELATIVE_TOLERANCE * sample.modelSize;
  const plane = fitPlane(points, areaWeightedNormal(sample));
  if (plane.residual <= tolerance) return plane;
  const cyl = fitCylinder(sample, points, tolerance);
  if (cyl) return cyl;
  const cone = fitCone(sample, points, tolerance);
  if (cone) return cone;
  return { surface: { kind: 'other', hint: 'unknown' }, residual: Math.min(plane.residual, Infinity) };
}
