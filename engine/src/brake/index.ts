// Press-brake simulation of one bent sheet part: per bend the die, radius, force and flange support
// (./per-bend.ts), then a feasible bend sequence (./sequence.ts), and the findings that follow.
// Pure: the part, its material and the tooling catalog in, the plan and findings out.
import type { Part } from '../contract.ts';
import type { Material } from '../catalog/types.ts';
import type { PressBrakeTooling } from '../catalog/press-brake.ts';
import { interpolateKFactor } from '../sheet/kfactor.ts';
import { bendSetup, round2, type BendSetup } from './per-bend.ts';
import { searchSequence, type Failure } from './sequence.ts';
import type { BendPlan, BendPlanBend, BendPlanStep } from './plan.ts';

export type { BendPlan, BendPlanBend, BendPlanStep } from './plan.ts';

export { bendSetup, flangeNeeded, forcePerMetre, ruleV } from './per-bend.ts';
export { searchSequence, toolLength, MAX_CHECKS } from './sequence.ts';
export type { BendSetup } from './per-bend.ts';
export { bendTableRows, BEND_TABLE_HEADER } from './table.ts';
export { bendStepSvgs } from './step-svg.ts';

/** A die radius that moves the flat by more than this across a bend is reported, mm (a common +-0.25 mm bent-part tolerance). */
export const FLAT_CHANGE_TOL_MM = 0.25;

export interface BrakeFinding { code: string; message: string; severity: 'blocking' | 'warning'; bend_id: number | null; details: Record<string, unknown> }

const mm = (x: number): string => `${Number(x.toFixed(1))} mm`;
const list = (ids: number[]): string => (ids.length === 1 ? `bend ${ids[0]}` : `bends ${ids.slice(0, -1).join(', ')} and ${ids[ids.length - 1]}`);

const stripText = (s: NonNullable<Failure['strip']>): string =>
  `the ${mm(s.length_mm)} flange ${s.between.length === 2 ? `between bends ${s.between[0]} and ${s.between[1]}` : `beyond bend ${s.between[0]}`}`;

function failureText(f: Failure, tooling: PressBrakeTooling, setup: BendSetup): string {
  const where = `Bend ${f.bend_id}${f.after.length ? ` after ${list(f.after)}` : ' first'}`;
  const strip = f.strip ? stripText(f.strip) : typeof f.detail.arc_of === 'number' ? `the bend zone of bend ${f.detail.arc_of}` : 'the part';
  switch (f.obstacle) {
    case 'punch': return `${where}: ${strip} hits the punch (${f.punch!.name}, ${mm(f.punch!.height_mm)} high).`;
    case 'die': return setup.die ? `${where}: ${strip} hits the die (${setup.die.name}, ${mm(setup.die.height_mm)} high).` : `${where}: no die of the catalog takes a ${Number((180 - Number(f.detail.included_angle_degrees ?? 0)).toFixed(1))} deg bend.`;
    case 'upper_beam': return `${where}: ${strip} reaches above the punch (${f.punch!.name}, ${mm(f.punch!.height_mm)} high) into the upper beam.`;
    case 'lower_beam': return `${where}: ${strip} reaches below the die (${mm(setup.die?.height_mm ?? 0)} high) into the lower beam.`;
    case 'part': {
      const o = f.detail.other as Failure['strip'] | undefined;
      return `${where}: ${strip} hits the part itself${o ? ` (${stripText(o)})` : ''}.`;
    }
    case 'bed': return `${where}: it is ${mm(Number(f.detail.length_mm))} long; the brake (${tooling.brake.name}) bends up to ${mm(tooling.brake.bed_length_mm)}.`;
    case 'no_punch': return `${where}: no punch of the catalog takes a ${Number(Number(f.detail.included_angle_degrees).toFixed(1))} deg included angle at ${Number(f.detail.force_kn_per_m)} kN/m.`;
    case 'tool_length': return `${where}: the flanges already standing at its ends leave ${mm(Number(f.detail.room_mm))}; no ${f.detail.tool === 'punch' ? `punch (${f.punch?.name})` : 'die'} made of the catalog's sections fits between them.`;
  }
}

/**
 * The press-brake plan of a bent sheet part and its findings. `flangeTooShort`: bends the caller
 * already refused for a short flange (DFM's flange_too_short), which get no flange_off_die of their
 * own. While any flange cannot rest on the die the sequence is not searched: that part is refused
 * for its flange, and a collision search would only repeat it.
 */
