// Connected groups of faces: faces of a set joined through shared edges, each group sorted, in order of
// their smallest face id (deterministic for ids and reports).
import type { Solid } from './model.ts';

export function faceComponents(solid: Solid, members: Set<number>): number[][] {
  const groups: number[][] = [];
  const seen = new Set<number>();
  for (const start of [...members].sort((a, b) => a - b)) {
    if (seen.has(start)) continue;
    const group: number[] = [];
    const stack = [start];
    seen.add(start);
    while (stack.length) {
      const f = stack.pop()!;
      group.push(f);
      for (const g of solid.faces[f].neighbours) if (members.has(g) && !seen.has(g)) { seen.add(g); stack.push(g); }
    }
    groups.push(group.sort((a, b) => a - b));
  }
  return groups;
}
