// Classifies one B-rep face by an exact fit of its tessellation vertices. OCCT puts every vertex
// ON the exact surface (plane residual ~1e-12 mm, cylinder ~1e-8 mm on real exports), so a fit
// within a few tenths of a micron identifies the analytic surface; normals only seed the fits
// (they are averaged and float32 in OCCT's output, and facet normals are chords on coarse meshes).
import type { Vec3, Surface, PlaneSurface, CylinderSurface, ConeSurface } from './model.ts';
import { sub, add, scale, dot, cross, norm, normalize, basisOf, eigenSym3, symmetricEigen, hypot2, hypot3 } from './vec.ts';
import { levenbergMarquardt, solveLinear } from './leastsquares.ts';

/** Largest vertex distance from the fitted surface that still counts as on it, mm. */
const SURFACE_FIT_TOLERANCE_MM = 2e-4;
/** Additional allowance proportional to the model size (float noise of large coordinates), mm per mm. */
const SURFACE_FIT_RELATIVE_TOLERANCE = 1e-7;
/** Vertices on an intersection edge (fillet, torus, sphere, B-spline neighbour) sit on the edge's
 * approximate 3D curve, measured up to 8e-4 mm off the exact surface on real SolidWorks exports;
 * a face is still analytic when most vertices fit within SURFACE_FIT_TOLERANCE_MM and none is
 * further than this, mm. */
const EDGE_DEVIATION_TOLERANCE_MM = 2e-3;
/** A file that declares a coarser distance accuracy (Autodesk Fusion: 0.01 mm, "the largest distance
 * between entities at asserted connectivities") has its edge vertices that far off the faces: measured
 * 0.002-0.008 mm on the bend cylinders of real Fusion sheet parts. The allowance follows the file up to
 * this, mm; the core of vertices must still fit within SURFACE_FIT_TOLERANCE_MM. */
const MAX_DECLARED_EDGE_DEVIATION_MM = 0.01;
/** Share of a face's vertices that must fit strictly when some sit on loose edges. */
const MIN_CORE_SHARE = 0.25;
const TRIM_ROUNDS = 5;
/** A cylinder seed whose worst vertex is off by more than this share of the face size is not
 * one: measured at most 7e-4 on real cylinders, 4e-3 to 0.12 on B-spline, torus and sphere faces. */
const SEED_REJECT_RELATIVE = 0.02;
const CYLINDER_LM_ITERATIONS = 60;
/** The cone seed (apex from facet normal lines) is rougher: measured up to 0.05 on real countersinks. */
const CONE_SEED_REJECT_RELATIVE = 0.25;
const MIN_CORE_POINTS = 6;
/** A cone this close to a plane (90 deg) or a cylinder (0 deg) is reported as one, degrees. */
const CONE_MIN_HALF_ANGLE_DEGREES = 0.5;
const CONE_MAX_HALF_ANGLE_DEGREES = 89.5;
/** Where a cylinder already fits a face within the loose allowance, a cone seed this share of
 * CONE_MIN_HALF_ANGLE_DEGREES or flatter is that cylinder: the cone fit (some hundred Levenberg-Marquardt
 * evaluations) is not run. On loose bend cylinders of real Fusion parts the seed measured at most
 * 0.02 deg; a cone the fit would accept (0.5 deg or more) differs from any cylinder by 0.009 mm per mm of
 * axial length, which a face the cylinder fits within 0.01 mm cannot hide beyond its first millimetre. */
const LOOSE_CYLINDER_CONE_SEED_SHARE = 0.1;
/** A closed boundary loop winding this close to 360 deg about the axis makes a full cylinder, degrees. */
export const FULL_TURN_TOLERANCE_DEGREES = 1;
/** Vertices used by the iterative fits (evenly subsampled); the residual check uses all. */
const MAX_FIT_POINTS = 240;
/** Vertices used by the numeric-Jacobian fits (cone, torus hint), which cost more per vertex. */
const MAX_NUMERIC_FIT_POINTS = 96;

const RAD = 180 / Math.PI;

/** A face's triangles as three flat arrays (three small arrays per triangle of every face were the
 * largest share of building a solid's allocations): `count` facets, normal and centroid xyz at 3i. */
export interface Facets { count: number; normals: Float64Array; areas: Float64Array; centroids: Float64Array }

export interface Facet { normal: Vec3; area: number; centroid: Vec3 }

/** The facets as objects, for the fits that run on a few curved faces only. */
function facetList(f: Facets): Facet[] {
  const out: Facet[] = [];
  for (let i = 0; i < f.count; i++) {
    out.push({ normal: [f.normals[3 * i], f.normals[3 * i + 1], f.normals[3 * i + 2]], area: f.areas[i], centroid: [f.centroids[3 * i], f.centroids[3 * i + 1], f.centroids[3 * i + 2]] });
  }
  return out;
}

