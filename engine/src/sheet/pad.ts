// A raised pad: material standing out of one skin of a sheet, topped by a face parallel to that skin,
// with nothing recessed behind it, so the sheet is thicker there. A press forms an emboss by pushing
// the sheet (the back sinks as far as the front rises, the thickness and the volume stay); a pad adds
// material, so it is moulded or machined work. Told apart from an emboss by what lies behind its top:
// an emboss has the recess's floor one thickness under it, a pad has sheet or nothing.
import type { PlaneSurface, Solid, Vec3 } from '../geometry/model.ts';
import { basisOf, dot, point } from '../geometry/vec.ts';
import type { OutsideFeature } from './slab.ts';
import type { Unfolding } from './unfold.ts';

/** |cos| of the pad top's normal against a skin plane's: parallel within this of 1. */
const PARALLEL_COS = 1e-6;
/** The pad's top stands at the feature's height within this, mm. */
const TOP_HEIGHT_TOLERANCE_MM = 1e-2;
/** The recess floor behind an emboss's top lies one thickness under it within this, mm. */
const RECESS_DEPTH_TOLERANCE_MM = 1e-2;

export interface RaisedPad {
  /** how far the top stands out of the skin it sits on, mm */
  height: number;
  /** size of the pad across the skin (its two larger extents), mm */
  size: [number, number];
  /** top face id */
  top: number;
}

/**
 * The raised pad a feature outside the slab is, when it is one: a plane face of the feature parallel
 * to a skin plane, standing the feature's height off it, with no face behind it facing the other way
 * one thickness deeper (the floor of an emboss's recess) under any part of it.
 */
export function raisedPad(solid: Solid, u: Unfolding, outside: OutsideFeature): RaisedPad | null {
  const h = outside.worst.distance;
  if (!Number.isFinite(h) || h <= 0) return null;
  const skinPlanes = [...u.skin].map((f) => solid.faces[f].surface).filter((s): s is PlaneSurface => s.kind === 'plane');
  const tops = outside.faces.filter((f) => {
    const s = solid.faces[f].surface;
    if (s.kind !== 'plane') return false;
    return skinPlanes.some((k) => {
      const c = dot(k.normal, s.normal);
      if (Math.abs(Math.abs(c) - 1) > PARALLEL_COS) return false;
      // offsets compared along the skin's normal; the skin may be either side of the sheet, so the top
      // stands the height off the near skin or the height plus the thickness off the far one
      const off = Math.abs(s.offset * Math.sign(c) - k.offset);
      return Math.abs(off - h) < TOP_HEIGHT_TOLERANCE_MM || Math.abs(off - h - u.thickness) < TOP_HEIGHT_TOLERANCE_MM;
    });
  });
  if (tops.length === 0) return null;
  const top = tops.reduce((a, b) => (solid.faces[b].area > solid.faces[a].area ? b : a));
  if (recessedBehind(solid, top, u.thickness)) return null;
  const dims = outside.max.map((x, k) => x - outside.min[k]).sort((a, b) => b - a);
  return { height: h, size: [dims[0], dims[1]], top };
}

/** A plane facing away from `top`, one thickness behind it, overlapping it seen along its normal. */
function recessedBehind(solid: Solid, top: number, thickness: number): boolean {
  const s = solid.faces[top].surface as PlaneSurface;
  const [e1, e2] = basisOf(s.normal);
  const box = (f: number): [number, number, number, number] => {
    let x0 = Infinity, x1 = -Infinity, y0 = Infinity, y1 = -Infinity;
    for (const v of solid.faces[f].vertices) {
      const p: Vec3 = point(solid.points, v);
      const x = dot(p, e1), y = dot(p, e2);
      x0 = Math.min(x0, x); x1 = Math.max(x1, x); y0 = Math.min(y0, y); y1 = Math.max(y1, y);
    }
    return [x0, x1, y0, y1];
  };
  const [ax0, ax1, ay0, ay1] = box(top);
  return solid.faces.some((g) => {
    const k = g.surface;
    if (k.kind !== 'plane' || Math.abs(dot(k.normal, s.normal) + 1) > PARALLEL_COS) return false;
    // top: n.p = s.offset; floor: -n.p = k.offset, so n.p = -k.offset, one thickness behind
    if (Math.abs(s.offset + k.offset - thickness) > RECESS_DEPTH_TOLERANCE_MM) return false;
    const [bx0, bx1, by0, by1] = box(g.id);
    return bx0 < ax1 && ax0 < bx1 && by0 < ay1 && ay0 < by1;
  });
}
