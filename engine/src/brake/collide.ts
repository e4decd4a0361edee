// Does the folded section, on the die, overlap the punch, the die, the beams or itself?
import type { PressBrake, Punch, Die, Vec2 } from '../catalog/press-brake.ts';
import { bounds, segPolygonDist, segSegDist, translate } from './plane.ts';
import type { Piece } from './section.ts';

/**
 * The sheet may come this much closer than half its thickness to a tool, mm: where it rests on the
 * punch tip and the die shoulders the two touch exactly, and the drawn arcs are chords.
 */
export const CONTACT_TOL_MM = 0.15;
/** The beams are drawn as boxes reaching this far up and down, mm. */
const BEAM_REACH_MM = 5000;
/** Pieces this close along the section (a strip and its own bends) never count as touching, in pieces. */
const NEIGHBOUR_PRIMS = 2;

export type Obstacle = 'punch' | 'die' | 'upper_beam' | 'lower_beam' | 'part';
export interface Hit { obstacle: Obstacle; prim: number; other_prim?: number }

function box(x0: number, x1: number, z0: number, z1: number): Vec2[] {
  return [[x0, z0], [x1, z0], [x1, z1], [x0, z1]];
}

export interface Tools { punch: Punch; die: Die; brake: PressBrake }

/** The first overlap found, or null: tools first (punch, die, beams), then the part with itself. */
export function collision(pieces: Piece[], tools: Tools, depth: number, t: number): Hit | null {
  const clear = t / 2 - CONTACT_TOL_MM;
  const obstacles: Array<[Obstacle, Vec2[]]> = [
    ['punch', translate(tools.punch.profile_mm, 0, -depth)],
    ['die', tools.die.profile_mm as Vec2[]],
    ['upper_beam', box(-tools.brake.upper_beam_half_width_mm, tools.brake.upper_beam_half_width_mm, -depth + tools.punch.height_mm, BEAM_REACH_MM)],
    ['lower_beam', box(-tools.brake.lower_beam_half_width_mm, tools.brake.lower_beam_half_width_mm, -BEAM_REACH_MM, -tools.die.height_mm)],
  ];
  const boxes = pieces.map((p) => ({ minX: Math.min(p.a[0], p.b[0]), maxX: Math.max(p.a[0], p.b[0]), minZ: Math.min(p.a[1], p.b[1]), maxZ: Math.max(p.a[1], p.b[1]) }));
  const apart = (a: typeof boxes[number], b: typeof boxes[number], gap: number): boolean =>
    a.minX > b.maxX + gap || b.minX > a.maxX + gap || a.minZ > b.maxZ + gap || b.minZ > a.maxZ + gap;
  for (const [obstacle, poly] of obstacles) {
    const ob = bounds(poly);
    for (let i = 0; i < pieces.length; i++) {
      if (apart(boxes[i], ob, clear)) continue;
      const p = pieces[i];
      if (segPolygonDist(p.a, p.b, poly) < clear) return { obstacle, prim: p.prim };
    }
  }
  const selfClear = t - CONTACT_TOL_MM;
  // pieces sorted by their left edge: a sweep along x skips the pairs that cannot touch
  const order = pieces.map((_, i) => i).sort((i, j) => boxes[i].minX - boxes[j].minX);
  for (let oi = 0; oi < order.length; oi++) {
    const i = order[oi];
    for (let oj = oi + 1; oj < order.length; oj++) {
      const j = order[oj];
      if (boxes[j].minX > boxes[i].maxX + selfClear) break;
      if (Math.abs(pieces[j].prim - pieces[i].prim) <= NEIGHBOUR_PRIMS || apart(boxes[i], boxes[j], selfClear)) continue;
      if (segSegDist(pieces[i].a, pieces[i].b, pieces[j].a, pieces[j].b) < selfClear) {
        const [x, y] = pieces[i].prim < pieces[j].prim ? [i, j] : [j, i];
        return { obstacle: 'part', prim: pieces[x].prim, other_prim: pieces[y].prim };
      }
    }
  }
  return null;
}
