// Surface relations the tube recogniser needs: parallel to an axis, same surface, and an implicit
// form (value + gradient) to project points onto the intersection curve of two surfaces.
import type { Surface, Vec3 } from '../geometry/model.ts';
import { sub, dot, norm, scale, hypot3 } from '../geometry/vec.ts';
import { PARALLEL_TOLERANCE_DEGREES, SAME_SURFACE_TOLERANCE_MM } from './tolerances.ts';

const PARALLEL_SIN = Math.sin((PARALLEL_TOLERANCE_DEGREES * Math.PI) / 180);

/** norm(cross(a, b)) on scalars (the same operations in the same order): called for every face of
 * every section and surface comparison, where the cross product's array cost more than the test. */
export function parallelDirections(a: Vec3, b: Vec3): boolean {
  return hypot3(a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]) < PARALLEL_SIN;
}
export function perpendicularDirections(a: Vec3, b: Vec3): boolean { return Math.abs(dot(a, b)) < PARALLEL_SIN; }

/** True when the surface is a prism wall along direction d: a plane containing d or a cylinder about d. */
export function runsAlong(s: Surface, d: Vec3): boolean {
  if (s.kind === 'plane') return perpendicularDirections(s.normal, d);
  if (s.kind === 'cylinder') return parallelDirections(s.axis, d);
  return false;
}

/** Distance from point p to the line through o along unit a. */
export function distanceToLine(p: Vec3, o: Vec3, a: Vec3): number {
  // norm(sub(w, scale(a, dot(w, a)))) with w = sub(p, o), on scalars in the same order
  const wx = p[0] - o[0], wy = p[1] - o[1], wz = p[2] - o[2];
  const t = wx * a[0] + wy * a[1] + wz * a[2];
  return hypot3(wx - a[0] * t, wy - a[1] * t, wz - a[2] * t);
}

/** Two faces lie on one geometric surface (a skin split into several B-rep faces). */
export function sameSurface(a: Surface, b: Surface): boolean {
  if (a.kind === 'plane' && b.kind === 'plane') {
    return parallelDirections(a.normal, b.normal) && dot(a.normal, b.normal) > 0 && Math.abs(a.offset - b.offset) < SAME_SURFACE_TOLERANCE_MM;
  }
  if (a.kind === 'cylinder' && b.kind === 'cylinder') {
    return parallelDirections(a.axis, b.axis) && a.convex === b.convex && Math.abs(a.radius - b.radius) < SAME_SURFACE_TOLERANCE_MM
      && distanceToLine(b.origin, a.origin, a.axis) < SAME_SURFACE_TOLERANCE_MM;
  }
  return false;
}

/** Signed implicit value and gradient; null when the surface has no usable implicit form. */
export function implicit(s: Surface, p: Vec3): { f: number; g: Vec3 } | null {
  if (s.kind === 'plane') return { f: dot(s.normal, p) - s.offset, g: s.normal };
  if (s.kind === 'cylinder') {
    const w = sub(p, s.origin);
    const radial = sub(w, scale(s.axis, dot(w, s.axis)));
    const r = norm(radial);
    if (r < 1e-12) return null;
    return { f: r - s.radius, g: scale(radial, 1 / r) };
  }
  if (s.kind === 'cone') {
    const w = sub(p, s.apex);
    const h = dot(w, s.axis);
    const radial = sub(w, scale(s.axis, h));
    const r = norm(radial);
    if (r < 1e-12) return null;
    const a = (s.halfAngleDegrees * Math.PI) / 180;
    return { f: r * Math.cos(a) - h * Math.sin(a), g: sub(scale(radial, Math.cos(a) / r), scale(s.axis, Math.sin(a))) };
  }
  return null;
}

/**
 * A surface's implicit form (implicit()) as plain numbers in one object shape for every kind: the
 * projection's inner loop (the tube cut lengths evaluate it hundreds of thousands of times per file)
 * then reads fields of one shape instead of branching on differently shaped surfaces.
 */
export interface ImplicitForm {
  /** IMPLICIT_NONE (implicit() is null everywhere: a free-form surface), _PLANE, _CYLINDER or _CONE */
  readonly code: number;
  /** plane: the unit normal; cylinder: a point of the axis; cone: the apex (mm) */
  readonly px: number; readonly py: number; readonly pz: number;
  /** cylinder, cone: the unit axis */
  readonly ax: number; readonly ay: number; readonly az: number;
  /** plane: the offset normal . p; cylinder: the radius (mm) */
  readonly k: number;
  /** cone: cosine and sine of the half angle */
  readonly cos: number; readonly sin: number;
}
const IMPLICIT_NONE = 0, IMPLICIT_PLANE = 1, IMPLICIT_CYLINDER = 2, IMPLICIT_CONE = 3;
/** Below this distance from a cylinder's or cone's axis the gradient is undefined, mm. */
const ON_AXIS_MM = 1e-12;

