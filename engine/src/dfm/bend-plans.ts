// Each part's press-brake plan under a configuration, as its DFM report gives it: what the
// production files' bend table is drawn from.
import type { Design } from '../contract.ts';
import type { Catalog } from '../catalog/types.ts';
import { bendTableRows, type BendPlan } from '../brake/index.ts';
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
