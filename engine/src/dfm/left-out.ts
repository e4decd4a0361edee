// Parts left out of the job (docs/api.md "Bought-in hardware"): bought-in hardware by default, any
// part the caller marks `left_out: true`, put back in with `left_out: false`. A left-out part is
// neither checked nor priced; press-in hardware seated in a sheet part's hole becomes that hole's
// selection by default (the catalog part of its size that fits the hole), unless the caller chose
// something for the hole or put the hardware part back in.
import type { Design, Part, SeatedHardware } from '../contract.ts';
import type { Catalog, Hardware } from '../catalog/types.ts';
import type { CatalogIndex } from '../catalog/index.ts';
import { effectiveSelections, type Configuration, type PartConfiguration } from './configuration.ts';

/** Whether the part is left out of the job under its configuration entry. */
export function isLeftOut(part: Part, cfg: PartConfiguration | null | undefined): boolean {
  return cfg?.left_out ?? !!part.bought_in;
}

/** Why a part is left out, in words, for its DFM report. */
export function leftOutReason(part: Part, cfg: PartConfiguration | null | undefined): { reason: 'bought_in' | 'customer_supplied'; message: string } {
  const n = part.instance_count;
  if (part.bought_in) {
    return { reason: 'bought_in', message: `${part.name} (x${n} per assembly) is left out of the job: ${part.bought_in.message}.` };
  }
  return { reason: 'customer_supplied', message: `${part.name} (x${n} per assembly) is left out of the job (its configuration entry sets left_out: true: supplied by the customer or bought elsewhere): not made, not priced.` };
}

const emptyEntry = (part_id: string): PartConfiguration => ({ part_id, taps: [], studs: [], nuts: [], standoffs: [], countersinks: [] });

/** Hole operations of an entry on one hole. */
const holeTaken = (cfg: PartConfiguration, holeId: number): boolean =>
  [cfg.taps, cfg.studs, cfg.nuts, cfg.standoffs, cfg.countersinks].some((l) => l.some((x) => x.hole_id === holeId));

/** The catalog part a seat is installed from: its size, pressing into this hole, for this material, nearest in length. */
function catalogPart(seat: SeatedHardware, holeDiameter: number, materialType: string | null, catalog: Catalog): Hardware | null {
  const list: readonly Hardware[] = seat.kind === 'nut' ? catalog.nuts : seat.kind === 'stud' ? catalog.studs : catalog.standoffs;
  const fits = list.filter((h) => h.available && h.size === seat.size
    && holeDiameter >= h.mounting_hole_mm - 0.01 && holeDiameter <= h.mounting_hole_mm + h.mounting_hole_tolerance_mm);
  const usable = materialType ? fits.filter((h) => (h.compatible_material_types as readonly string[]).includes(materialType)) : fits;
  const pool = usable.length ? usable : fits;
  if (pool.length === 0) return null;
  const length = (h: Hardware): number => ('length_mm' in h && typeof h.length_mm === 'number' ? h.length_mm : 0);
  return seat.length_mm === null ? pool[0] : pool.reduce((a, b) => (Math.abs(length(b) - seat.length_mm!) < Math.abs(length(a) - seat.length_mm!) ? b : a));
}

/**
 * The configuration as the report checks it: every bought-in part's entry says `left_out`, and seated
 * press-in hardware is its hole's selection where the caller chose nothing for the hole.
 */
export function withLeftOutDefaults(design: Design, config: Configuration, catalog: Catalog, ix: CatalogIndex): Configuration {
  if (!design.parts.some((p) => p.bought_in || p.seated_hardware?.length)) return config;
  const entries = new Map(config.parts.map((p) => [p.part_id, { ...p, taps: [...p.taps], studs: [...p.studs], nuts: [...p.nuts], standoffs: [...p.standoffs], countersinks: [...p.countersinks] }]));
  const entry = (id: string): PartConfiguration => { let e = entries.get(id); if (!e) entries.set(id, (e = emptyEntry(id))); return e; };
  for (const part of design.parts) if (part.bought_in && entries.get(part.id)?.left_out === undefined) entry(part.id).left_out = true;
  const byId = new Map(design.parts.map((p) => [p.id, p]));
  for (const part of design.parts) {
    if (!part.seated_hardware?.length || isLeftOut(part, entries.get(part.id))) continue;
    const material = effectiveSelections(config, part.id).selections.material_id;
    const materialType = material ? ix.materials.get(material)?.type ?? null : null;
    for (const seat of part.seated_hardware) {
      const hw = seat.part_id ? byId.get(seat.part_id) : undefined;
      if (seat.part_id && (!hw || !isLeftOut(hw, entries.get(hw.id)))) continue; // put back in: made, not installed
      const hole = part.holes.find((h) => h.id === seat.hole_id);
      const own = entries.get(part.id);
      if (!hole || (own && holeTaken(own, hole.id))) continue;
      const item = catalogPart(seat, hole.diameter_mm, materialType, catalog);
      if (!item) continue;
      const e = entry(part.id);
      if (seat.kind === 'nut') e.nuts.push({ hole_id: hole.id, nut_id: item.id, side: seat.side });
      else if (seat.kind === 'stud') e.studs.push({ hole_id: hole.id, stud_id: item.id, side: seat.side });
      else e.standoffs.push({ hole_id: hole.id, standoff_id: item.id, side: seat.side });
    }
  }
  // entries in the design's part order: the caller's first, then the ones added
  const order = new Map(design.parts.map((p, i) => [p.id, i]));
  const given = new Set(config.parts.map((p) => p.part_id));
  const parts = [...config.parts.map((p) => entries.get(p.part_id)!), ...[...entries.values()].filter((e) => !given.has(e.part_id)).sort((a, b) => order.get(a.part_id)! - order.get(b.part_id)!)];
  return { ...config, parts };
}
