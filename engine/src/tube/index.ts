// Tube recognition: straight round, square and rectangular tubes with their profile, wall,
// length and every contour cut through the wall. A tube-like solid that is not a straight tube of
// constant section (solid bar, bent tube, varying section) is refused with the reason; anything
// else returns null so the sheet recogniser can try.
import type { Solid, TubeAnalysis, Refusal, Surface, Vec3 } from '../geometry/model.ts';
import { dot, basisOf } from '../geometry/vec.ts';
import { candidateAxes, extentAlong } from './axes.ts';
import { faceOfTriangles, crossedTriangles, sliceCrossed, classifySection, projectAlong, EdgeCrossings, edgesOfSection } from './section.ts';
import { runsAlong, parallelDirections, sameSurface } from './surfaces.ts';
import { measureProfile } from './profile.ts';
import { diameterRuns, steppedTubeMessage } from './diameters.ts';
import { surfaceClasses, sameClassSet, skinFaces } from './classes.ts';
import { refuse, fmt, crookedWallMessage, sectionSizeSummary, judgeSolidPrism, bentTubeRefusal, openTubeRefusal, solidShaftRefusal } from './refusals.ts';
import { tubeCuts } from './contours.ts';
import { SECTION_STATIONS, MAX_WALL_FRACTION, SAME_SURFACE_TOLERANCE_MM } from './tolerances.ts';
import { counterboreThroughLength, tubeBlindFeatures, wallBand, wallSpanning } from './blind.ts';

export { candidateAxes } from './axes.ts';

type Outcome = TubeAnalysis | Refusal | null;

/** Stations sliced first, as fractions of the length. */
const PROBE_STATIONS = [0.5, 0.25, 0.75, 0.1, 0.9];

