// Skin surface classes: faces grouped by the geometric surface they lie on (a skin is often
// split into several B-rep faces by seams, holes or the CAD system).
import type { Solid, Surface, Vec3 } from '../geometry/model.ts';
import { runsAlong, sameSurface } from './surfaces.ts';

/** Distinct surfaces (by geometry) of a set of faces. */
export function surfaceClasses(solid: Solid, faces: Iterable<number>): Surface[] {
  const out: Surface[] = [];
  for (const f of faces) {
    const s = solid.faces[f].surface;
    if (!out.some((o) => sameSurface(o, s))) out.push(s);
  }
  return out;
}

export function sameClassSet(a: Surface[], b: Surface[]): boolean {
  return a.length === b.length && a.every((s) => b.some((t) => sameSurface(s, t)));
}

/** Faces lying on one of the given skin surfaces and running along d. */
export function skinFaces(solid: Solid, classes: Surface[], d: Vec3): Set<number> {
  const out = new Set<number>();
  for (const f of solid.faces) if (runsAlong(f.surface, d) && classes.some((c) => sameSurface(c, f.surface))) out.add(f.id);
  return out;
}