export function planBends(part: Part, m: Material, tooling: PressBrakeTooling, flangeTooShort: ReadonlySet<number> = new Set()): { plan: BendPlan; findings: BrakeFinding[] } {
  const t = m.thickness_mm;
  const findings: BrakeFinding[] = [];
  const setups = new Map(part.bends.map((b) => [b.id, bendSetup(b, m, tooling)]));
  const bends: BendPlanBend[] = part.bends.map((b) => {
    const s = setups.get(b.id)!;
    return {
      bend_id: b.id, die_id: s.die?.id ?? null, v_opening_mm: s.v_opening_mm, natural_radius_mm: s.natural_radius_mm, modelled_radius_mm: b.radius_mm,
      k_factor: s.k_factor, flat_change_mm: s.flat_change_mm, force_kn_per_m: s.force_kn_per_m, force_kn: s.force_kn,
      shortest_flange_mm: s.shortest_flange_mm, flange_needed_mm: s.flange_needed_mm, flange_on_die: s.flange_on_die,
    };
  });
  for (const b of part.bends) {
    const s = setups.get(b.id)!;
    if (!s.die) continue;
    if (!s.flange_on_die && s.shortest_flange_mm !== null && !flangeTooShort.has(b.id)) {
      findings.push({ code: 'flange_off_die', severity: 'blocking', bend_id: b.id,
        message: `A flange of bend ${b.id} is ${mm(s.shortest_flange_mm)} long; on the ${s.die.name} (the smallest that bends ${m.display_thickness}) it needs ${mm(s.flange_needed_mm!)} to rest on both die shoulders.`,
        details: { flange_length_mm: s.shortest_flange_mm, flange_needed_mm: s.flange_needed_mm, die_id: s.die.id, v_opening_mm: s.v_opening_mm } });
    }
    const perM = s.force_kn_per_m!, total = s.force_kn!;
    const overBrake = total > tooling.brake.max_force_kn;
    const overDie = perM > s.die.max_load_kn_per_m;
    if (overBrake || overDie) {
      findings.push({ code: 'tonnage_exceeded', severity: 'blocking', bend_id: b.id,
        message: overBrake
          ? `Bend ${b.id} needs ${Math.round(total)} kN (${Math.round(perM)} kN/m over ${mm(b.length_mm)}) on the ${s.die.name}; the brake presses ${tooling.brake.max_force_kn} kN.`
          : `Bend ${b.id} needs ${Math.round(perM)} kN/m on the ${s.die.name}, rated ${s.die.max_load_kn_per_m} kN/m.`,
        details: { force_kn: total, force_kn_per_m: perM, max_force_kn: tooling.brake.max_force_kn, die_id: s.die.id, die_max_kn_per_m: s.die.max_load_kn_per_m } });
    }
    if (s.flat_change_mm !== null && Math.abs(s.flat_change_mm) > FLAT_CHANGE_TOL_MM) {
      const kModel = interpolateKFactor(m.k_factor_table, b.radius_mm / t);
      findings.push({ code: 'bend_radius_differs', severity: 'warning', bend_id: b.id,
        message: `Bend ${b.id} is modelled at ${mm(b.radius_mm)} inside radius; air bent on the ${s.die.name} it forms about ${mm(s.natural_radius_mm!)}, which makes the flat ${mm(Math.abs(s.flat_change_mm))} ${s.flat_change_mm > 0 ? 'longer' : 'shorter'} across this bend (K-factor ${s.k_factor} at that radius, ${Number(kModel.toFixed(3))} at the modelled one).`,
        details: { modelled_radius_mm: b.radius_mm, natural_radius_mm: s.natural_radius_mm, flat_change_mm: s.flat_change_mm, tolerance_mm: FLAT_CHANGE_TOL_MM, k_factor: s.k_factor, die_id: s.die.id } });
    }
  }
  const k = part.flat_pattern?.k_factor ?? interpolateKFactor(m.k_factor_table, (part.bends[0]?.radius_mm ?? t) / t);
  const offDie = part.bends.filter((b) => flangeTooShort.has(b.id) || (!setups.get(b.id)!.flange_on_die && setups.get(b.id)!.shortest_flange_mm !== null)).map((b) => b.id);
  if (offDie.length) {
    return { plan: { status: 'not_checked', message: `The sequence is searched once every flange rests on the die; ${list(offDie)} ${offDie.length === 1 ? 'has a flange' : 'have flanges'} too short.`, brake_id: tooling.brake.id, sequence: [], bends, tries: 0, checks: 0 }, findings };
  }
  const r = searchSequence(part.bends, setups, tooling, t, k);
  const sequence: BendPlanStep[] = r.steps.map((s, i) => {
    const b = part.bends.find((x) => x.id === s.bend_id)!;
    return {
      step: i + 1, bend_id: s.bend_id, angle_degrees: b.angle_degrees, direction: b.direction, side_up: s.flipped ? 'bottom' : 'top', behind_punch: s.behind,
      punch_id: s.punch.id, punch_length_mm: s.punch_length_mm, die_id: s.die.id, back_gauge_mm: s.back_gauge_mm, force_kn: setups.get(s.bend_id)!.force_kn, image_url: null,
    };
  });
  let message: string | null = null;
  if (r.status === 'not_checked') message = 'The bend lines or flange lengths of this part were not measured; the sequence was not searched.';
  else if (r.failure) {
    message = failureText(r.failure, tooling, setups.get(r.failure.bend_id)!);
    const stopped = r.status === 'stopped';
    findings.push({ code: 'no_bend_sequence', severity: stopped ? 'warning' : 'blocking', bend_id: r.failure.bend_id,
      message: stopped ? `No bend sequence found within ${r.checks} collision checks (the search stopped there); the furthest it got: ${message}` : `No bend sequence avoids a collision. ${message}`,
      details: { bend_id: r.failure.bend_id, after_bend_ids: r.failure.after, obstacle: r.failure.obstacle, strip: r.failure.strip, punch_id: r.failure.punch?.id ?? null, search_stopped: stopped, tries: r.tries, checks: r.checks, ...r.failure.detail } });
  }
  return { plan: { status: r.status, message, brake_id: tooling.brake.id, sequence, bends: bends.map((x) => ({ ...x, force_kn: x.force_kn === null ? null : round2(x.force_kn) })), tries: r.tries, checks: r.checks }, findings };
}