function probeAxis(solid: Solid, faceOfTri: Int32Array, d: Vec3): Outcome {
  const [u, v] = basisOf(d);
  const { min, max } = extentAlong(solid, d);
  const span = max - min;
  if (!(span > 0)) return null;
  const along = projectAlong(solid, d);
  const xs = Array.from({ length: SECTION_STATIONS }, (_, k) => min + (span * (k + 0.5)) / SECTION_STATIONS);
  // one pass over the mesh finds the triangles of every station
  const crossed = crossedTriangles(solid, along, xs);
  const edges = new EdgeCrossings(Math.max(...crossed.map(edgesOfSection)));
  const section = (k: number) => {
    const x = xs[k];
    const { loops, broken } = sliceCrossed(solid, faceOfTri, u, v, x, along, crossed[k], edges);
    return { x, loops, broken, ...classifySection(loops) };
  };
  // cheap rejection first: a few spread stations must show a ring (tube) or all be one simple
  // loop (bar, plate seen edge-on); anything else is not tube-like along this axis
  const probe = PROBE_STATIONS.map((f) => Math.round(f * (SECTION_STATIONS - 1)));
  const first = probe.map(section);
  const rest = () => Array.from({ length: SECTION_STATIONS }, (_, k) => k).filter((k) => !probe.includes(k)).map(section);
  let sections: Array<ReturnType<typeof section>>;
  if (first.some((s) => s.kind === 'annulus' || s.kind === 'solid')) sections = [...first, ...rest()];
  else {
    // every probe fell where the ring is cut open (a row of windows, as in a drone arm): the other
    // stations decide, and only a closed ring among them keeps the axis
    const others = rest();
    if (!others.some((s) => s.kind === 'annulus')) return null;
    sections = [...first, ...others];
  }
  sections.sort((a, b) => a.x - b.x);
  const rings = sections.filter((s) => s.kind === 'annulus' && !s.broken);
  if (rings.length === 0) {
    const solidSections = sections.filter((s) => s.kind === 'solid');
    if (solidSections.length === sections.length) return judgeSolidPrism(solid, solidSections.flatMap((s) => (s.outer ? [s.outer] : [])), d, span);
    return null;
  }

  // Ring sections made only of straight walls are the evidence of a straight tube. The most common
  // set of walls defines the profile; only once a genuine thin-walled tube is found do other ring
  // sections (bent run, other diameter, taper) turn into a refusal rather than "not a tube".
  // a face across the wall from one loop to the other (a mitre or bevel caught by the section) is a cut,
  // not part of the section: a section through a mitre's tip is still a straight ring
  const runningFaces = (r: (typeof rings)[number]) => {
    const o = new Set(r.outer!.faces), i = new Set(r.inner!.faces);
    const through = (f: number) => solid.faces[f].neighbours.some((g) => o.has(g)) && solid.faces[f].neighbours.some((g) => i.has(g));
    const all = [...o, ...i];
    return all.every((f) => runsAlong(solid.faces[f].surface, d) || through(f)) ? { outer: [...o].filter((f) => runsAlong(solid.faces[f].surface, d)), inner: [...i].filter((f) => runsAlong(solid.faces[f].surface, d)) } : null;
  };
  // each ring's running faces, worked out once (the groups below read them again)
  const running = new Map(rings.map((r) => [r, runningFaces(r)]));
  const straight = rings.filter((r) => running.get(r) !== null);
  const crooked = rings.filter((r) => !straight.includes(r));
  if (straight.length === 0) {
    const walls = surfaceClasses(solid, crooked.flatMap((r) => [...r.outer!.faces, ...r.inner!.faces]));
    const revolved = walls.every((w) => (w.kind === 'cone' || w.kind === 'cylinder') && parallelDirections(w.axis, d));
    if (revolved && walls.some((w) => w.kind === 'cone')) return refuse(crookedWallMessage(walls.find((w) => w.kind === 'cone')!));
    return null;
  }
  const groups: Array<{ outer: Surface[]; inner: Surface[]; rings: typeof straight }> = [];
  for (const r of straight) {
    const run = running.get(r)!;
    const outer = surfaceClasses(solid, run.outer), inner = surfaceClasses(solid, run.inner);
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
  // sections through a recess, pocket, engraving or blind bore show the main skins plus the feature's
  // faces, all inside the wall: the profile is the main one and the feature is blind work in the wall
  const inWall = wallBand(p);
  const bent = crooked.filter((r) => ![...r.outer!.faces, ...r.inner!.faces].every((f) => runsAlong(solid.faces[f].surface, d) || inWall(solid, f)));
  if (bent.length > 0) {
    const walls = [...bent[0].outer!.faces, ...bent[0].inner!.faces].map((f) => solid.faces[f].surface);
    // a round tube's runs give the bend angle; otherwise say what the wall turns into
    return bentTubeRefusal(solid) ?? refuse(crookedWallMessage(walls.find((w) => !runsAlong(w, d))!));
  }
  // (a section through a mitre's tip misses a wall or corner the main profile has: fewer skins, same ones)
  const within = (a: Surface[], b: Surface[]) => a.every((s) => b.some((x) => sameSurface(x, s)));
  const recessed = (g: (typeof groups)[number]) => (within(main.outer, g.outer) || within(g.outer, main.outer)) && (within(main.inner, g.inner) || within(g.inner, main.inner))
    && g.rings.every((r) => [...r.outer!.faces, ...r.inner!.faces].every((f) => [...main.outer, ...main.inner].some((m) => sameSurface(m, solid.faces[f].surface)) || inWall(solid, f)));
  const varying = groups.slice(1).filter((g) => !recessed(g));
  if (varying.length > 0) {
    const other = varying[0].rings[0], ref = main.rings[0];
    if (p.profile === 'round') {
      const outerRuns = diameterRuns(solid, d, p.center, along, min, true), boreRuns = diameterRuns(solid, d, p.center, along, min, false);
      return refuse(steppedTubeMessage(outerRuns, boreRuns, span));
    }
    return refuse(`the tube has a varying section: at ${fmt(ref.x - min)} mm from the end it is bounded by ${sectionSizeSummary(solid, ref.outer!, ref.inner!)}, at ${fmt(other.x - min)} mm by ${sectionSizeSummary(solid, other.outer!, other.inner!)}`);
  }

  const outerSkin = skinFaces(solid, main.outer, d);
  const innerSkin = skinFaces(solid, main.inner, d);
  // everything else must be a cut through the wall (touching both skins) or blind work inside the wall
  const blindFaces = new Set<number>();
  for (const f of solid.faces) {
    if (outerSkin.has(f.id) || innerSkin.has(f.id)) continue;
    const touchesOuter = f.neighbours.some((n) => outerSkin.has(n)), touchesInner = f.neighbours.some((n) => innerSkin.has(n));
    if (touchesOuter && touchesInner) continue;
    if (inWall(solid, f.id) && !wallSpanning(solid, f.id, p)) { blindFaces.add(f.id); continue; }
    const s = f.surface;
    if (s.kind === 'other' || s.kind === 'cone') return refuse(crookedWallMessage(s));
    if (s.kind === 'cylinder' && p.outerDiameter !== null
      && (Math.abs(2 * s.radius - p.outerDiameter) < 2 * SAME_SURFACE_TOLERANCE_MM || Math.abs(2 * s.radius - (p.outerDiameter - 2 * p.wall)) < 2 * SAME_SURFACE_TOLERANCE_MM)) {
      return refuse(crookedWallMessage(s));
    }
    // a tube open at both ends is still a tube, never sheet folded round with a seam: refused with the face
    return openTubeRefusal(solid, outerSkin, innerSkin, along, min, max, p, f.id);
  }

  const cuts = tubeCuts(solid, faceOfTri, outerSkin, d, p, min, max, blindFaces);
  const blindFeatures = tubeBlindFeatures(solid, blindFaces, outerSkin, innerSkin, d, p, cuts.start);
  // normalized frame: axis on X from x = 0, section centred on the X axis, width along Y
  return {
    kind: 'tube',
    profile: p.profile,
    outerDiameter: p.outerDiameter, outerWidth: p.outerWidth, outerHeight: p.outerHeight,
    wall: p.wall, cornerRadius: p.cornerRadius, length: cuts.length, cutLength: cuts.cutLength + counterboreThroughLength(solid, blindFeatures, innerSkin),
    frame: { rotation: [d, p.e2, p.e3], translation: [-cuts.start, -dot(p.center, p.e2), -dot(p.center, p.e3)] },
    features: cuts.features,
    warnings: cuts.warnings,
    blindFeatures,
  };
}

/** null when the solid does not look like a tube at all (then sheet recognition is tried). */
export function recognizeTube(solid: Solid): TubeAnalysis | Refusal | null {
  if (solid.faces.length < 3 || solid.triangles.length === 0) return null;
  const faceOfTri = faceOfTriangles(solid);
  for (const axis of candidateAxes(solid)) {
    const outcome = probeAxis(solid, faceOfTri, axis.direction);
    if (outcome) return outcome;
  }
  return bentTubeRefusal(solid) ?? solidShaftRefusal(solid);
}
