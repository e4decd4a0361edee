// Material priced from a nest (docs/nesting.md "Material cost"): the pieces of every priced sheet
// part of a quote, grouped by material (one SKU is one material and thickness), are nested on that
// material's stock sheet; the sheets the nest uses are the material bought. Each part's line carries
// its share of it (by the area its pieces take in the nest) and the nest's utilisation.
import type { Part } from '../contract.ts';
import type { Material, RateCard } from '../catalog/types.ts';
import { nest, partOutline, outlineArea, type NestRequest, type NestResult, type Outline } from '../nest/index.ts';
import { boxOutline, hasTrueOutline } from '../nest/part-outline.ts';

/** More pieces than this of one material are nested as a proportional sample and scaled (docs/nesting.md). */
export const NEST_MAX_PIECES = 200;
/** Nor more sheets' worth of pieces (by their boxes): a sample this big shows how the sheets fill. */
export const NEST_MAX_SHEETS = 6;
/** The order search of a quote's nest: a few greedy orders (deterministic; no clock involved). */
const QUOTE_NEST_EVALUATIONS = 4;

/** One part line's pieces to nest. */
export interface NestPiece { key: string; part: Part; material: Material; count: number }

/** What a line shows of the nest its part is in (a LineItem's `nest`). */
export interface LineNest {
  /** the sheet area charged, in sheets (3.4: three and four tenths of a sheet's area) */
  sheets: number;
  sheet_length_mm: number;
  sheet_width_mm: number;
  /** the flats' area over the sheet area charged, 0 to 1 */
  utilization: number;
}

/** One material's nest as made: what the quote page draws and the shop's files are written from. */
export interface MaterialNest {
  material_id: string;
  /** as each of its lines shows it */
  line: LineNest;
  /** true when the pieces were too many to nest one by one: the nest is a proportional sample */
  sampled: boolean;
  /** placements by part line key (`item index/part id`) */
  result: NestResult;
  /** part line key -> the outline placed */
  outlines: Record<string, Outline>;
}

export interface NestedMaterial {
  /** part line key -> material cents per piece, unrounded */
  unitCents: Map<string, number>;
  /** part line key -> the nest it is in */
  nestOf: Map<string, LineNest>;
  /** every material's nest, in the order their first piece came */
  nests: MaterialNest[];
}

/** Reuses nests: the service keeps them (same flats, quantities and rates, same nest). */
export type NestMemo = (request: NestRequest, make: () => NestResult) => NestResult;

const kgOf = (areaMm2: number, m: Material): number => (areaMm2 * m.thickness_mm / 1000) * m.density_g_per_cm3 / 1000;

/**
 * Nests each material's pieces and prices the sheets used. Pieces whose part has no flat, or that no
 * stock sheet takes, are left out (their lines keep the bounding-box price).
 */
