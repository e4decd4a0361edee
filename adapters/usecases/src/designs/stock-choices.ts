// What each part of a design can be made from, for a person configuring it (the web site's configure
// form): a sheet part the available materials of its own thickness (bendable when it bends), a tube
// part the catalog tube profiles of its own section. The same tolerances as the DFM checks, so an
// offered choice never fails them for thickness or section.
import { defaultCatalog, thicknessTolerance, tubeProfileFits } from '@kerf/engine';
import { type Caller, type UseCaseContext, DesignInput } from '../core/index.ts';
import { getDesign } from './designs.ts';

export interface StockChoice { id: string; name: string }
export interface PartStockChoices {
  part_id: string;
  /** which selection the part takes: material_id (sheet) or tube_profile_id (tube) */
  field: 'material_id' | 'tube_profile_id';
  choices: StockChoice[];
}

/** One entry per part of a ready design (none while it is analysed). */
export async function partStockChoices(ctx: UseCaseContext, caller: Caller, input: DesignInput): Promise<PartStockChoices[]> {
  const design = await getDesign(ctx, caller, input);
  if (design.status !== 'ready') return [];
  const [materials, profiles] = await Promise.all([ctx.engine.catalog('materials'), ctx.engine.catalog('tube_profiles')]);
  return design.parts.map((part) => {
    if (part.tube) {
      const tube = part.tube;
      const fit = profiles.filter((p) => p.available && tubeProfileFits(tube, p));
      return { part_id: part.id, field: 'tube_profile_id', choices: fit.map((p) => ({ id: p.id, name: String(p.display_name ?? p.id) })) };
    }
    const t = part.detected_thickness_mm;
    const fit = materials.filter((m) => m.available && m.process === 'sheet_metal' && (part.bend_count === 0 || m.bendable)
      && typeof t === 'number' && typeof m.thickness_mm === 'number' && Math.abs(m.thickness_mm - t) <= thicknessTolerance(m.thickness_mm));
    return { part_id: part.id, field: 'material_id', choices: fit.map((m) => ({ id: m.id, name: String(m.name ?? m.id) })) };
  });
}

/** The sizes a countersink configuration entry names for a standard countersink (a DFM capability option id); null when unknown. */
export function countersinkSize(optionId: string): { outer_diameter_mm: number; angle: 82 | 90 } | null {
  const c = defaultCatalog().countersinks.find((x) => x.id === optionId);
  return c ? { outer_diameter_mm: c.outer_diameter_mm, angle: c.angle_degrees } : null;
}
