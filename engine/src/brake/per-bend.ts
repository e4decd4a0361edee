// Per bend, before any sequence: the V-die it takes (air-bending rules), the inside radius that die
// forms against the modelled one, the force per metre and for the bend's length, and whether its
// flanges rest on both die shoulders. docs/press-brake.md "Per bend" states the rules.
import type { BendInfo } from '../contract.ts';
import type { Material } from '../catalog/types.ts';
import type { Die, PressBrakeTooling } from '../catalog/press-brake.ts';
import { interpolateKFactor } from '../sheet/kfactor.ts';
import { toolingRadiusAdjustment } from '../sheet/tooling.ts';

/** A modelled radius below this is sharp: the target radius is the material's default, mm. */
const SHARP_RADIUS_MM = 0.01;
/** A die whose V is this much wider than the bend's included angle still lets the flanges clear its walls, degrees. */
const DIE_ANGLE_TOL_DEG = 0.5;
/** Used where a material family has no figures in the tooling catalog (mild steel's). */
const FALLBACK_MATERIAL = { tensile_strength_mpa: 410, natural_radius_per_v: 0.16 };

export interface BendSetup {
  bend_id: number;
  die: Die | null;
  v_opening_mm: number | null;
  /** the V sits in the tooling's [min, max] x thickness window */
  die_in_rule: boolean;
  natural_radius_mm: number | null;
  modelled_radius_mm: number;
  /** material K-factor at the natural radius */
  k_factor: number | null;
  /** change of the flat across this bend if made at the natural radius instead of the modelled one, mm */
  flat_change_mm: number | null;
  force_kn_per_m: number | null;
  force_kn: number | null;
  /** shortest flange, and what the die needs for it to rest on both shoulders at the end of the stroke, mm */
  shortest_flange_mm: number | null;
  flange_needed_mm: number | null;
  flange_on_die: boolean;
}

export const round2 = (x: number): number => Number(x.toFixed(2));
const deg = (a: number): number => (a * Math.PI) / 180;

export function brakeMaterial(tooling: PressBrakeTooling, m: Material): { tensile_strength_mpa: number; natural_radius_per_v: number } {
  return tooling.materials[m.type] ?? FALLBACK_MATERIAL;
}

/** The usual V opening for a thickness, mm. */
export function ruleV(tooling: PressBrakeTooling, t: number): number {
  const row = tooling.v_ratio_by_thickness.find(([upTo]) => t <= upTo) ?? tooling.v_ratio_by_thickness[tooling.v_ratio_by_thickness.length - 1];
  return row[1] * t;
}

/**
 * Flange length (from the tangent line) that reaches past the shoulder's contact point when each
 * flange has risen half the bend angle: (r + t) sin(a/2) + L cos(a/2) >= V/2 + shoulder radius.
 */
export function flangeNeeded(die: Die, angleDeg: number, r: number, t: number): number {
  const phi = deg(angleDeg) / 2;
  return Math.max(0, (die.v_opening_mm / 2 + die.shoulder_radius_mm - (r + t) * Math.sin(phi)) / Math.cos(phi));
}

export function forcePerMetre(tooling: PressBrakeTooling, m: Material, v: number): number {
  const t = m.thickness_mm;
  return (tooling.force_coefficient * brakeMaterial(tooling, m).tensile_strength_mpa * t * t) / v;
}

/** The die for one bend and what follows from it. */
export function bendSetup(b: BendInfo, m: Material, tooling: PressBrakeTooling): BendSetup {
  const t = m.thickness_mm;
  const mat = brakeMaterial(tooling, m);
  const target = b.radius_mm < SHARP_RADIUS_MM ? m.default_bend_radius_mm : b.radius_mm;
  const included = 180 - b.angle_degrees;
  const shortest = b.flange_lengths_mm ? Math.min(b.flange_lengths_mm[0], b.flange_lengths_mm[1]) : null;
  const vRule = ruleV(tooling, t);
  const ranked = tooling.dies
    .filter((d) => d.angle_degrees <= included + DIE_ANGLE_TOL_DEG)
    .map((d) => {
      const rNat = mat.natural_radius_per_v * d.v_opening_mm;
      const need = flangeNeeded(d, b.angle_degrees, rNat, t);
      const perM = forcePerMetre(tooling, m, d.v_opening_mm);
      const inRule = d.v_opening_mm >= tooling.v_ratio_min * t - 1e-9 && d.v_opening_mm <= tooling.v_ratio_max * t + 1e-9;
      const flangeOk = shortest === null || shortest >= need;
      const key = [inRule ? 0 : 1, flangeOk ? 0 : 1, perM <= d.max_load_kn_per_m ? 0 : 1, round2(Math.abs(rNat - target)), -d.angle_degrees, Math.abs(d.v_opening_mm - vRule)];
      return { d, rNat, need, perM, inRule, flangeOk, key };
    })
    .sort((x, y) => {
      for (let i = 0; i < x.key.length; i++) if (x.key[i] !== y.key[i]) return x.key[i] - y.key[i];
      return x.d.id < y.d.id ? -1 : x.d.id > y.d.id ? 1 : 0;
    });
  const best = ranked[0];
  if (!best) {
    return { bend_id: b.id, die: null, v_opening_mm: null, die_in_rule: false, natural_radius_mm: null, modelled_radius_mm: b.radius_mm, k_factor: null, flat_change_mm: null,
      force_kn_per_m: null, force_kn: null, shortest_flange_mm: shortest, flange_needed_mm: null, flange_on_die: false };
  }
  const change = b.radius_mm < SHARP_RADIUS_MM ? null : toolingRadiusAdjustment(deg(b.angle_degrees), b.radius_mm, best.rNat);
  return {
    bend_id: b.id, die: best.d, v_opening_mm: best.d.v_opening_mm, die_in_rule: best.inRule,
    natural_radius_mm: round2(best.rNat), modelled_radius_mm: b.radius_mm,
    k_factor: Number(interpolateKFactor(m.k_factor_table, best.rNat / t).toFixed(3)),
    flat_change_mm: change === null ? null : round2(change),
    force_kn_per_m: round2(best.perM), force_kn: round2((best.perM * b.length_mm) / 1000),
    shortest_flange_mm: shortest === null ? null : round2(shortest), flange_needed_mm: round2(best.need), flange_on_die: best.flangeOk,
  };
}