export function nestMaterials(pieces: readonly NestPiece[], rates: RateCard, memo?: NestMemo): NestedMaterial {
  const unitCents = new Map<string, number>();
  const nestOf = new Map<string, LineNest>();
  const nests: MaterialNest[] = [];
  const byMaterial = new Map<string, Array<NestPiece & { outline: Outline }>>();
  for (const p of pieces) {
    const outline = partOutline(p.part);
    if (!outline || p.count < 1) continue;
    const list = byMaterial.get(p.material.id) ?? [];
    list.push({ ...p, outline });
    byMaterial.set(p.material.id, list);
  }
  for (const list of byMaterial.values()) {
    const m = list[0].material;
    const total = list.reduce((a, p) => a + p.count, 0);
    // a sample in proportion when there are too many pieces to nest one by one
    const sheetArea0 = m.max_sheet_size_mm.length_mm * m.max_sheet_size_mm.width_mm;
    const boxes = list.reduce((a, p) => a + (p.part.flat_pattern!.length_mm + 2 * rates.nest_spacing_mm) * (p.part.flat_pattern!.width_mm + 2 * rates.nest_spacing_mm) * p.count, 0);
    const scale = Math.min(1, NEST_MAX_PIECES / total, (NEST_MAX_SHEETS * sheetArea0) / boxes);
    const counts = list.map((p) => (scale < 1 ? Math.max(1, Math.round(p.count * scale)) : p.count));
    const request: NestRequest = {
      items: list.map((p, i) => ({ id: p.key, outline: p.outline, count: counts[i] })),
      sheet: { length_mm: m.max_sheet_size_mm.length_mm, width_mm: m.max_sheet_size_mm.width_mm },
      spacing_mm: 2 * rates.nest_spacing_mm,
      margin_mm: rates.nest_edge_margin_mm,
      max_evaluations: QUOTE_NEST_EVALUATIONS,
    };
    const run = (r: NestRequest): NestResult => (memo ? memo(r, () => nest(r)) : nest(r));
    let result = run(request);
    // The greedy placement is a heuristic: a shape can nest worse than the rectangle holding it (a
    // near-square plate with cut corners tiles best as squares). That rectangle contains the true
    // flat, so its nest is valid too: the cheaper of the two is kept (docs/nesting.md "Part outlines").
    if (list.some((p) => hasTrueOutline(p.part))) {
      const boxed = run({ ...request, items: list.map((p, i) => ({ id: p.key, outline: boxOutline(p.part) ?? p.outline, count: counts[i] })) });
      if (boxed.findings.length <= result.findings.length && chargedArea(boxed, rates.nest_charge) < chargedArea(result, rates.nest_charge)) result = boxed;
    }
    const left = new Set(result.findings.map((f) => f.part_id));
    const nested = list.map((p, i) => ({ p, i })).filter(({ p }) => !left.has(p.key));
    if (!nested.length || !result.sheets.length) continue;
    const sheetArea = result.sheet.length_mm * result.sheet.width_mm;
    const sampleCharged = chargedArea(result, rates.nest_charge);
    // what the nest charges, and each line's footprint in it, at the full counts
    const footprint = nested.map(({ p, i }) => outlineArea(p.outline) * counts[i]);
    const sampleFootprint = footprint.reduce((a, b) => a + b, 0);
    const fullFootprint = nested.reduce((a, { p }) => a + outlineArea(p.outline) * p.count, 0);
    const charged = sampleCharged * (fullFootprint / sampleFootprint);
    const flatArea = nested.reduce((a, { p }) => a + (p.part.flat_pattern?.area_mm2 ?? outlineArea(p.outline)) * p.count, 0);
    const cents = kgOf(charged, m) * m.price_per_kg_cents;
    const line: LineNest = {
      sheets: round3(charged / sheetArea), sheet_length_mm: result.sheet.length_mm, sheet_width_mm: result.sheet.width_mm,
      utilization: round3(Math.min(1, flatArea / charged)),
    };
    nested.forEach(({ p }) => {
      const share = (outlineArea(p.outline) * p.count) / fullFootprint;
      unitCents.set(p.key, (cents * share) / p.count);
      nestOf.set(p.key, line);
    });
    nests.push({ material_id: m.id, line, sampled: scale < 1, result, outlines: Object.fromEntries(nested.map(({ p }) => [p.key, p.outline])) });
  }
  return { unitCents, nestOf, nests };
}

/** The sheet area a nest is charged for under the rate card's `nest_charge`, mm². */
export function chargedArea(result: NestResult, charge: RateCard['nest_charge']): number {
  const sheetArea = result.sheet.length_mm * result.sheet.width_mm;
  const used = (s: NestResult['sheets'][number]): number => s.used_length_mm * s.used_width_mm;
  if (charge === 'whole_sheets') return result.sheets.length * sheetArea;
  if (charge === 'last_fraction') return result.sheets.length ? (result.sheets.length - 1) * sheetArea + used(result.sheets[result.sheets.length - 1]) : 0;
  return result.sheets.reduce((a, s) => a + used(s), 0);
}

const round3 = (x: number): number => Math.round(x * 1000) / 1000;
