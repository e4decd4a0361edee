// Tube recognition: straight round, square and rectangular tubes with their profile, wall,
// length and every contour cut through the wall. A tube-like solid that is not a straight tube of
// constant section (solid bar, bent tube, varying section) is refused with the reason; anything
// else returns null so the sheet recogniser can try.
import type { Solid, TubeAnalysis, Refusal, Surface, Vec3, TubeFeature, RecognitionWarning } from '../geometry/model.ts';
import { dot, basisOf, point } from '../geometry/vec.ts';
import { candidateAxes, extentAlong } from './axes.ts';
import { faceOfTriangles, sliceMesh, classifySection, projectAlong, type SectionLoop } from './section.ts';
import { runsAlong, sameSurface, parallelDirections, distanceToLine } from './surfaces.ts';
import { measureProfile } from './profile.ts';
import { diameterRuns, describeRuns } from './diameters.ts';
import { skinBoundaryLoops, loopLength, windingAboutAxis, classifyInteriorLoop, classifyEndLoop } from './cuts.ts';
import { SECTION_STATIONS, MAX_WALL_FRACTION, BAR_MIN_ASPECT, SAME_SURFACE_TOLERANCE_MM, COAXIAL_TOLERANCE_MM, FULL_RING_DEGREES } from './tolerances.ts';

export { candidateAxes } from './axes.ts';

type Outcome = TubeAnalysis | Refusal | null;

const fmt = (v: number) => Number(v.toFixed(2)).toString();

function refuse(message: string): Refusal {
  return { kind: 'refused', reason: 'not_a_tube', message, process: 'tube_laser' };
}

/** Distinct surfaces (by geometry) of a set of faces. */
function surfaceClasses(solid: Solid, faces: Iterable<number>): Surface[] {
  const out: Surface[] = [];
  for (const f of faces) {
    const s = solid.faces[f].surface;
    if (!out.some((o) => sameSurface(o, s))) out.push(s);
  }
  return out;
}

function describeSurface(s: Surface): string {
  if (s.kind === 'cylinder') return `${s.convex ? 'outer' : 'inner'} cylinder Ø${fmt(2 * s.radius)}`;
  if (s.kind === 'cone') return `cone of half-angle ${fmt(s.halfAngleDegrees)}°`;
  if (s.kind === 'plane') return 'plane';
  return `${s.hint && s.hint !== 'unknown' ? s.hint : 'curved'} face`;
}

/** Why a wall face seen in a ring section does not run along the axis. */
function crookedWallMessage(s: Surface): string {
  if (s.kind === 'cone') return 'the tube has a varying section: its wall is conical (tapered), not parallel to the axis';
  if (s.kind === 'cylinder') return `the tube is bent: part of its wall (${describeSurface(s)}) runs along another axis`;
  if (s.kind === 'plane') return 'the tube has a varying section: a wall face is inclined to the axis';
  return `the tube is bent or its section varies: its wall includes a ${describeSurface(s)} that is not straight along the axis`;
}

function sameClassSet(a: Surface[], b: Surface[]): boolean {
  return a.length === b.length && a.every((s) => b.some((t) => sameSurface(s, t)));
}

function sectionSizeSummary(solid: Solid, outer: SectionLoop, inner: SectionLoop): string {
  return surfaceClasses(solid, [...outer.faces, ...inner.faces]).map(describeSurface).join(', ');
}

/** A solid prism along d: a bar (refused) or a plate-like part (null, for the sheet recogniser). */
function judgeSolidPrism(solid: Solid, loops: SectionLoop[], d: Vec3, length: number): Outcome {
  const faces = new Set<number>();
  for (const l of loops) for (const f of l.faces) faces.add(f);
  const classes = surfaceClasses(solid, faces);
  if (!classes.every((s) => runsAlong(s, d))) return null;
  const cyl = classes.filter((s) => s.kind === 'cylinder');
  if (classes.length === 1 && cyl.length === 1 && cyl[0].kind === 'cylinder' && cyl[0].convex) {
    const dia = 2 * cyl[0].radius;
    if (length >= dia) return refuse(`solid round bar Ø${fmt(dia)} x ${fmt(length)} mm: it has no bore, so it is not a tube`);
    return null;
  }
  const planes = classes.filter((s) => s.kind === 'plane');
  if (planes.length === 4 && cyl.every((c) => c.kind === 'cylinder' && c.convex) && (cyl.length === 0 || cyl.length === 4)) {
    const sizes: number[] = [];
    for (const p of planes) {
      if (p.kind !== 'plane') continue;
      const q = planes.find((o) => o !== p && o.kind === 'plane' && parallelDirections(o.normal, p.normal) && dot(o.normal, p.normal) < 0);
      if (q && q.kind === 'plane') sizes.push(Math.abs(p.offset + q.offset));
    }
    if (sizes.length !== 4) return null;
    const big = Math.max(...sizes), small = Math.min(...sizes);
    if (small / big >= BAR_MIN_ASPECT && length >= big) return refuse(`solid bar ${fmt(big)} x ${fmt(small)} x ${fmt(length)} mm: it has no bore, so it is not a tube`);
  }
  return null;
}

