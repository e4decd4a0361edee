// Parts left out of the job (docs/api.md "Bought-in hardware"): bought-in hardware by default, any
// part the caller marks `left_out: true`, put back in with `left_out: false`. A left-out part is
// neither checked nor priced; press-in hardware seated in a sheet part's hole becomes that hole's
// selection by default (the catalog part of its size that fits the hole), unless the caller chose
// something for the hole or put the hardware part back in.
import type { Design, Part, SeatedHardware } from '../contract.ts';
import type { Catalog, Hardware } from '../catalog/types.ts';
import type { CatalogIndex } from '../catalog/index.ts';
import { effectiveSelections, type Configuration, type PartConfiguration } from './configuration.ts';
import { pemPartNumber, type PemPartNumber } from '../hardware/names.ts';

/** A catalog length is the part number's length within this, mm (lengths are whole or half mm). */
const LENGTH_MATCH_MM = 0.01;

/** Whether the part is left out of the job under its configuration entry. */
export function isLeftOut(part: Part, cfg: PartConfiguration | null | undefined): boolean {
  return cfg?.left_out ?? !!part.bought_in;
}

/** Why a part is left out, in words, for its DFM report. */
export function leftOutReason(part: Part, cfg: PartConfiguration | null | undefined, notInstalled?: string): { reason: 'bought_in' | 'customer_supplied'; message: string } {
  const n = part.instance_count;
  if (part.bought_in) {
    return { reason: 'bought_in', message: `${part.name} (x${n} per assembly) is left out of the job: ${part.bought_in.message}${notInstalled ? `; ${notInstalled}` : ''}.` };
  }
  return { reason: 'customer_supplied', message: `${part.name} (x${n} per assembly) is left out of the job (its configuration entry sets left_out: true: supplied by the customer or bought elsewhere): not made, not priced.` };
}

const emptyEntry = (part_id: string): PartConfiguration => ({ part_id, taps: [], studs: [], nuts: [], standoffs: [], countersinks: [] });

/** Hole operations of an entry on one hole. */
const holeTaken = (cfg: PartConfiguration, holeId: number): boolean =>
  [cfg.taps, cfg.studs, cfg.nuts, cfg.standoffs, cfg.countersinks].some((l) => l.some((x) => x.hole_id === holeId));

/**
 * The catalog part a seat is installed from: its size, pressing into this hole, for this material.
 * When the seated part's name is a maker's part number of a standoff or stud (BSO-M3-8), only the
 * catalog item of that type (blind or thru-threaded) and length will do, or none: a wrong part is
 * never installed. Otherwise the length nearest the seat's.
 */
function catalogPart(seat: SeatedHardware, holeDiameter: number, materialType: string | null, catalog: Catalog, pem: PemPartNumber | null): Hardware | null {
  const list: readonly Hardware[] = seat.kind === 'nut' ? catalog.nuts : seat.kind === 'stud' ? catalog.studs : catalog.standoffs;
  const length = (h: Hardware): number => ('length_mm' in h && typeof h.length_mm === 'number' ? h.length_mm : 0);
  const exact = seat.kind === 'nut' ? null : pem;
  const fits = list.filter((h) => h.available && h.size === seat.size
    && holeDiameter >= h.mounting_hole_mm - 0.01 && holeDiameter <= h.mounting_hole_mm + h.mounting_hole_tolerance_mm
    && (!exact || exact.blind === null || ('thru' in h && h.thru === !exact.blind))
    && (!exact || exact.length_mm === null || Math.abs(length(h) - exact.length_mm) <= LENGTH_MATCH_MM));
  const usable = materialType ? fits.filter((h) => (h.compatible_material_types as readonly string[]).includes(materialType)) : fits;
  const pool = usable.length ? usable : fits;
  if (pool.length === 0) return null;
  return seat.length_mm === null ? pool[0] : pool.reduce((a, b) => (Math.abs(length(b) - seat.length_mm!) < Math.abs(length(a) - seat.length_mm!) ? b : a));
}

/** Seated hardware the catalog has no part for, by the bought-in part's id (filled by withLeftOutDefaults). */
export type NotInstalled = Map<string, { holes: number[]; on: string; what: string; kind: string; hole_mm: number }>;

/** Why seated hardware was not installed, in words. */
export function notInstalledText(n: NonNullable<ReturnType<NotInstalled['get']>>): string {
  return `it sits in hole${n.holes.length > 1 ? 's' : ''} ${n.holes.join(', ')} of ${n.on}, but the catalog has no ${n.what} for a Ø${n.hole_mm} mm hole, so it is not installed (no other part is put in its place): supply it, or select a catalog ${n.kind} for the hole`;
}

/**
 * The configuration as the report checks it: every bought-in part's entry says `left_out`, and seated
 * press-in hardware is its hole's selection where the caller chose nothing for the hole.
 */
export function withLeftOutDefaults(design: Design, config: Configuration, catalog: Catalog, ix: CatalogIndex, notInstalled?: NotInstalled): Configuration {
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
      const pem = hw ? pemPartNumber(hw.name) : null;
      const item = catalogPart(seat, hole.diameter_mm, materialType, catalog, pem);
      if (!item) {
        if (hw && notInstalled) {
          const what = pem ? `${pem.text} (${seat.size} ${pem.blind === null ? '' : pem.blind ? 'blind-threaded ' : 'thru-threaded '}${seat.kind}${pem.length_mm === null ? '' : ` x ${pem.length_mm} mm`})` : `${seat.size} ${seat.kind}${seat.length_mm === null ? '' : ` of ${seat.length_mm} mm`}`;
          const n = notInstalled.get(hw.id) ?? { holes: [], on: part.name, what, kind: seat.kind, hole_mm: hole.diameter_mm };
          n.holes = [...n.holes, hole.id].sort((a, b) => a - b);
          notInstalled.set(hw.id, n);
        }
        continue;
      }
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