const forms = new WeakMap<Surface, ImplicitForm>();

/** The implicit form of `s` (kept per surface object; a surface is never changed once fitted). */
export function implicitForm(s: Surface): ImplicitForm {
  let f = forms.get(s);
  if (!f) {
    if (s.kind === 'plane') f = { code: IMPLICIT_PLANE, px: s.normal[0], py: s.normal[1], pz: s.normal[2], ax: 0, ay: 0, az: 0, k: s.offset, cos: 0, sin: 0 };
    else if (s.kind === 'cylinder') f = { code: IMPLICIT_CYLINDER, px: s.origin[0], py: s.origin[1], pz: s.origin[2], ax: s.axis[0], ay: s.axis[1], az: s.axis[2], k: s.radius, cos: 0, sin: 0 };
    else if (s.kind === 'cone') {
      // the same expressions implicit() evaluates per point
      const ang = (s.halfAngleDegrees * Math.PI) / 180;
      f = { code: IMPLICIT_CONE, px: s.apex[0], py: s.apex[1], pz: s.apex[2], ax: s.axis[0], ay: s.axis[1], az: s.axis[2], k: 0, cos: Math.cos(ang), sin: Math.sin(ang) };
    } else f = { code: IMPLICIT_NONE, px: 0, py: 0, pz: 0, ax: 0, ay: 0, az: 0, k: 0, cos: 0, sin: 0 };
    forms.set(s, f);
  }
  return f;
}

/** implicit() without allocating: value at out[0], gradient at out[1..3]; false where implicit()
 * gives null. The same operations in the same order as implicit(), so bit-identical. */
function implicitInto(s: ImplicitForm, x: number, y: number, z: number, out: Float64Array): boolean {
  const code = s.code;
  if (code === IMPLICIT_PLANE) {
    out[0] = s.px * x + s.py * y + s.pz * z - s.k;
    out[1] = s.px; out[2] = s.py; out[3] = s.pz;
    return true;
  }
  if (code === IMPLICIT_NONE) return false;
  const ax = s.ax, ay = s.ay, az = s.az;
  const wx = x - s.px, wy = y - s.py, wz = z - s.pz;
  const h = wx * ax + wy * ay + wz * az;
  const rx = wx - ax * h, ry = wy - ay * h, rz = wz - az * h;
  const r = hypot3(rx, ry, rz);
  if (r < ON_AXIS_MM) return false;
  if (code === IMPLICIT_CYLINDER) {
    const inv = 1 / r;
    out[0] = r - s.k;
    out[1] = rx * inv; out[2] = ry * inv; out[3] = rz * inv;
    return true;
  }
  const c = s.cos, sn = s.sin, k = c / r;
  out[0] = r * c - h * sn;
  out[1] = rx * k - ax * sn; out[2] = ry * k - ay * sn; out[3] = rz * k - az * sn;
  return true;
}

/** Newton steps of a projection at most. */
const NEWTON_STEPS = 8;
/** Both implicit values below this: the point is on the curve, mm. */
const ON_CURVE_MM = 1e-11;
/** After the last step both values must be below this, or the curve is not found, mm. */
const NEAR_CURVE_MM = 1e-7;
/** Below this determinant of J J^T (unit gradients: the squared sine of the angle between the
 * surfaces) they are tangent there, no transverse curve to project onto. */
const TANGENT_DET = 1e-6;

const IA = new Float64Array(4), IB = new Float64Array(4);
/** Where projectInto() put its point: x, y, z, and its distance from the point projected,
 * hypot3 of their difference (mm). Read it before the next projection. */
export const PROJECTED = new Float64Array(4);

/** Newton projection of p onto the curve where surfaces a and b meet; null when they are tangent
 * there or the iteration does not settle (then the caller keeps the chord). */
export function projectOntoIntersection(a: Surface, b: Surface, p: Vec3, maxMove: number): Vec3 | null {
  return projectInto(implicitForm(a), implicitForm(b), p[0], p[1], p[2], maxMove) ? [PROJECTED[0], PROJECTED[1], PROJECTED[2]] : null;
}

/** projectOntoIntersection() on scalars: true and the point in PROJECTED, or false. Scalar
 * arithmetic (implicitInto) in the order of the vector form it replaced, so the points are
 * bit-identical. */
