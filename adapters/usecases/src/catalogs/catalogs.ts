// Catalog lists with the contract's list envelope and opaque cursors. Catalogs are ordered data, so
// a cursor names the last id seen: stable when entries are added.
import { thicknessTolerance } from '@kerf/engine';
import {
  type Caller, type EngineContext, type UseCaseContext, type CatalogEntry, invalid, malformed, notFound, signedDownload,
  insertAfter, type ListEnvelope, CatalogSearchInput, HardwareModelInput, ListCatalogInput, ListPressBrakeInput, validateInput,
} from '../core/index.ts';
import { rankByThickness, thicknessInQuery, wantedMm } from './rank.ts';

export const DEFAULT_PAGE_SIZE = 100;

export interface CatalogQuery { limit?: number; cursor?: string }

function encodeCursor(kind: string, lastId: string): string {
  return Buffer.from(JSON.stringify({ c: kind, a: lastId })).toString('base64url');
}

function decodeCursor(kind: string, cursor: string): string {
  try {
    const v = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { c?: unknown; a?: unknown };
    if (v.c === kind && typeof v.a === 'string') return v.a;
  } catch { /* fall through */ }
  throw malformed('invalid_cursor', 'The cursor is not one this list returned; pass `next_cursor` unchanged.', 'cursor');
}

function paginate<T extends { id: string }>(kind: string, all: T[], query: CatalogQuery): ListEnvelope<T> {
  const limit = query.limit ?? DEFAULT_PAGE_SIZE;
  let start = 0;
  if (query.cursor) {
    const after = decodeCursor(kind, query.cursor);
    // Resume after the last entry seen; catalogs keep their order, new entries do not shift it.
    const at = all.findIndex((e) => e.id === after);
    if (at < 0) throw malformed('invalid_cursor', 'The cursor refers to a catalog entry that no longer exists; start again without a cursor.', 'cursor');
    start = at + 1;
  }
  const data = all.slice(start, start + limit);
  const hasMore = start + limit < all.length;
  return { object: 'list', data, has_more: hasMore, next_cursor: hasMore && data.length ? encodeCursor(kind, data[data.length - 1].id) : null };
}

/** A page of one catalog; catalogs are readable by every caller. */
export async function listCatalog(ctx: EngineContext, _caller: Caller, input: ListCatalogInput): Promise<ListEnvelope<CatalogEntry>> {
  const query = validateInput(ListCatalogInput, input, { location: 'querystring' });
  const kind = query.catalog;
  if (query.process && kind !== 'finishes') throw invalid('parameter_unknown', "Unknown parameter 'process'.", 'process');
  for (const p of ['thickness_mm', 'material'] as const) {
    if (query[p] !== undefined && kind !== 'materials') throw invalid('parameter_unknown', `Unknown parameter '${p}'.`, p);
  }
  // as plain records: the listing filters, searches and adds fields by name
  let all: CatalogEntry[] = (await ctx.engine.catalog(kind)).map((entry) => ({ ...entry }));
  // where the contract has always shown it: after `available`
  if (kind === 'studs' || kind === 'nuts' || kind === 'standoffs') all = all.map((h) => insertAfter(h, 'available', 'model_url', ctx.links.hardwareModel(kind, h.id)) as CatalogEntry);
  if (kind === 'finishes' && query.process) {
    const p = query.process;
    all = all.filter((f) => {
      const processes = (f as { processes?: unknown }).processes;
      const process = (f as { process?: unknown }).process;
      if (Array.isArray(processes)) return processes.includes(p);
      return process === undefined || process === p;
    });
  }
  if (kind === 'materials') {
    all = all.filter(materialFilter(query));
    // the thickness asked for first, then the nearest (the filter keeps those within the DFM tolerance)
    if (query.thickness_mm !== undefined) all = rankByThickness(all, { unit: 'mm', value: query.thickness_mm });
  }
  return paginate(kind, all, query);
}

/** `/v1/materials?thickness_mm=2&material=stainless`: the thickness as the DFM check matches it; the type id or the name's words. */
function materialFilter(query: ListCatalogInput): (m: CatalogEntry) => boolean {
  const words = query.material?.toLowerCase().split(/\s+/).filter(Boolean) ?? [];
  return (entry) => {
    const m = entry as { thickness_mm?: number; type?: string; material?: string };
    if (query.thickness_mm !== undefined && (typeof m.thickness_mm !== 'number' || Math.abs(m.thickness_mm - query.thickness_mm) > thicknessTolerance(m.thickness_mm))) return false;
    if (words.length > 0) {
      const type = (m.type ?? '').toLowerCase();
      const name = (m.material ?? '').toLowerCase();
      if (type !== query.material?.toLowerCase() && !words.every((w) => name.includes(w) || type.includes(w))) return false;
    }
    return true;
  };
}

