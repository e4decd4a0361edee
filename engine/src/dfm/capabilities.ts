// Capabilities: what this part (and each of its holes) can take, and why not.
import type { Part } from '../contract.ts';
import type { Catalog, Finish, Hardware, HardwareKind, Material, TubeProfile } from '../catalog/types.ts';
import {
  blocking, countersinkFit, hardwareHoleFit, hardwarePartFit, matchingCountersinks, tapHoleFit, tapPartFit, type SheetContext,
} from './hole-checks.ts';
import { countersinkDepth } from './rules.ts';
import type { Capabilities, CapabilityList, CapabilityOption, HoleCapabilities, HoleCapability } from './contract.ts';

export type { Capabilities, CapabilityList, CapabilityOption, HoleCapabilities, HoleCapability };

export type Stock = { kind: 'sheet'; material: Material } | { kind: 'tube'; profile: TubeProfile } | { kind: 'none'; reason: string };

function list(options: CapabilityOption[], noneReason: string): CapabilityList {
  const any = options.some((o) => o.available);
  return { available: any, unavailable_reason: any ? null : (options.find((o) => o.unavailable_reason)?.unavailable_reason ?? noneReason), options };
}
const unavailableAll = (items: Array<{ id: string; name: string }>, reason: string): CapabilityList =>
  ({ available: false, unavailable_reason: reason, options: items.map((x) => ({ id: x.id, name: x.name, available: false, unavailable_reason: reason })) });
const BOTH_SIDES: Array<'top' | 'bottom'> = ['top', 'bottom'];
const holeNone = (reason: string): HoleCapability => ({ available: false, unavailable_reason: reason, option_ids: [], sides: [] });
const holeFrom = (ids: string[], reason: string): HoleCapability =>
  ({ available: ids.length > 0, unavailable_reason: ids.length ? null : reason, option_ids: ids, sides: ids.length ? [...BOTH_SIDES] : [] });

/** Whether a finish can be applied to this part with this stock; null when it can. */
export function finishUnavailableReason(finish: Finish, part: Part, stock: Stock): string | null {
  if (!finish.available) return `${finish.name} is not available.`;
  const process = part.suggested_process;
  if (!finish.processes.includes(process)) return `${finish.name} is not offered for ${process.replace('_', ' ')} parts.`;
  if (stock.kind === 'none') return stock.reason;
  const type = stock.kind === 'sheet' ? stock.material.type : stock.profile.type;
  const name = stock.kind === 'sheet' ? stock.material.material : stock.profile.material;
  if (!finish.compatible_material_types.includes(type)) return `${finish.name} cannot be applied to ${name}.`;
  const longest = Math.max(part.formed_dimensions.length_mm, part.formed_dimensions.width_mm, part.formed_dimensions.height_mm);
  if (longest > finish.max_part_length_mm) return `${finish.name} takes parts up to ${finish.max_part_length_mm} mm; this part is ${Math.round(longest)} mm long.`;
  return null;
}

const POWDER_COAT_TYPE = 'powder_coat';