/** Faces lying on one of the given skin surfaces and running along d. */
function skinFaces(solid: Solid, classes: Surface[], d: Vec3): Set<number> {
  const out = new Set<number>();
  for (const f of solid.faces) if (runsAlong(f.surface, d) && classes.some((c) => sameSurface(c, f.surface))) out.add(f.id);
  return out;
}

/** Stations sliced first, as fractions of the length. */
const PROBE_STATIONS = [0.5, 0.25, 0.75, 0.1, 0.9];

function probeAxis(solid: Solid, faceOfTri: Int32Array, d: Vec3): Outcome {
  const [u, v] = basisOf(d);
  const { min, max } = extentAlong(solid, d);
  const span = max - min;
  if (!(span > 0)) return null;
  const along = projectAlong(solid, d);
  const section = (x: number) => {
    const { loops, broken } = sliceMesh(solid, faceOfTri, d, u, v, x, along);
    return { x, loops, broken, ...classifySection(loops) };
  };
  // cheap rejection first: a few spread stations must show a ring (tube) or all be one simple
  // loop (bar, plate seen edge-on); anything else is not tube-like along this axis
  const at = (k: number) => min + (span * (k + 0.5)) / SECTION_STATIONS;
  const probe = PROBE_STATIONS.map((f) => Math.round(f * (SECTION_STATIONS - 1)));
  const first = probe.map((k) => section(at(k)));
  if (!first.some((s) => s.kind === 'annulus' || s.kind === 'solid')) return null;
  const sections = [...first, ...Array.from({ length: SECTION_STATIONS }, (_, k) => k).filter((k) => !probe.includes(k)).map((k) => section(at(k)))]
    .sort((a, b) => a.x - b.x);
  const rings = sections.filter((s) => s.kind === 'annulus' && !s.broken);
  if (rings.length === 0) {
    const solidSections = sections.filter((s) => s.kind === 'solid');
    if (solidSections.length === sections.length) return judgeSolidPrism(solid, solidSections.flatMap((s) => (s.outer ? [s.outer] : [])), d, span);
    return null;
  }

  // Ring sections made only of straight walls are the evidence of a straight tube. The most common
  // set of walls defines the profile; only once a genuine thin-walled tube is found do other ring
  // sections (bent run, other diameter, taper) turn into a refusal rather than "not a tube".
  const straight = rings.filter((r) => [...r.outer!.faces, ...r.inner!.faces].every((f) => runsAlong(solid.faces[f].surface, d)));
  const crooked = rings.filter((r) => !straight.includes(r));
  if (straight.length === 0) {
    const walls = surfaceClasses(solid, crooked.flatMap((r) => [...r.outer!.faces, ...r.inner!.faces]));
    const revolved = walls.every((w) => (w.kind === 'cone' || w.kind === 'cylinder') && parallelDirections(w.axis, d));
    if (revolved && walls.some((w) => w.kind === 'cone')) return refuse(crookedWallMessage(walls.find((w) => w.kind === 'cone')!));
    return null;
  }
  const groups: Array<{ outer: Surface[]; inner: Surface[]; rings: typeof straight }> = [];
  for (const r of straight) {
    const outer = surfaceClasses(solid, r.outer!.faces), inner = surfaceClasses(solid, r.inner!.faces);
    const g = groups.find((x) => sameClassSet(x.outer, outer) && sameClassSet(x.inner, inner));
    if (g) g.rings.push(r); else groups.push({ outer, inner, rings: [r] });
  }
  groups.sort((a, b) => b.rings.length - a.rings.length);
  const main = groups[0];

  const measured = measureProfile(main.outer, main.inner, d);
  if (!measured.ok) return crooked.length === 0 && groups.length === 1 ? refuse(`not a round or rectangular tube: ${measured.message}`) : null;
  const p = measured.profile;
  const smallSide = p.outerDiameter ?? Math.min(p.outerWidth!, p.outerHeight!);
  // a thick ring or a plate with a cut-out seen edge-on is not tube stock
  if (p.wall > MAX_WALL_FRACTION * smallSide || span < 2 * p.wall) return null;
  if (crooked.length > 0) {
    const walls = [...crooked[0].outer!.faces, ...crooked[0].inner!.faces].map((f) => solid.faces[f].surface);
    // a round tube's runs give the bend angle; otherwise say what the wall turns into
    return bentTubeRefusal(solid) ?? refuse(crookedWallMessage(walls.find((w) => !runsAlong(w, d))!));
  }
  if (groups.length > 1) {
    const other = groups[1].rings[0], ref = main.rings[0];
    if (p.profile === 'round') {
      const outerRuns = diameterRuns(solid, d, p.center, along, min, true), boreRuns = diameterRuns(solid, d, p.center, along, min, false);
      return refuse(`the tube has a varying section along its length: outer ${describeRuns(outerRuns)}; bore ${describeRuns(boreRuns)}`);
    }
    return refuse(`the tube has a varying section: at ${fmt(ref.x - min)} mm from the end it is bounded by ${sectionSizeSummary(solid, ref.outer!, ref.inner!)}, at ${fmt(other.x - min)} mm by ${sectionSizeSummary(solid, other.outer!, other.inner!)}`);
  }

  const outerSkin = skinFaces(solid, main.outer, d);
  const innerSkin = skinFaces(solid, main.inner, d);
  // everything else must be a cut through the wall: touching both skins
  for (const f of solid.faces) {
    if (outerSkin.has(f.id) || innerSkin.has(f.id)) continue;
    const touchesOuter = f.neighbours.some((n) => outerSkin.has(n)), touchesInner = f.neighbours.some((n) => innerSkin.has(n));
    if (touchesOuter && touchesInner) continue;
    const s = f.surface;
    if (s.kind === 'other' || s.kind === 'cone') return refuse(crookedWallMessage(s));
    if (s.kind === 'cylinder' && p.outerDiameter !== null
      && (Math.abs(2 * s.radius - p.outerDiameter) < 2 * SAME_SURFACE_TOLERANCE_MM || Math.abs(2 * s.radius - (p.outerDiameter - 2 * p.wall)) < 2 * SAME_SURFACE_TOLERANCE_MM)) {
      return refuse(crookedWallMessage(s));
    }
    return null;
  }

  // cut contours first: the points refined onto the exact curves also give the exact extent
  // along the axis (a miter or cope tip rarely falls on a mesh vertex)
  let lo = min, hi = max;
  const contours = skinBoundaryLoops(solid, faceOfTri, outerSkin).map((edges) => {
    let cLo = Infinity, cHi = -Infinity;
    const see = (q: Vec3) => { const xq = dot(d, q); if (xq < cLo) cLo = xq; if (xq > cHi) cHi = xq; };
    for (const e of edges) see(point(solid.points, e.a));
    const { length: len, exact } = loopLength(solid, edges, see);
    lo = Math.min(lo, cLo); hi = Math.max(hi, cHi);
    return { edges, len, exact, cLo, cHi };
  });
  const length = hi - lo;

  // normalized frame: axis on X from x = 0, section centred on the X axis, width along Y
  const rotation: [Vec3, Vec3, Vec3] = [d, p.e2, p.e3];
  const translation: Vec3 = [-lo, -dot(p.center, p.e2), -dot(p.center, p.e3)];

  const warnings: RecognitionWarning[] = [];
  const features: TubeFeature[] = [];
  let cutLength = 0, approximate = false, endLoops = 0;
  for (const { edges, len, exact, cLo, cHi } of contours) {
    cutLength += len;
    approximate ||= !exact;
    const x = (cLo + cHi) / 2 - lo;
    const winding = Math.abs(windingAboutAxis(solid, edges, p.center, p.e2, p.e3));
    const faceIds = [...new Set(edges.map((e) => e.cutFace).filter((f) => f >= 0))].sort((a, b) => a - b);
    if (winding > 0.5) {
      endLoops++;
      const end = x < length / 2 ? 'start' : 'end';
      const { angleDegrees, notched } = classifyEndLoop(solid, edges, d);
      features.push({ id: 0, kind: 'end_cut', end, angleDegrees, x, cutLength: len, faceIds });
      if (notched) features.push({ id: 0, kind: 'notch', end, x });
    } else {
      const c = classifyInteriorLoop(solid, edges);
      features.push({
        id: 0, kind: c.kind, x, aroundDegrees: aroundAxis(solid, edges.map((e) => e.a), p.center, p.e2, p.e3), cutLength: len, faceIds,
        ...(c.diameter !== undefined ? { diameter: c.diameter } : {}), ...(c.width !== undefined ? { width: c.width, length: c.length } : {}),
      });
    }
  }
  if (approximate) warnings.push({ code: 'approximate_cut_length', message: 'some cut edges lie on free-form surfaces; their length is measured on the tessellation' });
  if (endLoops !== 2) warnings.push({ code: 'unusual_end_cuts', message: `found ${endLoops} contours going round the tube instead of 2` });
  const order = { end_cut: 0, notch: 1, hole: 2, slot: 3, cutout: 4 } as const;
  features.sort((a, b) => (a.x ?? 0) - (b.x ?? 0) || order[a.kind] - order[b.kind]);
  features.forEach((f, i) => { f.id = i + 1; });

  return {
    kind: 'tube',
    profile: p.profile,
    outerDiameter: p.outerDiameter, outerWidth: p.outerWidth, outerHeight: p.outerHeight,
    wall: p.wall, cornerRadius: p.cornerRadius, length, cutLength,
    frame: { rotation, translation },
    features,
    warnings,
  };
}

