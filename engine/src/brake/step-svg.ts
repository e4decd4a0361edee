// A picture of each step of a bend plan: the part's cross-section across the bend being made, at the
// bottom of the stroke, on its die under its punch (the same fold and placement the collision check
// uses, ./section.ts). Small and deterministic: coordinates rounded to 0.1 mm, no clock, no ids.
import type { Part } from '../contract.ts';
import type { PressBrakeTooling, Vec2 } from '../catalog/press-brake.ts';
import type { BendPlan } from './plan.ts';
import { translate } from './plane.ts';
import { foldAndPlace, lineFrame, sectionAcross } from './section.ts';

/** Margin around the drawing, mm. */
const MARGIN_MM = 5;
/** The tools are drawn this far above and below the part's reach, at most, mm (a tall punch is cut off). */
const TOOL_REACH_MM = 40;
/** Width of the picture in pixels. */
const WIDTH_PX = 240;

const f = (x: number): string => String(Number(x.toFixed(1)) + 0);
const esc = (s: string): string => s.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * One SVG per step of a found plan (empty when the plan has no sequence), in step order; a step whose
 * section cannot be built (a bend without a line) is an empty string.
 */
export function bendStepSvgs(part: Part, plan: BendPlan, tooling: PressBrakeTooling, t: number, k: number): string[] {
  if (plan.status !== 'found') return [];
  const frames = new Map(part.bends.map((b) => [b.id, lineFrame(b)] as const));
  const done = new Set<number>();
  const out: string[] = [];
  for (const s of plan.sequence) {
    const b = part.bends.find((x) => x.id === s.bend_id);
    const punch = tooling.punches.find((p) => p.id === s.punch_id);
    const die = tooling.dies.find((d) => d.id === s.die_id);
    const sec = b ? sectionAcross(b, 0.5, part.bends, frames, t, k) : null;
    if (!b || !punch || !die || !sec) { out.push(''); done.add(s.bend_id); continue; }
    const { pieces, depth } = foldAndPlace(sec, done, b.id, 1, t, die.v_opening_mm, s.behind_punch === 'left');
    done.add(b.id);
    const pts: Vec2[] = [pieces[0].a, ...pieces.map((p) => p.b)];
    const xs = pts.map((p) => p[0]), zs = pts.map((p) => p[1]);
    const minX = Math.min(...xs, -die.v_opening_mm) - MARGIN_MM, maxX = Math.max(...xs, die.v_opening_mm) + MARGIN_MM;
    const top = Math.min(Math.max(...zs) + TOOL_REACH_MM, punch.height_mm - depth) + MARGIN_MM;
    const bottom = Math.max(Math.min(...zs) - TOOL_REACH_MM, -die.height_mm) - MARGIN_MM;
    const w = maxX - minX, h = top - bottom;
    const poly = (p: readonly Vec2[]): string => p.map(([x, z]) => `${f(x)},${f(-z)}`).join(' ');
    const title = `Step ${s.step}: bend ${s.bend_id}, ${Number(s.angle_degrees.toFixed(1))} deg ${s.direction}, ${punch.name} on ${die.name}`;
    out.push(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="${f(minX)} ${f(-top)} ${f(w)} ${f(h)}" width="${WIDTH_PX}" height="${Math.round((WIDTH_PX * h) / w)}" role="img" aria-label="${esc(title)}">`
      + `<title>${esc(title)}</title>`
      + `<polygon class="punch" points="${poly(translate(punch.profile_mm, 0, -depth))}" fill="#b8c4d0" stroke="#445" stroke-width="0.3"/>`
      + `<polygon class="die" points="${poly(die.profile_mm)}" fill="#b8c4d0" stroke="#445" stroke-width="0.3"/>`
      + `<polyline class="part" points="${poly(pts)}" fill="none" stroke="#c0392b" stroke-width="${f(Math.max(t, 0.5))}" stroke-linejoin="round"/>`
      + '</svg>');
  }
  return out;
}
