// The engine answers in references (a report id and part ids, the catalog whose ids a requirement
// wants) and leaves the contract's URL fields null in their places; these fill them through Links.
import type { Links, CatalogName } from './links.ts';
import type { DfmOutcome, QuoteOutcome } from './engine-api.ts';

/** The engine's catalog kinds (kebab-case) by the contract's catalog names. */
const CATALOG_BY_ENGINE_KIND: Record<string, CatalogName> = {
  'materials': 'materials', 'tube-profiles': 'tube_profiles', 'finishes': 'finishes', 'powder-coat-colors': 'powder_coat_colors',
  'taps': 'taps', 'studs': 'studs', 'nuts': 'nuts', 'standoffs': 'standoffs',
};

type Obj = Record<string, unknown>;

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
function presentRequirement(links: Links, r: Obj): Obj {
  if (!('catalog' in r)) return r;
  const { catalog, ...rest } = r;
  const name = CATALOG_BY_ENGINE_KIND[String(catalog)];
  return { ...rest, allowed_values_url: name ? links.catalog(name) : null };
}

/** A DFM report as the contract shows it: part image URLs and requirement catalog URLs. */
export function presentDfmReport<T extends DfmOutcome>(links: Links, report: T): T {
  return {
    ...report,
    parts: report.parts.map((p) => ({ ...p, image_url: links.dfmPartImage(report.id, p.part_id) })),
    requirements: report.requirements.map((r) => presentRequirement(links, r)),
  };
}

/** A quote as the contract shows it: its status_url, and each item's requirements and DFM report presented. */
export function presentQuote<T extends QuoteOutcome>(links: Links, quote: T): T {
  const items = quote.items.map((item) => ({
    ...item,
    requirements: Array.isArray(item.requirements) ? (item.requirements as Obj[]).map((r) => presentRequirement(links, r)) : item.requirements,
    dfm: presentDfmReport(links, item.dfm),
  }));
  const requirements = Array.isArray(quote.requirements) ? (quote.requirements as Obj[]).map((r) => presentRequirement(links, r)) : quote.requirements;
  return { ...quote, status_url: links.quote(quote.id), items, requirements };
}
