// One ranking of sheet materials by thickness, shared by catalog search (MCP search_catalog), the
// REST materials filter, the web's stock pickers and the stock offered for a part: the entry of
// exactly the thickness asked for, in the unit it was asked in, first; then the nearest.

const MM_PER_IN = 25.4;
/** Two thicknesses closer than this are the same figure (catalog figures carry 3 decimals of mm). */
const SAME_MM = 1e-3;
/** Two inch figures closer than this are the same (the catalog states inches to 3 decimals). */
const SAME_IN = 5e-4;

/** A thickness as a person wrote it: "2 mm", "0.075 in", `0.075"`, "14 ga", "14 gauge". */
export interface WantedThickness { unit: 'mm' | 'in' | 'ga'; value: number }

/** A material entry; the ranking reads its thickness_mm, thickness_in, gauge and display_thickness. */
interface MaterialFigures { readonly [field: string]: unknown }

const THICKNESS = /(?:^|\s)(\d+(?:\.\d+)?|\.\d+)\s*(mm|millimet(?:er|re)s?|in|inch(?:es)?|"|ga|gauge|gage)(?=\s|$)/i;

/** The thickness a search query names, and the query's other words; null thickness when it names none. */
export function thicknessInQuery(query: string): { wanted: WantedThickness | null; rest: string } {
  const m = THICKNESS.exec(query);
  if (!m) return { wanted: null, rest: query };
  const value = Number(m[1]);
  const u = m[2].toLowerCase();
  const unit = u.startsWith('m') ? 'mm' : u.startsWith('g') ? 'ga' : 'in';
  return { wanted: { unit, value }, rest: `${query.slice(0, m.index)} ${query.slice(m.index + m[0].length)}`.trim() };
}

/** The distance of an entry that has no thickness (or when the wanted one is unknown): after every other. */
const NO_THICKNESS = Number.MAX_SAFE_INTEGER;

const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/** Whether the entry is exactly what was asked for, in the asked unit (a metric SKU for mm, an inch SKU for inches, its gauge). */
function exact(m: MaterialFigures, wanted: WantedThickness): boolean {
  if (wanted.unit === 'ga') return num(m.gauge) === wanted.value;
  if (wanted.unit === 'in') {
    const t = num(m.thickness_in);
    return t !== null && Math.abs(t - wanted.value) < SAME_IN && inchSku(m);
  }
  const t = num(m.thickness_mm);
  return t !== null && Math.abs(t - wanted.value) < SAME_MM;
}

/** An inch SKU states its thickness in inches first (`0.075" (1.90 mm, 14 ga)`); a metric one in mm. */
function inchSku(m: MaterialFigures): boolean {
  return typeof m.display_thickness === 'string' ? m.display_thickness.trimStart().match(/^[\d.]+"/) !== null : true;
}

/**
 * The wanted thickness in mm: mm and inches convert; a gauge is the thickness of the catalog's
 * entries of that gauge (gauges are a table, not a unit), null when no entry has it.
 */
export function wantedMm(wanted: WantedThickness, entries: readonly MaterialFigures[]): number | null {
  if (wanted.unit === 'mm') return wanted.value;
  if (wanted.unit === 'in') return wanted.value * MM_PER_IN;
  const of = entries.find((e) => num(e.gauge) === wanted.value);
  return of ? num(of.thickness_mm) : null;
}

/**
 * The entries ordered exact first, then by distance from the wanted thickness (mm), then in the
 * asked unit's own SKUs before the other's, then in catalog order. Entries without a thickness last.
 */
export function rankByThickness<T extends MaterialFigures>(entries: readonly T[], wanted: WantedThickness, mm: number | null = wantedMm(wanted, entries)): T[] {
  const key = (m: T, i: number): [number, number, number, number] => {
    const t = num(m.thickness_mm);
    const distance = t === null || mm === null ? NO_THICKNESS : Math.abs(t - mm);
    const otherUnit = wanted.unit === 'mm' ? (inchSku(m) ? 1 : 0) : (inchSku(m) ? 0 : 1);
    return [exact(m, wanted) ? 0 : 1, distance, otherUnit, i];
  };
  return entries.map((m, i) => ({ m, k: key(m, i) }))
    .sort((a, b) => a.k[0] - b.k[0] || a.k[1] - b.k[1] || a.k[2] - b.k[2] || a.k[3] - b.k[3])
    .map((x) => x.m);
}