export function computeCapabilities(part: Part, stock: Stock, catalog: Catalog): Capabilities {
  const finishOptions = catalog.finishes.map((f) => {
    const why = finishUnavailableReason(f, part, stock);
    return { id: f.id, name: f.name, available: why === null, unavailable_reason: why };
  });
  const powder = catalog.finishes.find((f) => f.type === POWDER_COAT_TYPE && f.available) ?? null;
  const powderWhy = powder ? finishUnavailableReason(powder, part, stock) : 'Powder coat is not offered.';
  const colorOptions = catalog.powder_coat_colors.map((c) => {
    const why = !c.available ? `${c.name} is not available.` : powderWhy;
    return { id: c.id, name: c.name, available: why === null, unavailable_reason: why };
  });
  const finish_id = list(finishOptions, 'No finish fits this part.');
  const powder_coat_color_id = list(colorOptions, powderWhy ?? 'No colour is available.');

  const hardwareKinds: HardwareKind[] = ['studs', 'nuts', 'standoffs'];
  if (stock.kind !== 'sheet') {
    const reason = stock.kind === 'tube' ? 'Taps, hardware and countersinks are not offered on tube parts.' : stock.reason;
    return {
      taps: unavailableAll(catalog.taps, reason), studs: unavailableAll(catalog.studs, reason), nuts: unavailableAll(catalog.nuts, reason),
      standoffs: unavailableAll(catalog.standoffs, reason), countersinks: unavailableAll(catalog.countersinks, reason),
      finish_id, powder_coat_color_id,
      holes: part.holes.map((h) => ({ hole_id: h.id, taps: holeNone(reason), studs: holeNone(reason), nuts: holeNone(reason), standoffs: holeNone(reason), countersinks: holeNone(reason) })),
    };
  }

  const ctx: SheetContext = { part, material: stock.material, thickness: stock.material.thickness_mm };
  const firstReason = (fs: ReturnType<typeof blocking>): string | null => (fs.length ? fs[0].message : null);
  const tapFit = new Map(catalog.taps.map((t) => [t.id, firstReason(blocking(tapPartFit(t, ctx)))]));
  const taps = list(catalog.taps.map((t) => ({ id: t.id, name: t.name, available: tapFit.get(t.id) === null, unavailable_reason: tapFit.get(t.id) ?? null })), 'No tap fits this part.');
  const hwFit = new Map<string, string | null>();
  const hw: Record<HardwareKind, CapabilityList> = {} as Record<HardwareKind, CapabilityList>;
  for (const k of hardwareKinds) {
    const items = catalog[k] as Hardware[];
    for (const it of items) hwFit.set(it.id, firstReason(blocking(hardwarePartFit(it, ctx))));
    hw[k] = list(items.map((it) => ({ id: it.id, name: it.name, available: hwFit.get(it.id) === null, unavailable_reason: hwFit.get(it.id) ?? null })), `No ${k} fit this part.`);
  }
  const cskOptions = catalog.countersinks.map((c) => {
    const depth = countersinkDepth(c.outer_diameter_mm, c.hole_diameter_mm, c.angle_degrees);
    const why = depth > ctx.thickness ? `${c.name} is ${depth.toFixed(2)} mm deep, deeper than the ${ctx.thickness} mm sheet.` : null;
    return { id: c.id, name: c.name, available: why === null, unavailable_reason: why };
  });
  const countersinks = list(cskOptions, 'No countersink fits this thickness.');

  const holes = part.holes.map((h): HoleCapabilities => {
    const tapIds = catalog.taps.filter((t) => tapFit.get(t.id) === null && blocking(tapHoleFit(t, h)).length === 0).map((t) => t.id);
    const per = {} as Record<HardwareKind, HoleCapability>;
    for (const k of hardwareKinds) {
      const ids = (catalog[k] as Hardware[]).filter((it) => hwFit.get(it.id) === null && blocking(hardwareHoleFit(it, h, ctx)).length === 0).map((it) => it.id);
      per[k] = hw[k].available
        ? holeFrom(ids, `No ${k.slice(0, -1)} fits hole ${h.id} (${h.shape}, ${Number(h.diameter_mm.toFixed(2))} mm) at its distance from edges and bends.`)
        : holeNone(hw[k].unavailable_reason ?? `No ${k} fit this part.`);
    }
    const cskIds = matchingCountersinks(catalog.countersinks, h)
      .filter((c) => blocking(countersinkFit(c.outer_diameter_mm, c.angle_degrees, h, ctx)).length === 0).map((c) => c.id);
    return {
      hole_id: h.id,
      taps: taps.available ? holeFrom(tapIds, `No tap fits hole ${h.id} (${h.shape}, ${Number(h.diameter_mm.toFixed(2))} mm) at its distance from the edge.`) : holeNone(taps.unavailable_reason ?? 'No tap fits this part.'),
      studs: per.studs, nuts: per.nuts, standoffs: per.standoffs,
      countersinks: holeFrom(cskIds, `No standard countersink fits hole ${h.id} (${Number(h.diameter_mm.toFixed(2))} mm) in this thickness and position.`),
    };
  });
  return { taps, studs: hw.studs, nuts: hw.nuts, standoffs: hw.standoffs, countersinks, finish_id, powder_coat_color_id, holes };
}
