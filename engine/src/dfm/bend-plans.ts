// Each part's press-brake plan under a configuration, as its DFM report gives it: what the
// production files' bend table is drawn from.
import type { Design } from '../contract.ts';
import type { Catalog } from '../catalog/types.ts';
import { bendStepSvgs, bendTableRows, type BendPlan } from '../brake/index.ts';
import { interpolateKFactor } from '../sheet/kfactor.ts';
import { dfm } from './report.ts';

/** Part id -> bend plan, for the bent sheet parts that have one. */
export function bendPlansOf(design: Design, configuration: unknown, catalog: Catalog): Record<string, BendPlan> {
  const report = dfm(design, configuration, catalog, { id: 'dfm_bend_plans', now: new Date(0).toISOString(), generateProductionFiles: false });
  const out: Record<string, BendPlan> = {};
  for (const p of report.parts) if (p.bend_plan) out[p.part_id] = p.bend_plan;
  return out;
}

/** Part id -> its bend table as rows of text (header first), for the production files. */
export function bendTablesOf(design: Design, configuration: unknown, catalog: Catalog): Record<string, string[][]> {
  return Object.fromEntries(Object.entries(bendPlansOf(design, configuration, catalog)).map(([id, plan]) => [id, bendTableRows(plan)]));
}

/**
 * Part id -> one SVG per step of its bend plan (the part on the die under the punch at the bottom of
 * the stroke), for the bent sheet parts whose plan found a sequence.
 */
export function bendStepImagesOf(design: Design, configuration: unknown, catalog: Catalog): Record<string, string[]> {
  const tooling = catalog.press_brake;
  if (!tooling) return {};
  const report = dfm(design, configuration, catalog, { id: 'dfm_bend_steps', now: new Date(0).toISOString(), generateProductionFiles: false });
  const out: Record<string, string[]> = {};
  for (const rp of report.parts) {
    const part = design.parts.find((p) => p.id === rp.part_id);
    const m = catalog.materials.find((x) => x.id === rp.material_id);
    if (!rp.bend_plan || rp.bend_plan.status !== 'found' || !part || !m) continue;
    // the thickness and K-factor the plan was searched with (brake/index.ts planBends)
    const t = m.thickness_mm;
    const k = part.flat_pattern?.k_factor ?? interpolateKFactor(m.k_factor_table, (part.bends[0]?.radius_mm ?? t) / t);
    out[part.id] = bendStepSvgs(part, rp.bend_plan, tooling, t, k);
  }
  return out;
}