export interface FaceSample {
  /** distinct vertex positions of the face, xyz */
  points: Float64Array;
  /** per triangle: outward unit normal (from positions), area, centroid */
  facets: Facets;
  /** boundary loops as positions, each closed implicitly */
  loops: Vec3[][];
  /** size of the whole model, mm (for the relative tolerance) */
  modelSize: number;
  /** the distance accuracy the file declares, mm (absent: none) */
  accuracyMm?: number;
}

/** How far a vertex on a loose intersection edge may lie off the face's surface, mm. */
function edgeDeviation(sample: FaceSample): number {
  return Math.max(EDGE_DEVIATION_TOLERANCE_MM, Math.min(MAX_DECLARED_EDGE_DEVIATION_MM, sample.accuracyMm ?? 0));
}

export interface FitResult { surface: Surface; /** max vertex distance from the surface, mm */ residual: number }

function pts(sample: FaceSample): Vec3[] {
  const out: Vec3[] = [];
  for (let i = 0; i < sample.points.length; i += 3) out.push([sample.points[i], sample.points[i + 1], sample.points[i + 2]]);
  return out;
}

function subsample(points: Vec3[], max = MAX_FIT_POINTS): Vec3[] {
  if (points.length <= max) return points;
  const out: Vec3[] = [];
  const step = points.length / max;
  for (let i = 0; i < max; i++) out.push(points[Math.floor(i * step)]);
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
  // add(s, scale(normal, area)) per facet, on scalars
  const { count, normals, areas } = sample.facets;
  let s0 = 0, s1 = 0, s2 = 0;
  for (let i = 0; i < count; i++) { const a = areas[i]; s0 += normals[3 * i] * a; s1 += normals[3 * i + 1] * a; s2 += normals[3 * i + 2] * a; }
  return [s0, s1, s2];
}

/**
 * Refits a surface on the vertices that lie on it exactly, when a first least-squares fit over all
 * vertices is pulled off by vertices of loose intersection edges. Returns null unless a core of
 * vertices fits within `strict` and every vertex within `loose`.
 */
function trimmedRefit<M>(points: Vec3[], first: M, dist: (m: M, p: Vec3) => number, refit: (pts: Vec3[], seed: M) => M | null, strict: number, loose: number): { model: M; residual: number } | null {
  let model = first;
  const worst = (m: M): number => { let r = 0; for (const p of points) r = Math.max(r, Math.abs(dist(m, p))); return r; };
  let residual = worst(model);
  if (residual <= strict) return { model, residual };
  if (residual > 20 * loose || points.length < MIN_CORE_POINTS) return null;
  const needed = Math.max(MIN_CORE_POINTS, Math.ceil(MIN_CORE_SHARE * points.length));
  // Shrink towards the vertices that fit: refit on the best-fitting ones until they are all exact.
  for (let round = 0; round < TRIM_ROUNDS; round++) {
    const byFit = points.map((p) => ({ p, r: Math.abs(dist(model, p)) })).sort((a, b) => a.r - b.r);
    const exact = byFit.filter((x) => x.r <= strict).length;
    const take = round === 0 ? Math.max(needed, Math.ceil(points.length / 2)) : Math.max(needed, exact);
    const next = refit(byFit.slice(0, take).map((x) => x.p), model);
    if (!next) return null;
    model = next;
    const core = points.filter((p) => Math.abs(dist(model, p)) <= strict).length;
    if (round > 0 && core >= needed && core === exact) break;
  }
  const core = points.filter((p) => Math.abs(dist(model, p)) <= strict);
  if (core.length < needed) return null;
  residual = worst(model);
  return residual <= loose ? { model, residual } : null;
}

