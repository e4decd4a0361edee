// What each part of a design can be made from: a sheet part the available materials of its own
// thickness (bendable when it bends), a tube part the catalog tube profiles of its own section. The
// same tolerances as the DFM checks, so an offered choice never fails them for thickness or section;
// the closest first (exact thickness, then nearest: catalogs/rank.ts), so whoever takes the first
// (the web's configure form preselects nothing, an agent often takes the first hit) takes the best.
import { defaultCatalog, thicknessTolerance, tubeProfileFits, type Part } from '@kerf/engine';
import { type Caller, type CatalogEntry, type ListEnvelope, type UseCaseContext, DesignInput, PartStockInput, notFound, requireScope, validateInput } from '../core/index.ts';
import { rankByThickness } from '../catalogs/index.ts';
import { getDesign, requireReadyDesign } from './designs.ts';

export interface StockChoice { id: string; name: string }
export interface PartStockChoices {
  part_id: string;
  /** which selection the part takes: material_id (sheet) or tube_profile_id (tube) */
  field: 'material_id' | 'tube_profile_id';
  choices: StockChoice[];
}

type StockField = PartStockChoices['field'];

/** How far a profile's section is from the tube's (mm, summed over wall and outer sizes): 0 is the same section. */
function sectionDistance(tube: NonNullable<Part['tube']>, p: CatalogEntry): number {
  const n = (v: unknown): number => (typeof v === 'number' ? v : 0);
  const wall = Math.abs(n(tube.wall_thickness_mm) - n(p.wall_thickness_mm));
  if (tube.profile === 'round') return wall + Math.abs(n(tube.outer_diameter_mm) - n(p.outer_diameter_mm));
  const a = [n(tube.outer_width_mm), n(tube.outer_height_mm)].sort((x, y) => y - x);
  const b = [n(p.outer_width_mm), n(p.outer_height_mm)].sort((x, y) => y - x);
  return wall + Math.abs(a[0] - b[0]) + Math.abs(a[1] - b[1]);
}

/** The catalog entries a part can be made from, the closest first. */
function stockFor(part: Part, materials: readonly CatalogEntry[], profiles: readonly CatalogEntry[]): { field: StockField; entries: CatalogEntry[] } {
  if (part.tube) {
    const tube = part.tube;
    const fit = profiles.filter((p) => p.available && tubeProfileFits(tube, p as never));
    return { field: 'tube_profile_id', entries: fit.map((p, i) => ({ p, d: sectionDistance(tube, p), i })).sort((a, b) => a.d - b.d || a.i - b.i).map((x) => x.p) };
  }
  const t = part.detected_thickness_mm;
  if (typeof t !== 'number') return { field: 'material_id', entries: [] };
  const fit = materials.filter((m) => m.available && m.process === 'sheet_metal' && (part.bend_count === 0 || m.bendable)
    && typeof m.thickness_mm === 'number' && Math.abs(m.thickness_mm - t) <= thicknessTolerance(m.thickness_mm));
  return { field: 'material_id', entries: rankByThickness(fit, { unit: 'mm', value: t }) };
}

/** One entry per part of a ready design (none while it is analysed). */
export async function partStockChoices(ctx: UseCaseContext, caller: Caller, input: DesignInput): Promise<PartStockChoices[]> {
  const design = await getDesign(ctx, caller, input);
  if (design.status !== 'ready') return [];
  return stockChoicesOf(ctx, design.parts as Part[]);
}

/** The same for parts at hand (a design analysed in this process: `kerf dfm`, `kerf quote`). */
export async function stockChoicesOf(ctx: Pick<UseCaseContext, 'engine'>, parts: readonly Part[]): Promise<PartStockChoices[]> {
  const [materials, profiles] = await Promise.all([ctx.engine.catalog('materials'), ctx.engine.catalog('tube_profiles')]);
  return parts.map((part) => {
    const { field, entries } = stockFor(part as Part, materials, profiles);
    return { part_id: part.id, field, choices: entries.map((e) => ({ id: e.id, name: String((field === 'material_id' ? e.name : e.display_name) ?? e.id) })) };
  });
}

/**
 * The stock one part fits, as catalog entries, the closest first: the materials (sheet) or tube
 * profiles (tube) its configuration may name (`field`). Readable by every caller who may see the design.
 */
export async function partStock(ctx: UseCaseContext, caller: Caller, input: PartStockInput): Promise<ListEnvelope<CatalogEntry> & { part_id: string; field: StockField; catalog: 'materials' | 'tube_profiles' }> {
  const q = validateInput(PartStockInput, input, { location: 'querystring' });
  requireScope(caller, 'designs');
  const { design } = await requireReadyDesign(ctx, caller.accountId, q.design_id, 'design_id');
  const part = design.parts.find((p) => p.id === q.part_id);
  if (!part) throw notFound('part', q.part_id, 'part_id');
  const [materials, profiles] = await Promise.all([ctx.engine.catalog('materials'), ctx.engine.catalog('tube_profiles')]);
  const { field, entries } = stockFor(part as Part, materials, profiles);
  return { object: 'list', data: entries, has_more: false, next_cursor: null, part_id: part.id, field, catalog: field === 'material_id' ? 'materials' : 'tube_profiles' };
}

/** The sizes a countersink configuration entry names for a standard countersink (a DFM capability option id); null when unknown. */
export function countersinkSize(optionId: string): { outer_diameter_mm: number; angle: 82 | 90 } | null {
  const c = defaultCatalog().countersinks.find((x) => x.id === optionId);
  return c ? { outer_diameter_mm: c.outer_diameter_mm, angle: c.angle_degrees } : null;
}
