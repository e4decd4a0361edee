// The bend table as rows of text: what the production DXF and a person read of a bend plan.
import type { BendPlan } from './plan.ts';

export const BEND_TABLE_HEADER = ['STEP', 'BEND', 'ANGLE', 'DIR', 'FACE UP', 'BEHIND PUNCH', 'PUNCH', 'LENGTH', 'DIE', 'BACK GAUGE', 'FORCE'];

const n = (x: number | null, unit: string): string => (x === null ? '-' : `${Number(x.toFixed(1))} ${unit}`);

/** Header and one row per step; a plan without a sequence gives its status and message instead. */
export function bendTableRows(plan: BendPlan): string[][] {
  if (plan.status !== 'found') return [[`NO BEND SEQUENCE (${plan.status})${plan.message ? `: ${plan.message}` : ''}`]];
  return [BEND_TABLE_HEADER, ...plan.sequence.map((s) => [
    String(s.step), String(s.bend_id), `${Number(s.angle_degrees.toFixed(2))} deg`, s.direction.toUpperCase(), s.side_up.toUpperCase(), s.behind_punch.toUpperCase(),
    s.punch_id, n(s.punch_length_mm, 'mm'), s.die_id, n(s.back_gauge_mm, 'mm'), n(s.force_kn, 'kN'),
  ])];
}
