// Catalogs: typed, versioned data. `defaultCatalog()` is the built-in catalog; a service may load
// another Catalog object (same shape, its own version id) and pass it to dfm() and partPrices().
import { buildMaterials } from './materials.ts';
import { buildTubeProfiles } from './tube-profiles.ts';
import { buildFinishes, buildPowderCoatColors } from './finishes.ts';
import { buildCountersinks, buildNuts, buildStandoffs, buildStuds, buildTaps } from './hardware.ts';
import { DEFAULT_RATES } from './rates.ts';
import { buildPressBrakeTooling } from './press-brake.ts';
import type { Catalog, CatalogKind, Hardware, HardwareKind } from './types.ts';

export * from './types.ts';
export { hardwareModelGlb, revolve, hardwareProfile } from './hardware-model.ts';
export { DEFAULT_RATES } from './rates.ts';
export { PressBrakeMachine, PressBrakePunch, PressBrakeDie } from './press-brake-entries.ts';
export type { PressBrakeTooling } from './press-brake.ts';

/** Bump when any entry or rate changes: reports and quotes carry it so old answers stay explainable. */
export const CATALOG_VERSION = '2026-11-28.2';

let cached: Catalog | null = null;

/** The built-in catalog. Frozen deeply: callers share one instance and must not mutate it. */
export function defaultCatalog(): Catalog {
  if (!cached) {
    cached = deepFreeze({
      version: CATALOG_VERSION,
      materials: buildMaterials(),
      tube_profiles: buildTubeProfiles(),
      finishes: buildFinishes(),
      powder_coat_colors: buildPowderCoatColors(),
      taps: buildTaps(),
      studs: buildStuds(),
      nuts: buildNuts(),
      standoffs: buildStandoffs(),
      countersinks: buildCountersinks(),
      rates: DEFAULT_RATES,
      press_brake: buildPressBrakeTooling(),
    });
  }
  return cached;
}

/** Freezes a plain value and everything in it: a value shared between callers (the catalogs, a cached report) that none may change for the others. */
export function deepFreeze<T>(o: T): T {
  if (o && typeof o === 'object' && !Object.isFrozen(o)) {
    Object.freeze(o);
    for (const v of Object.values(o as object)) deepFreeze(v);
  }
  return o;
}

export const CATALOG_KINDS: readonly CatalogKind[] = ['materials', 'tube-profiles', 'finishes', 'powder-coat-colors', 'taps', 'studs', 'nuts', 'standoffs'];

export function isCatalogKind(s: string): s is CatalogKind { return (CATALOG_KINDS as readonly string[]).includes(s); }

const HARDWARE_KINDS: readonly HardwareKind[] = ['studs', 'nuts', 'standoffs'];

/** Entries of one catalog kind as returned to clients; `process` filters finishes. */
export function catalogEntries(catalog: Catalog, kind: CatalogKind, opts: { process?: 'sheet_metal' | 'tube_laser' } = {}): object[] {
  switch (kind) {
    case 'materials': return catalog.materials;
    case 'tube-profiles': return catalog.tube_profiles;
    case 'finishes': return opts.process ? catalog.finishes.filter((f) => f.processes.includes(opts.process!)) : catalog.finishes;
    case 'powder-coat-colors': return catalog.powder_coat_colors;
    case 'taps': return catalog.taps;
    case 'studs': case 'nuts': case 'standoffs': return catalog[kind];
  }
}

/** One hardware item by kind and id, or null. */
export function findHardware(catalog: Catalog, kind: string, id: string): Hardware | null {
  if (!(HARDWARE_KINDS as readonly string[]).includes(kind)) return null;
  return (catalog[kind as HardwareKind] as Hardware[]).find((h) => h.id === id) ?? null;
}

/** Id -> entry maps, built once per catalog object. */
export interface CatalogIndex {
  materials: Map<string, Catalog['materials'][number]>;
  tube_profiles: Map<string, Catalog['tube_profiles'][number]>;
  finishes: Map<string, Catalog['finishes'][number]>;
  powder_coat_colors: Map<string, Catalog['powder_coat_colors'][number]>;
  taps: Map<string, Catalog['taps'][number]>;
  studs: Map<string, Catalog['studs'][number]>;
  nuts: Map<string, Catalog['nuts'][number]>;
  standoffs: Map<string, Catalog['standoffs'][number]>;
}

const indexes = new WeakMap<Catalog, CatalogIndex>();

export function indexCatalog(catalog: Catalog): CatalogIndex {
  let ix = indexes.get(catalog);
  if (!ix) {
    const m = <T extends { id: string }>(xs: T[]): Map<string, T> => new Map(xs.map((x) => [x.id, x]));
    ix = {
      materials: m(catalog.materials), tube_profiles: m(catalog.tube_profiles), finishes: m(catalog.finishes),
      powder_coat_colors: m(catalog.powder_coat_colors), taps: m(catalog.taps), studs: m(catalog.studs),
      nuts: m(catalog.nuts), standoffs: m(catalog.standoffs),
    };
    indexes.set(catalog, ix);
  }
  return ix;
}