/** The 3D model of a stud, nut or standoff, as a short-lived download URL. */
export async function getHardwareModelUrl(ctx: UseCaseContext, _caller: Caller, input: HardwareModelInput): Promise<string> {
  const { kind, item_id: itemId } = validateInput(HardwareModelInput, input, { location: 'params' });
  const items = await ctx.engine.catalog(kind);
  if (!items.some((i) => i.id === itemId)) throw notFound(kind.replace(/s$/, ''), itemId, 'item_id');
  const file = await ctx.engine.hardwareModel(kind, itemId);
  if (!file) throw notFound(`${kind.replace(/s$/, '')} model`, itemId, 'item_id');
  const key = `catalog/hardware/${kind}/${itemId}.${file.name.split('.').pop() ?? 'glb'}`;
  if (!(await ctx.store.blobs.exists(key))) await ctx.store.blobs.put(key, file.bytes, { contentType: file.contentType });
  return signedDownload(ctx, { k: key, t: file.contentType, n: `${itemId}.${file.name.split('.').pop() ?? 'glb'}` });
}

/** What a search matches an entry against: its text fields, and its figures with and without units. */
function searchText(entry: CatalogEntry): string {
  const parts: string[] = [];
  for (const [k, v] of Object.entries(entry)) {
    if (typeof v === 'string') parts.push(v);
    else if (typeof v === 'number' && k.endsWith('_mm')) parts.push(`${v}`, `${v}mm`, `${v} mm`);
  }
  return parts.join(' \u0000 ').toLowerCase();
}

/**
 * The entries of one catalog holding every word of the query (case-insensitive), in catalog order;
 * a materials query naming a thickness ("mild steel 2 mm", "0.075 in", "14 ga") holds the other
 * words, exactly that thickness in that unit first, then the nearest.
 */
export async function searchCatalog(ctx: EngineContext, caller: Caller, input: CatalogSearchInput): Promise<ListEnvelope<CatalogEntry>> {
  const q = validateInput(CatalogSearchInput, input, { location: 'querystring' });
  const { wanted, rest } = q.catalog === 'materials' ? thicknessInQuery(q.query) : { wanted: null, rest: q.query };
  const words = rest.toLowerCase().split(/\s+/).filter(Boolean);
  const all: CatalogEntry[] = [];
  for (let cursor: string | undefined, page = 0; page < 100; page++) {
    const list = await listCatalog(ctx, caller, { catalog: q.catalog, limit: 500, ...(q.process ? { process: q.process } : {}), ...(cursor ? { cursor } : {}) });
    all.push(...list.data);
    if (!list.has_more || !list.next_cursor) break;
    cursor = list.next_cursor;
  }
  const matching = all.filter((e) => { const text = searchText(e); return words.every((w) => text.includes(w)); });
  // a gauge is read off the whole catalog: "aluminum 14 ga" still ranks by 14 gauge's thickness
  const found = wanted ? rankByThickness(matching, wanted, wantedMm(wanted, all)) : matching;
  return { object: 'list', data: found.slice(0, q.limit), has_more: found.length > q.limit!, next_cursor: null };
}

/**
 * A page of the press-brake tooling: the brake, its punches or its V-dies, each with its `object`
 * name; an empty list when the catalog has no tooling. Readable by every caller, like the catalogs.
 */
export async function listPressBrake(ctx: EngineContext, _caller: Caller, input: ListPressBrakeInput): Promise<ListEnvelope<CatalogEntry>> {
  const query = validateInput(ListPressBrakeInput, input, { location: 'querystring' });
  const tooling = await ctx.engine.pressBrakeTooling();
  // the id first, then the object's type name, as every catalog entry reads
  const named = (object: string) => ({ id, ...rest }: { id: string }): CatalogEntry => ({ id, object, ...rest });
  const entries: CatalogEntry[] = !tooling ? []
    : query.list === 'brakes' ? [named('press_brake')(tooling.brake)]
      : query.list === 'punches' ? tooling.punches.map(named('press_brake_punch'))
        : tooling.dies.map(named('press_brake_die'));
  return paginate(`press_brake_${query.list}`, entries, query);
}
