// The engine answers in references (a report id and part ids, the catalog whose ids a requirement
// wants) and leaves the contract's URL fields null in their places; these fill them through Links.
import type { DfmPartReport, DfmReport, DfmRequirement } from '@kerf/engine';
import type { Links, CatalogName } from './links.ts';

/** The engine's catalog kinds (kebab-case) by the contract's catalog names. */
const CATALOG_BY_ENGINE_KIND: Record<string, CatalogName> = {
  'materials': 'materials', 'tube-profiles': 'tube_profiles', 'finishes': 'finishes', 'powder-coat-colors': 'powder_coat_colors',
  'taps': 'taps', 'studs': 'studs', 'nuts': 'nuts', 'standoffs': 'standoffs',
};

type Obj = Record<string, unknown>;

/** A requirement as the contract shows it: the URL of the catalog whose ids it wants in place of the catalog. */
export type PresentedRequirement = Omit<DfmRequirement, 'allowed_values_url' | 'catalog'> & { allowed_values_url: string | null };
/** A report's part as the contract shows it: with the URL of its DFM image. */
export type PresentedDfmPart = Omit<DfmPartReport, 'image_url'> & { image_url: string };
/** A DFM report as the contract shows it. */
export type PresentedDfmReport = Omit<DfmReport, 'parts' | 'requirements'> & { parts: PresentedDfmPart[]; requirements: PresentedRequirement[] };

/** A copy of `o` with `[key, value]` right after `after` (appended when `after` is absent). */
export function insertAfter(o: Obj, after: string, key: string, value: unknown): Obj {
  if (!(after in o)) return { ...o, [key]: value };
  const out: Obj = {};
  for (const [k, v] of Object.entries(o)) {
    if (k === key) continue;
    out[k] = v;
    if (k === after) out[key] = value;
  }
  return out;
}

/** The engine's requirement names its catalog and leaves allowed_values_url null: the URL takes its place. */
export function presentRequirement(links: Links, r: DfmRequirement): PresentedRequirement {
  const { catalog, ...rest } = r;
  const name = CATALOG_BY_ENGINE_KIND[catalog];
  return { ...rest, allowed_values_url: name ? links.catalog(name) : null };
}

/** A part's bend plan with the URL of each step's picture. */
function presentBendPlan(links: Links, reportId: string, p: DfmPartReport): DfmPartReport['bend_plan'] {
  const plan = p.bend_plan;
  if (!plan) return plan;
  return { ...plan, sequence: plan.sequence.map((s) => ({ ...s, image_url: links.dfmBendStepImage(reportId, p.part_id, s.step) })) };
}

/** A DFM report as the contract shows it: part and bend-step image URLs, requirement catalog URLs. */
export function presentDfmReport(links: Links, report: DfmReport): PresentedDfmReport {
  return {
    ...report,
    parts: report.parts.map((p) => ({ ...p, image_url: links.dfmPartImage(report.id, p.part_id), ...(p.bend_plan ? { bend_plan: presentBendPlan(links, report.id, p) } : {}) })),
    requirements: report.requirements.map((r) => presentRequirement(links, r)),
  };
}