/** Angular position of a contour about the axis: direction of the mean of its vertices from the
 * centre line, degrees from +Y (width direction) towards +Z, in (-180, 180]. */
function aroundAxis(solid: Solid, vertices: number[], center: Vec3, e2: Vec3, e3: Vec3): number {
  let y = 0, z = 0;
  for (const v of vertices) {
    const q = point(solid.points, v);
    y += dot(q, e2) - dot(center, e2);
    z += dot(q, e3) - dot(center, e3);
  }
  const a = (Math.atan2(z, y) * 180) / Math.PI;
  return a === -180 ? 180 : a;
}

/** Two or more straight runs of the same tube (coaxial outer/inner cylinder pairs) along different
 * axes: a bent tube whose runs are too short for any one to dominate. */
function bentTubeRefusal(solid: Solid): Refusal | null {
  const runs: Array<{ axis: Vec3; R: number; r: number }> = [];
  const cyl = solid.faces.map((f) => f.surface).filter((s): s is Extract<Surface, { kind: 'cylinder' }> => s.kind === 'cylinder');
  // a tube run is a closed ring: its skin faces together go all the way round (a sheet bend's
  // cylinders are partial arcs, never a ring)
  const fullTurn = (c: Extract<Surface, { kind: 'cylinder' }>) => cyl.filter((x) => sameSurface(x, c)).reduce((a, x) => a + x.spanDegrees, 0) >= FULL_RING_DEGREES;
  for (const o of cyl) {
    if (!o.convex || !fullTurn(o)) continue;
    const i = cyl.find((c) => !c.convex && c.radius < o.radius && parallelDirections(c.axis, o.axis) && distanceToLine(c.origin, o.origin, o.axis) < COAXIAL_TOLERANCE_MM && fullTurn(c));
    if (i && o.radius - i.radius <= MAX_WALL_FRACTION * 2 * o.radius) runs.push({ axis: o.axis, R: o.radius, r: i.radius });
  }
  for (let a = 0; a < runs.length; a++) {
    for (let b = a + 1; b < runs.length; b++) {
      const A = runs[a], B = runs[b];
      if (!parallelDirections(A.axis, B.axis) && Math.abs(A.R - B.R) < SAME_SURFACE_TOLERANCE_MM && Math.abs(A.r - B.r) < SAME_SURFACE_TOLERANCE_MM) {
        const angle = (Math.acos(Math.min(1, Math.abs(dot(A.axis, B.axis)))) * 180) / Math.PI;
        return refuse(`the tube is bent: straight runs of Ø${fmt(2 * A.R)} x ${fmt(A.R - A.r)} tube meet at ${fmt(angle)}°`);
      }
    }
  }
  return null;
}

/** null when the solid does not look like a tube at all (then sheet recognition is tried). */
export function recognizeTube(solid: Solid): TubeAnalysis | Refusal | null {
  if (solid.faces.length < 3 || solid.triangles.length === 0) return null;
  const faceOfTri = faceOfTriangles(solid);
  for (const axis of candidateAxes(solid)) {
    const outcome = probeAxis(solid, faceOfTri, axis.direction);
    if (outcome) return outcome;
  }
  return bentTubeRefusal(solid);
}