function fitPlane(points: Vec3[], outward: Vec3): { surface: PlaneSurface; residual: number } {
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

// on scalars: norm(sub(d, scale(a, dot(d, a)))) with d = p - o, the same operations in the same order
function distanceToAxis(p: Vec3, o: Vec3, a: Vec3): number {
  const d0 = p[0] - o[0], d1 = p[1] - o[1], d2 = p[2] - o[2];
  const h = d0 * a[0] + d1 * a[1] + d2 * a[2];
  return hypot3(d0 - a[0] * h, d1 - a[1] * h, d2 - a[2] * h);
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

export interface CylinderParams { axis: Vec3; origin: Vec3; radius: number }

/** Sum of squared radial residuals of a cylinder. */
function cylinderCost(points: Vec3[], c: CylinderParams): number {
  let cost = 0;
  for (const p of points) { const r = distanceToAxis(p, c.origin, c.axis) - c.radius; cost += r * r; }
  return cost;
}

/**
 * Levenberg-Marquardt on (axis tilt u, v; axis shift s, t; radius) with the analytic Jacobian,
 * re-based on the current axis every step. With d = p - o, h = d.a, n the unit radial direction:
 * dr/ds = -n.e1, dr/dt = -n.e2, dr/du = -h n.e1, dr/dv = -h n.e2, dr/dR = -1.
 */
function refineCylinder(points: Vec3[], seed: CylinderParams): CylinderParams {
  let cur = seed;
  let cost = cylinderCost(points, cur);
  let lambda = 1e-3;
  const jtj = [[0, 0, 0, 0, 0], [0, 0, 0, 0, 0], [0, 0, 0, 0, 0], [0, 0, 0, 0, 0], [0, 0, 0, 0, 0]];
  const jtr = [0, 0, 0, 0, 0];
  const row = [0, 0, 0, 0, 0];
  for (let it = 0; it < CYLINDER_LM_ITERATIONS; it++) {
    const [e1, e2] = basisOf(cur.axis);
    for (let i = 0; i < 5; i++) { jtr[i] = 0; for (let j = 0; j < 5; j++) jtj[i][j] = 0; }
    const o = cur.origin, a = cur.axis;
    for (const p of points) {
      // d = p - o, h = d.a, w = d - a h, rho = |w| on scalars (same operations in the same order)
      const d0 = p[0] - o[0], d1 = p[1] - o[1], d2 = p[2] - o[2];
      const h = d0 * a[0] + d1 * a[1] + d2 * a[2];
      const w0 = d0 - a[0] * h, w1 = d1 - a[1] * h, w2 = d2 - a[2] * h;
      const rho = hypot3(w0, w1, w2);
      if (rho === 0) continue;
      const n1 = (w0 * e1[0] + w1 * e1[1] + w2 * e1[2]) / rho, n2 = (w0 * e2[0] + w1 * e2[1] + w2 * e2[2]) / rho;
      const r = rho - cur.radius;
      row[0] = -h * n1; row[1] = -h * n2; row[2] = -n1; row[3] = -n2; row[4] = -1;
      for (let i = 0; i < 5; i++) { jtr[i] -= row[i] * r; for (let j = 0; j < 5; j++) jtj[i][j] += row[i] * row[j]; }
    }
    let accepted = false;
    for (let tries = 0; tries < 8; tries++) {
      const damped = jtj.map((rw, i) => rw.map((v, j) => (i === j ? v + lambda * (v || 1) : v)));
      const delta = solveLinear(damped, jtr);
      if (!delta) { lambda *= 10; continue; }
      const next: CylinderParams = {
        axis: normalize(add(cur.axis, add(scale(e1, delta[0]), scale(e2, delta[1])))),
        origin: add(cur.origin, add(scale(e1, delta[2]), scale(e2, delta[3]))),
        radius: cur.radius + delta[4],
      };
      const nextCost = cylinderCost(points, next);
      if (Number.isFinite(nextCost) && nextCost <= cost) {
        const gain = cost - nextCost;
        cur = next; cost = nextCost; lambda = Math.max(lambda / 10, 1e-12); accepted = true;
        if (gain <= 1e-28 + cost * 1e-12) return cur;
        break;
      }
      lambda *= 10;
    }
    if (!accepted) break;
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

/** Axis from the facet normals (all perpendicular to a cylinder's axis), circle from the points. */
function cylinderSeed(sample: FaceSample, points: Vec3[]): { seed: CylinderParams; c0: Vec3; size: number } | null {
  const { count, normals, areas } = sample.facets;
  if (points.length < 5 || count < 2) return null;
  const m = [[0, 0, 0], [0, 0, 0], [0, 0, 0]];
  for (let t = 0; t < count; t++) for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) m[i][j] += areas[t] * normals[3 * t + i] * normals[3 * t + j];
  const axis0 = eigenSym3(m).vectors[0];
  const [e1, e2] = basisOf(axis0);
  const c0 = centroidOf(points);
  const flat = points.map((p): [number, number] => { const d = sub(p, c0); return [dot(d, e1), dot(d, e2)]; });
  const circ = circle2d(flat);
  if (!circ || !Number.isFinite(circ.r)) return null;
  const size = extentOf(points);
  if (circ.r > 1e4 * Math.max(size, 1e-3)) return null;
  return { seed: { axis: axis0, origin: add(c0, add(scale(e1, circ.cx), scale(e2, circ.cy))), radius: circ.r }, c0, size };
}

function fitCylinder(sample: FaceSample, points: Vec3[], tolerance: number, loose = EDGE_DEVIATION_TOLERANCE_MM): { surface: CylinderSurface; residual: number } | null {
  const seeded = cylinderSeed(sample, points);
  if (!seeded) return null;
  const { seed, c0, size } = seeded;
  const dist = (c: CylinderParams, p: Vec3): number => distanceToAxis(p, c.origin, c.axis) - c.radius;
  let first = seed;
  let seedResidual = 0;
  for (const p of points) seedResidual = Math.max(seedResidual, Math.abs(dist(seed, p)));
  // A seed this far off is no cylinder (torus, sphere, B-spline): skip the iterative fit.
  if (seedResidual > SEED_REJECT_RELATIVE * Math.max(size, seed.radius)) return null;
  if (seedResidual > tolerance * 1e-3) first = refineCylinder(subsample(points), seed);
  const fitted = trimmedRefit(points, first, dist, (pts, s0) => refineCylinder(subsample(pts), s0), tolerance, loose);
  if (!fitted || !(fitted.model.radius > 0)) return null;
  const cyl = fitted.model;
  const residual = fitted.residual;
  // Axis origin at the face centroid's projection; axial extent measured from it.
  let axis = cyl.axis;
  const origin = add(cyl.origin, scale(axis, dot(sub(c0, cyl.origin), axis)));
  let convexVote = 0;
  {
    // area * dot(normal, d - axis dot(d, axis)) with d = centroid - origin, on scalars
    const { count, normals, areas, centroids } = sample.facets;
    const a0 = axis[0], a1 = axis[1], a2 = axis[2];
    for (let i = 0; i < count; i++) {
      const d0 = centroids[3 * i] - origin[0], d1 = centroids[3 * i + 1] - origin[1], d2 = centroids[3 * i + 2] - origin[2];
      const h = d0 * a0 + d1 * a1 + d2 * a2;
      const r0 = d0 - a0 * h, r1 = d1 - a1 * h, r2 = d2 - a2 * h;
      convexVote += areas[i] * (normals[3 * i] * r0 + normals[3 * i + 1] * r1 + normals[3 * i + 2] * r2);
    }
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

/** A cone by apex, unit axis and half angle (radians), with the half angle's cosine and sine. */
interface ConeParams { apex: Vec3; axis: Vec3; half: number; cos: number; sin: number }

const coneParams = (apex: Vec3, axis: Vec3, half: number): ConeParams => ({ apex, axis, half, cos: Math.cos(half), sin: Math.sin(half) });

/** Signed distance of (x, y, z) from the cone, on scalars: the cone fits evaluate it some hundred
 * thousand times per face, and the vector helpers' arrays were most of that (same operations in the
 * same order as sub, dot, scale and norm). */
function coneDistanceXyz(x: number, y: number, z: number, c: ConeParams): number {
  const a = c.axis;
  const d0 = x - c.apex[0], d1 = y - c.apex[1], d2 = z - c.apex[2];
  const h = d0 * a[0] + d1 * a[1] + d2 * a[2];
  const rho = hypot3(d0 - a[0] * h, d1 - a[1] * h, d2 - a[2] * h);
  return rho * c.cos - h * c.sin;
}

function coneDistance(p: Vec3, c: ConeParams): number { return coneDistanceXyz(p[0], p[1], p[2], c); }

function fitCone(sample: FaceSample, points: Vec3[], tolerance: number, loose = EDGE_DEVIATION_TOLERANCE_MM, cylinderFits = false): { surface: ConeSurface; residual: number } | null {
  if (points.length < 6 || sample.facets.count < 3) return null;
  const facets = facetList(sample.facets);
  // A cone's unit normals all make the same angle with its axis: their tips lie on a plane normal to it.
  const tips = facets.map((f) => f.normal);
  const tc = centroidOf(tips);
  const m = [[0, 0, 0], [0, 0, 0], [0, 0, 0]];
  for (const f of facets) {
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
  for (const f of facets) {
    for (let i = 0; i < 3; i++) {
      for (let j = 0; j < 3; j++) {
        const pij = (i === j ? 1 : 0) - f.normal[i] * f.normal[j];
        a[i][j] += f.area * pij;
        b[i] += f.area * pij * f.centroid[j];
      }
    }
  }
  let totalArea = 0;
  for (const f of facets) totalArea += f.area;
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
  if (cylinderFits && Math.atan(Math.abs(slope)) * RAD <= LOOSE_CYLINDER_CONE_SEED_SHARE * CONE_MIN_HALF_ANGLE_DEGREES) return null;
  let apex = add(q, scale(axis, -intercept / slope));
  if (slope < 0) { axis = scale(axis, -1); slope = -slope; }
  let cone = coneParams(apex, axis, Math.atan(slope));
  const refineCone = (pts: Vec3[], seed: ConeParams): ConeParams => {
    const fitPts = subsample(pts, MAX_NUMERIC_FIT_POINTS);
    const n = fitPts.length, xyz = new Float64Array(3 * n);
    for (let i = 0; i < n; i++) { xyz[3 * i] = fitPts[i][0]; xyz[3 * i + 1] = fitPts[i][1]; xyz[3 * i + 2] = fitPts[i][2]; }
    let c0 = seed;
    for (let round = 0; round < 2; round++) {
      const [e1, e2] = basisOf(c0.axis);
      const base = c0;
      const param = (t: number[]): ConeParams => coneParams(
        add(base.apex, [t[2], t[3], t[4]]),
        normalize(add(base.axis, add(scale(e1, t[0]), scale(e2, t[1])))),
        base.half + t[5],
      );
      // param(t) and coneDistanceXyz on scalars, into the buffer Levenberg-Marquardt hands over: the
      // same operations in the same order, without the six small arrays per evaluation
      const ax = base.axis, ap = base.apex;
      const res = (t: number[], into?: Float64Array): Float64Array => {
        const out = into ?? new Float64Array(n);
        const v0 = ax[0] + (e1[0] * t[0] + e2[0] * t[1]), v1 = ax[1] + (e1[1] * t[0] + e2[1] * t[1]), v2 = ax[2] + (e1[2] * t[0] + e2[2] * t[1]);
        const len = hypot3(v0, v1, v2);
        const a0 = len > 0 ? v0 / len : 0, a1 = len > 0 ? v1 / len : 0, a2 = len > 0 ? v2 / len : 0;
        const p0 = ap[0] + t[2], p1 = ap[1] + t[3], p2 = ap[2] + t[4];
        const half = base.half + t[5], cos = Math.cos(half), sin = Math.sin(half);
        for (let i = 0; i < n; i++) {
          const d0 = xyz[3 * i] - p0, d1 = xyz[3 * i + 1] - p1, d2 = xyz[3 * i + 2] - p2;
          const h = d0 * a0 + d1 * a1 + d2 * a2;
          out[i] = hypot3(d0 - a0 * h, d1 - a1 * h, d2 - a2 * h) * cos - h * sin;
        }
        return out;
      };
      const h = 1e-6 * Math.max(size, 1);
      c0 = param(levenbergMarquardt(res, [0, 0, 0, 0, 0, 0], { steps: [1e-7, 1e-7, h, h, h, 1e-7] }));
    }
    return c0;
  };
  let seedResidual = 0;
  for (const p of points) seedResidual = Math.max(seedResidual, Math.abs(coneDistance(p, cone)));
  if (seedResidual > CONE_SEED_REJECT_RELATIVE * size) return null;
  if (seedResidual > tolerance * 1e-3) cone = refineCone(points, cone);
  // where a cylinder fits, only a cone within the strict tolerance is kept (fitSurface): no loose cone is searched for
  const fitted = trimmedRefit(points, cone, (c, p) => coneDistance(p, c), refineCone, tolerance, cylinderFits ? tolerance : loose);
  if (!fitted) return null;
  cone = fitted.model;
  const residual = fitted.residual;
  const halfDeg = cone.half * RAD;
  if (halfDeg < CONE_MIN_HALF_ANGLE_DEGREES || halfDeg > CONE_MAX_HALF_ANGLE_DEGREES) return null;
  apex = cone.apex;
  let vote = 0;
  for (const f of facets) vote += f.area * dot(f.normal, cone.axis);
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

/** Algebraic sphere fit |p|^2 + D.p + E = 0 (linear least squares), for the hint of an 'other' face. */
function fitSphere(points: Vec3[]): { center: Vec3; radius: number; residual: number } | null {
  if (points.length < 5) return null;
  const c = centroidOf(points);
  // normal equations of [x y z 1] . [D E F G] = -(x^2 + y^2 + z^2), centred for conditioning
  const a = Array.from({ length: 4 }, () => [0, 0, 0, 0]);
  const b = [0, 0, 0, 0];
  for (const p of points) {
    const d = sub(p, c);
    const row = [d[0], d[1], d[2], 1];
    const rhs = -(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
    for (let i = 0; i < 4; i++) { b[i] += row[i] * rhs; for (let j = 0; j < 4; j++) a[i][j] += row[i] * row[j]; }
  }
  const x = solveLinear(a, b);
  if (!x) return null;
  const center: Vec3 = [c[0] - x[0] / 2, c[1] - x[1] / 2, c[2] - x[2] / 2];
  const r2 = (x[0] * x[0] + x[1] * x[1] + x[2] * x[2]) / 4 - x[3];
  if (!(r2 > 0)) return null;
  const radius = Math.sqrt(r2);
  let residual = 0;
  for (const p of points) residual = Math.max(residual, Math.abs(norm(sub(p, center)) - radius));
  return { center, radius, residual };
}



/**
 * Torus test for the hint of an 'other' face. Every normal line of a surface of revolution meets
 * its axis: in Pluecker coordinates that is linear, d . m_i + m . d_i = 0, so the axis is the
 * smallest eigenvector of the stacked conditions; the meridian is then a circle in (axial, radial).
 */
/** A torus fitting every vertex this well hints 'torus' (real tori fit to 1e-14 mm; an elliptic
 * B-spline bend came within 3e-4 mm, so the hint needs an exact fit), mm. Only the hint depends on it. */
const TORUS_HINT_TOLERANCE_MM = 1e-5;

/** Worst vertex distance from the best torus, mm (Infinity when no torus can be seeded). */
function torusMeridianError(sample: FaceSample, points: Vec3[]): number {
  if (sample.facets.count < 6 || points.length < 6) return Infinity;
  const m = Array.from({ length: 6 }, () => [0, 0, 0, 0, 0, 0]);
  for (const f of facetList(sample.facets)) {
    const d = f.normal, mo = cross(f.centroid, f.normal);
    const row = [mo[0], mo[1], mo[2], d[0], d[1], d[2]];
    for (let i = 0; i < 6; i++) for (let j = 0; j < 6; j++) m[i][j] += f.area * row[i] * row[j];
  }
  // Minimise with |d| = 1 (else a "line at infinity", d = 0, fits trivially): eliminate the moment
  // m = -M11^-1 M10 d and take the smallest eigenvector of the Schur complement for d.
  const block = (r: number, c: number): number[][] => [0, 1, 2].map((i) => [0, 1, 2].map((j) => m[r + i][c + j]));
  const m11 = block(3, 3), m10 = block(3, 0), m00 = block(0, 0);
  const reg = 1e-12 * (m11[0][0] + m11[1][1] + m11[2][2]);
  const inv = invert3(m11.map((row, i) => row.map((x, j) => (i === j ? x + reg : x))));
  let best = Infinity;
  if (inv) {
    const k = mul3(inv, m10);
    const m01 = block(0, 3);
    const schur = m00.map((row, i) => row.map((x, j) => x - (m01[i][0] * k[0][j] + m01[i][1] * k[1][j] + m01[i][2] * k[2][j])));
    const d = eigenSym3(schur).vectors[0];
    const mo = [0, 1, 2].map((i) => -(k[i][0] * d[0] + k[i][1] * d[1] + k[i][2] * d[2]));
    best = torusFromAxisSeed([d[0], d[1], d[2], mo[0], mo[1], mo[2]], points);
  }
  if (best > TORUS_HINT_TOLERANCE_MM) {
    for (const v of symmetricEigen(m).vectors.slice(0, 2)) {
      best = Math.min(best, torusFromAxisSeed(v, points));
      if (best <= TORUS_HINT_TOLERANCE_MM) break;
    }
  }
  return best;
}

function invert3(a: number[][]): number[][] | null {
  const c0 = cross(a[1] as Vec3, a[2] as Vec3), c1 = cross(a[2] as Vec3, a[0] as Vec3), c2 = cross(a[0] as Vec3, a[1] as Vec3);
  const det = dot(a[0] as Vec3, c0);
  if (!(Math.abs(det) > 1e-300)) return null;
  // rows of the inverse are the columns of [c0 c1 c2] / det
  return [0, 1, 2].map((i) => [c0[i] / det, c1[i] / det, c2[i] / det]);
}

function mul3(a: number[][], b: number[][]): number[][] {
  return [0, 1, 2].map((i) => [0, 1, 2].map((j) => a[i][0] * b[0][j] + a[i][1] * b[1][j] + a[i][2] * b[2][j]));
}

function torusFromAxisSeed(v: number[], points: Vec3[]): number {
  const dir: Vec3 = [v[0], v[1], v[2]];
  const dn = norm(dir);
  if (dn < 1e-9) return Infinity;
  const axis = scale(dir, 1 / dn);
  const moment: Vec3 = scale([v[3], v[4], v[5]], 1 / dn);
  const onAxis = cross(axis, moment); // closest point of the axis line to the origin
  const meridian = points.map((p): [number, number] => { const d = sub(p, onAxis); const h = dot(d, axis); return [h, norm(sub(d, scale(axis, h)))]; });
  const circ = circle2d(meridian);
  if (!circ || !(circ.r > 0)) return Infinity;
  // Refine centre, axis, major and minor radius on the vertex positions.
  const [e1, e2] = basisOf(axis);
  const centre0 = add(onAxis, scale(axis, circ.cx));
  const fitPts = subsample(points, MAX_NUMERIC_FIT_POINTS);
  const torusAt = (t: number[]): { c: Vec3; a: Vec3; R: number; r: number } => ({
    c: add(centre0, add(add(scale(e1, t[2]), scale(e2, t[3])), scale(axis, t[4]))),
    a: normalize(add(axis, add(scale(e1, t[0]), scale(e2, t[1])))),
    R: circ.cy + t[5],
    r: circ.r + t[6],
  });
  const distance = (tor: { c: Vec3; a: Vec3; R: number; r: number }, p: Vec3): number => {
    const d = sub(p, tor.c); const h = dot(d, tor.a); const rho = norm(sub(d, scale(tor.a, h)));
    return hypot2(rho - tor.R, h) - tor.r;
  };
  const hstep = 1e-6 * Math.max(extentOf(points), 1);
  const theta = levenbergMarquardt((t) => { const tor = torusAt(t); return Float64Array.from(fitPts, (p) => distance(tor, p)); }, [0, 0, 0, 0, 0, 0, 0], { steps: [1e-7, 1e-7, hstep, hstep, hstep, hstep, hstep], iterations: 40 });
  const tor = torusAt(theta);
  if (!(tor.r > 0) || !(tor.R > 0)) return Infinity;
  let worst = 0;
  for (const p of points) worst = Math.max(worst, Math.abs(distance(tor, p)));
  return worst;
}

/** Surface of one face: plane, cylinder, cone, else other. */
export function fitSurface(sample: FaceSample): FitResult {
  const points = pts(sample);
  if (points.length < 3) return { surface: { kind: 'other', hint: 'degenerate' }, residual: Infinity };
  const tolerance = SURFACE_FIT_TOLERANCE_MM + SURFACE_FIT_RELATIVE_TOLERANCE * sample.modelSize;
  const outward = areaWeightedNormal(sample);
  const plane = fitPlane(points, outward);
  if (plane.residual <= tolerance) return plane;
  // Exact fits first, so a 0.002 mm fillet stays a cylinder; then the fits that forgive vertices
  // on loose intersection edges.
  // Each fit runs once with the loose allowance; its residual says whether it was exact.
  const loose = edgeDeviation(sample);
  const cyl = fitCylinder(sample, points, tolerance, loose);
  if (cyl && cyl.residual <= tolerance) return cyl;
  const cone = fitCone(sample, points, tolerance, loose, cyl !== null);
  if (cone && cone.residual <= tolerance) return cone;
  const planeDist = (m: PlaneSurface, p: Vec3): number => dot(m.normal, p) - m.offset;
  const trimmed = trimmedRefit(points, plane.surface, planeDist, (pts) => fitPlane(pts, outward).surface, tolerance, loose);
  if (trimmed) return { surface: trimmed.model, residual: trimmed.residual };
  if (cyl) return cyl;
  if (cone) return cone;
  const sphere = fitSphere(points);
  if (sphere && sphere.residual <= EDGE_DEVIATION_TOLERANCE_MM) return { surface: { kind: 'other', hint: 'sphere' }, residual: sphere.residual };
  return { surface: lazyTorusHint(sample, points), residual: plane.residual };
}

/** A free-form face whose hint ('torus' or 'unknown') is worked out when a message first reads it:
 * the torus fit is most of the cost of a face no analytic fit takes, and only refusal messages name it. */
function lazyTorusHint(sample: FaceSample, points: Vec3[]): Surface {
  const surface = { kind: 'other' } as Surface & { hint?: string };
  Object.defineProperty(surface, 'hint', {
    enumerable: true, configurable: true,
    get(): string {
      const hint = torusMeridianError(sample, points) <= TORUS_HINT_TOLERANCE_MM ? 'torus' : 'unknown';
      Object.defineProperty(surface, 'hint', { value: hint, enumerable: true, writable: true, configurable: true });
      return hint;
    },
  });
  return surface;
}

/** The strict fit tolerance of a model this size, mm: a face whose worst vertex is further off was
 * fitted loosely (some vertices on loose intersection edges). */
export function strictFitTolerance(modelSize: number): number {
  return SURFACE_FIT_TOLERANCE_MM + SURFACE_FIT_RELATIVE_TOLERANCE * modelSize;
}

/** A plane counts as tangent to a loosely fitted cylinder when it is this parallel to the axis (|n.a|) ... */
const TANGENT_AXIS_TOLERANCE = 2e-3;
/** ... and lies this close to the radius from the axis, mm (a loose fit is off by up to 0.02 mm). */
const TANGENT_GAP_TOLERANCE_MM = 0.05;
/** The two tangent planes must meet at least at this angle (sine) to fix the axis direction. */
const MIN_TANGENT_PLANES_SINE = Math.sin(1 / RAD);
const TANGENT_RADIUS_ITERATIONS = 40;

/**
 * Refits a loosely fitted cylinder (a bend face whose vertices all lie on loose edges: Autodesk Fusion
 * writes them up to its declared 0.01 mm off) as the cylinder tangent to two exactly fitted planes it
 * meets. A free five-parameter fit through a few loose vertices tilts the axis or misses the radius by
 * 0.01 mm and more (measured: r 4.013 for a 4 mm bend), enough to break the tangency with the flanges
 * and the pairing with the opposite skin. Two tangent planes fix the axis direction and leave one
 * parameter, the radius, which a least-squares fit over every vertex gets far better than the loose
 * edges' deviation. Returns null unless two such planes exist and every vertex lies within `loose`.
 */
export function refitTangentCylinder(sample: FaceSample, fitted: CylinderSurface, planes: PlaneSurface[]): FitResult | null {
  const points = pts(sample);
  const loose = edgeDeviation(sample);
  const tangent = planes.filter((p) => Math.abs(dot(p.normal, fitted.axis)) <= TANGENT_AXIS_TOLERANCE
    && Math.abs(Math.abs(dot(p.normal, fitted.origin) - p.offset) - fitted.radius) <= TANGENT_GAP_TOLERANCE_MM);
  let pair: [PlaneSurface, PlaneSurface] | null = null, best = MIN_TANGENT_PLANES_SINE;
  for (let i = 0; i < tangent.length; i++) {
    for (let j = i + 1; j < tangent.length; j++) {
      const s = norm(cross(tangent[i].normal, tangent[j].normal));
      if (s > best) { best = s; pair = [tangent[i], tangent[j]]; }
    }
  }
  if (!pair) return null;
  let axis = normalize(cross(pair[0].normal, pair[1].normal));
  if (dot(axis, fitted.axis) < 0) axis = scale(axis, -1);
  // the axis lies at the radius from each plane, on the side the fit found: n.c = d + side r
  const side = pair.map((p) => Math.sign(dot(p.normal, fitted.origin) - p.offset));
  const rows = [[...pair[0].normal], [...pair[1].normal], [...axis]];
  const base = solveLinear(rows, [pair[0].offset, pair[1].offset, dot(axis, fitted.origin)]);
  const per = solveLinear(rows, [side[0], side[1], 0]);
  if (!base || !per) return null;
  const flat = (v: Vec3): Vec3 => sub(v, scale(axis, dot(v, axis)));
  const q = points.map((p) => flat(sub(p, base as Vec3)));
  const w = flat(per as Vec3);
  // Gauss-Newton on the radius: e_i(r) = |q_i - r w| - r
  let r = fitted.radius;
  for (let it = 0; it < TANGENT_RADIUS_ITERATIONS; it++) {
    let jj = 0, je = 0;
    for (const qi of q) {
      const v = sub(qi, scale(w, r));
      const len = norm(v);
      if (len === 0) continue;
      const e = len - r, j = -dot(v, w) / len - 1;
      jj += j * j; je += j * e;
    }
    if (!(jj > 0)) return null;
    const step = -je / jj;
    r += step;
    if (Math.abs(step) < 1e-13) break;
  }
  if (!(r > 0)) return null;
  let residual = 0;
  for (const qi of q) residual = Math.max(residual, Math.abs(norm(sub(qi, scale(w, r))) - r));
  if (!(residual <= loose)) return null;
  const onAxis = add(base as Vec3, scale(w, r));
  const c0 = centroidOf(points);
  const origin = add(onAxis, scale(axis, dot(sub(c0, onAxis), axis)));
  const k = Math.abs(axis[0]) > 1e-9 ? 0 : Math.abs(axis[1]) > 1e-9 ? 1 : 2;
  if (axis[k] < 0) axis = scale(axis, -1);
  let axialMin = Infinity, axialMax = -Infinity;
  for (const p of points) { const h = dot(sub(p, origin), axis); axialMin = Math.min(axialMin, h); axialMax = Math.max(axialMax, h); }
  return {
    surface: { kind: 'cylinder', axis, origin, radius: r, spanDegrees: angularSpan(sample, points, origin, axis), convex: fitted.convex, axialMin, axialMax },
    residual,
  };
}
