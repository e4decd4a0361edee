// A body exported twice at the same place (a careless export, a copy left in a multi-body part) is
// one body, not a second instance: the copies are set aside and reported as ignored duplicates.
import type { Solid } from '../geometry/model.ts';
import type { InstanceGroup } from './instances.ts';
import { CORNER_MATCH_RELATIVE_TOLERANCE, CORNER_MATCH_TOLERANCE_MM } from './instances.ts';

export interface Duplicate { solid: number; /** the body it repeats */ of: number }

function sameBox(a: Solid, b: Solid): boolean {
  const size = Math.hypot(...[0, 1, 2].map((k) => a.bbox.max[k] - a.bbox.min[k]));
  const tol = CORNER_MATCH_TOLERANCE_MM + CORNER_MATCH_RELATIVE_TOLERANCE * size;
  return [0, 1, 2].every((k) => Math.abs(a.bbox.min[k] - b.bbox.min[k]) <= tol && Math.abs(a.bbox.max[k] - b.bbox.max[k]) <= tol);
}

/** Groups without the members that coincide with an earlier member (same part, same box = same place). */
export function dropCoincident(groups: InstanceGroup[], solids: Solid[]): { groups: InstanceGroup[]; duplicates: Duplicate[] } {
  const duplicates: Duplicate[] = [];
  const out = groups.map((g) => {
    const kept: InstanceGroup['members'] = [];
    for (const m of g.members) {
      const twin = kept.find((k) => sameBox(solids[k.solid], solids[m.solid]));
      if (twin) duplicates.push({ solid: m.solid, of: twin.solid });
      else kept.push(m);
    }
    return { representative: g.representative, members: kept };
  });
  return { groups: out, duplicates };
}