export function projectInto(a: ImplicitForm, b: ImplicitForm, px: number, py: number, pz: number, maxMove: number): boolean {
  // most cut edges join a cylinder and a plane: the step is symmetric in a and b (commutative
  // products and two-term sums), so one inlined form serves both orders
  if (a.code === IMPLICIT_CYLINDER && b.code === IMPLICIT_PLANE) return projectCylinderPlane(a, b, px, py, pz, maxMove);
  if (a.code === IMPLICIT_PLANE && b.code === IMPLICIT_CYLINDER) return projectCylinderPlane(b, a, px, py, pz, maxMove);
  let qx = px, qy = py, qz = pz;
  for (let it = 0; it < NEWTON_STEPS; it++) {
    if (!implicitInto(a, qx, qy, qz, IA) || !implicitInto(b, qx, qy, qz, IB)) return false;
    const fa = IA[0], fb = IB[0];
    if (Math.abs(fa) < ON_CURVE_MM && Math.abs(fb) < ON_CURVE_MM) return settle(qx, qy, qz, px, py, pz, maxMove);
    // minimum-norm step: q -= J^T (J J^T)^-1 f with J = [ga; gb]
    const ax = IA[1], ay = IA[2], az = IA[3], bx = IB[1], by = IB[2], bz = IB[3];
    const aa = ax * ax + ay * ay + az * az, ab = ax * bx + ay * by + az * bz, bb = bx * bx + by * by + bz * bz;
    const det = aa * bb - ab * ab;
    if (det < TANGENT_DET) return false;
    const la = (bb * fa - ab * fb) / det, lb = (aa * fb - ab * fa) / det;
    qx = qx - (ax * la + bx * lb); qy = qy - (ay * la + by * lb); qz = qz - (az * la + bz * lb);
  }
  if (!implicitInto(a, qx, qy, qz, IA) || !implicitInto(b, qx, qy, qz, IB) || Math.abs(IA[0]) > NEAR_CURVE_MM || Math.abs(IB[0]) > NEAR_CURVE_MM) return false;
  return settle(qx, qy, qz, px, py, pz, maxMove);
}

/** projectInto() for a cylinder c and a plane n: implicitInto's operations written out (no calls
 * and no scratch arrays in the loop), in the same order, so the same doubles. */
function projectCylinderPlane(c: ImplicitForm, n: ImplicitForm, px: number, py: number, pz: number, maxMove: number): boolean {
  const ox = c.px, oy = c.py, oz = c.pz, ax = c.ax, ay = c.ay, az = c.az, radius = c.k;
  const nx = n.px, ny = n.py, nz = n.pz, offset = n.k;
  let qx = px, qy = py, qz = pz;
  for (let it = 0; it < NEWTON_STEPS; it++) {
    const wx = qx - ox, wy = qy - oy, wz = qz - oz;
    const h = wx * ax + wy * ay + wz * az;
    const rx = wx - ax * h, ry = wy - ay * h, rz = wz - az * h;
    const r = hypot3(rx, ry, rz);
    if (r < ON_AXIS_MM) return false;
    const fc = r - radius;
    const fn = nx * qx + ny * qy + nz * qz - offset;
    if (Math.abs(fc) < ON_CURVE_MM && Math.abs(fn) < ON_CURVE_MM) return settle(qx, qy, qz, px, py, pz, maxMove);
    const inv = 1 / r;
    const gx = rx * inv, gy = ry * inv, gz = rz * inv;
    const cc = gx * gx + gy * gy + gz * gz, cn = gx * nx + gy * ny + gz * nz, nn = nx * nx + ny * ny + nz * nz;
    const det = cc * nn - cn * cn;
    if (det < TANGENT_DET) return false;
    const lc = (nn * fc - cn * fn) / det, ln = (cc * fn - cn * fc) / det;
    qx = qx - (gx * lc + nx * ln); qy = qy - (gy * lc + ny * ln); qz = qz - (gz * lc + nz * ln);
  }
  const wx = qx - ox, wy = qy - oy, wz = qz - oz;
  const h = wx * ax + wy * ay + wz * az;
  const r = hypot3(wx - ax * h, wy - ay * h, wz - az * h);
  if (r < ON_AXIS_MM || Math.abs(r - radius) > NEAR_CURVE_MM || Math.abs(nx * qx + ny * qy + nz * qz - offset) > NEAR_CURVE_MM) return false;
  return settle(qx, qy, qz, px, py, pz, maxMove);
}

function settle(qx: number, qy: number, qz: number, px: number, py: number, pz: number, maxMove: number): boolean {
  const moved = hypot3(qx - px, qy - py, qz - pz);
  if (!(moved <= maxMove)) return false;
  PROJECTED[0] = qx; PROJECTED[1] = qy; PROJECTED[2] = qz; PROJECTED[3] = moved;
  return true;
}
