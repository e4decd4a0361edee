// The quote and DFM caches, in one place. A design's DFM report under one configuration and catalog
// version, and the part prices of a quote's items, are the same every time they are asked for, so a
// quote burst on one design works them out, stores the report and reads it back once. Everything kept
// for that lives here: bounded (BoundedMap) and exact (each entry says why it cannot go stale). Reuse
// across requests is on or off as the context's QuoteCaching says (core/quote-caching.ts: the
// service picks NO_QUOTE_CACHING for the bench's "before"); off, no index ever names a report.
// - EngineMemo: the in-process engine's DFM reports and part prices (the service's engine holds one).
// - QuoteCache, one per store (quoteCacheOf): configured designs, material re-analyses read lately,
//   settled reports read once, and the reports the store's index named.
// - Kept JSON texts (keepJsonText): a kept value's text is made once; the REST serializer splices it
//   into every response that carries the value (jsonPayload), and a stored quote names its shared
//   parts to the store (sharedParts), which may keep their text once per account.
// - The store's index (`dfm_report_cache` documents): one stored report per (design, configuration,
//   catalog version) per account, named by every quote of it for a day (reuseDfmReport).
import { createHash, randomUUID } from 'node:crypto';
import { BoundedMap } from '@kerf/common';
import {
  deepFreeze, dfm, partPrices,
  type Catalog, type ConfigurationInput, type DfmContext, type DfmReport, type Design, type NestMemo, type NestResult, type PartPrices, type PriceContext, type PriceRequest,
} from '@kerf/engine';
import { isStoreError, type QuoteRecord } from '@kerf/store';
import { type UseCaseContext, publicView, type Doc, type DfmOutcome, type AnalysisOutput, type PartPricesContext, canonical, quoteCaching } from '../core/index.ts';
import { type DesignRow } from '../designs/index.ts';
import type { DfmDoc } from './dfm-doc.ts';

// ---- kept JSON texts ----

/**
 * JSON texts of values that never change, made once. A quote embeds its items' DFM reports (about
 * 17 KB each, shared by every quote of that design and configuration once settled); with the
 * report's text kept, a response writes the 2 KB around it and splices the report's bytes in.
 */
interface Kept {
  text: string;
  /** its UTF-8 bytes, made the first time a response carries it */
  bytes?: Buffer;
}
const kept = new WeakMap<object, Kept>();

/** Keeps `value`'s JSON text for jsonPayload(); the caller must never change `value` afterwards (freeze it). Returns `value`. */
export function keepJsonText<T extends object>(value: T): T {
  if (!kept.has(value)) kept.set(value, { text: JSON.stringify(value) });
  return value;
}

/** A per-process random mark: no string in the data can be taken for a splice point. */
const MARK = `kerf-json-${randomUUID()}-`;
const MARKED = new RegExp(`"${MARK}(\\d+)"`, 'g');

/**
 * JSON.stringify(value) as the bytes a response sends: the kept texts' bytes (encoded once) between
 * the encoded pieces around them, so a quote's 17 KB report is neither serialised nor encoded again
 * per response; the plain string when nothing in it was kept.
 */
export function jsonPayload(value: unknown): string | Buffer {
  const found: Kept[] = [];
  const text = JSON.stringify(value, (_key, v: unknown) => {
    const entry = typeof v === 'object' && v !== null ? kept.get(v) : undefined;
    if (entry === undefined) return v;
    found.push(entry);
    return `${MARK}${found.length - 1}`;
  }) as string | undefined;
  if (found.length === 0 || text === undefined) return text as string;
  const parts: Buffer[] = [];
  let at = 0;
  for (const m of text.matchAll(MARKED)) {
    parts.push(Buffer.from(text.slice(at, m.index), 'utf8'));
    const entry = found[Number(m[1])];
    parts.push(entry.bytes ??= Buffer.from(entry.text, 'utf8'));
    at = m.index + m[0].length;
  }
  parts.push(Buffer.from(text.slice(at), 'utf8'));
  return Buffer.concat(parts);
}

/**
 * The parts of a quote (a stored quote, a cart's copy) shared with every quote of its items, for the
 * store's `apart`: kept values only (EngineMemo's line items and quantity options, a settled report).
 */
export function sharedParts(quote: Pick<QuoteRecord, 'items'>): object[] {
  const parts: object[] = [];
  for (const item of quote.items) {
    for (const part of [item.dfm, item.line_items, item.quantity_options] as unknown[]) {
      if (typeof part === 'object' && part !== null && kept.has(part)) parts.push(part);
    }
  }
  return parts;
}

// ---- the in-process engine's work ----

/** DFM reports kept; the least recently used goes first. A report of a small part is ~20 KB. */
const MAX_ENGINE_REPORTS = 256;
/**
 * Part prices kept. A one-item quote's are ~4 KB of their own: their items' DFM reports share their
 * parts with the reports kept above.
 */
const MAX_ENGINE_PRICES = 256;
/** Nests kept: a nest of a few hundred pieces is some tens of KB of placements. */
const MAX_ENGINE_NESTS = 64;

/**
 * True for plain data as JSON.parse makes it (the API's requests), which JSON writes as the engine
 * reads it. Not for a field present as undefined (the engine refuses unknown fields, even undefined
 * ones), NaN, Infinity or -0 (JSON's null and 0), holes, dates and other class instances: such a
 * request is left to the engine.
 */
function plainJson(value: unknown): boolean {
  switch (typeof value) {
    case 'string': case 'boolean': return true;
    case 'number': return Number.isFinite(value) && !Object.is(value, -0);
    case 'object': {
      if (value === null) return true;
      if (Array.isArray(value)) {
        for (let i = 0; i < value.length; i++) if (!(i in value) || !plainJson(value[i])) return false;
        return true;
      }
      const proto = Object.getPrototypeOf(value) as unknown;
      if (proto !== Object.prototype && proto !== null) return false;
      for (const v of Object.values(value)) if (!plainJson(v)) return false;
      return true;
    }
    default: return false;
  }
}

/** The quote's own: its items' report ids and the clock; `dfmKeys[i]` names item i's design variant (kMapKey). */
export type PriceStamp = Omit<PartPricesContext, 'dfmKeys'> & Required<Pick<PartPricesContext, 'dfmKeys'>>;

/** The kept prices as `stamp`'s: the same content under its report ids and clock. */
function restamp(kept: PartPrices, stamp: PriceStamp): PartPrices {
  // spreads keep the key order, so the JSON is the engine's, byte for byte
  return { ...kept, items: kept.items.map((item, i) => ({ ...item, dfm: { ...item.dfm, id: stamp.dfmIds[i], created_at: stamp.now } })) };
}

/**
 * The DFM reports and part prices an in-process engine worked out for quotes. A design's DFM under
 * one configuration is the same every time, so it is kept per (design variant, catalog version,
 * configuration); part prices per (catalog version, items' variants, request). Both read the clock
 * only for their reports' created_at: those and the reports' ids are each quote's own, so kept ones
 * are stamped anew for each caller. The quote's fulfillment, shipping and tax (the calendar and
 * destination) are the use case's, made afresh for every quote from these.
 */
export class EngineMemo {
  private readonly reports = new BoundedMap<string, DfmReport>(MAX_ENGINE_REPORTS);
  private readonly prices = new BoundedMap<string, PartPrices>(MAX_ENGINE_PRICES);
  private readonly nests = new BoundedMap<string, NestResult>(MAX_ENGINE_NESTS);

  /**
   * The nest of a request (flats, quantities, sheet and rates) made before, else the engine's, kept:
   * nesting is most of the work of pricing a quantity, and quotes of one job repeat it (another
   * finish, another item beside it, the same quantity option).
   */
  readonly nest: NestMemo = (request, make) => {
    const key = createHash('sha256').update(JSON.stringify(request)).digest('hex');
    let kept = this.nests.get(key);
    if (!kept) {
      kept = deepFreeze(make());
      this.nests.set(key, kept);
    }
    return kept;
  };

  /**
   * partPrices() of `request` under `stamp`: the kept prices for the same items, variants and catalog
   * version, restamped; else the engine's, each item's report from the kept ones, and kept (frozen:
   * every later quote of the key shares their parts). A request the engine refuses throws as
   * partPrices() does and keeps nothing.
   */
  partPrices(request: PriceRequest, designs: Readonly<Record<string, Design>>, catalog: Catalog, stamp: PriceStamp): PartPrices {
    const { dfmKeys, ...context } = stamp;
    const report: PriceContext['dfm'] = (i, design, configuration, dfmContext) => this.report(dfmKeys[i], design, configuration, catalog, dfmContext);
    const make = (): PartPrices => partPrices(request, designs, catalog, { ...context, dfm: report, nest: this.nest });
    // a request JSON cannot write as the engine reads it is left to the engine: it refuses it, nothing to keep
    if (!Array.isArray(request.items) || !plainJson(request)) return make();
    const key = JSON.stringify([catalog.version, request.items.map((_, i) => dfmKeys[i]), request]);
    const kept = this.prices.get(key);
    if (kept) return restamp(kept, stamp);
    const made = make();
    // the large shared parts: a response splices their text, the store may keep it once (sharedParts)
    for (const item of made.items) {
      keepJsonText(item.line_items);
      keepJsonText(item.quantity_options);
    }
    deepFreeze(made);
    this.prices.set(key, made);
    return made;
  }

  /** Item's report: the kept one for `variant` under this configuration and catalog, else dfm()'s, kept. */
  private report(variant: string, design: Design, configuration: ConfigurationInput | undefined, catalog: Catalog, context: DfmContext): DfmReport {
    const key = `${variant}\u0000${catalog.version}\u0000${JSON.stringify(configuration ?? null)}`;
    let kept = this.reports.get(key);
    if (!kept) {
      // frozen: every quote of the key shares its parts, so none may change them
      kept = deepFreeze(dfm(design, configuration, catalog, context));
      this.reports.set(key, kept);
    }
    return { ...kept, id: context.id, created_at: context.now };
  }
}

// ---- keys ----

/** K maps named lately (canonical text -> name): every quote names its items' maps, most of them the same few. */
const NAMED_MAX = 256;
const named = new BoundedMap<string, string>(NAMED_MAX);

/** Stable name of a K map (part id -> K-factor): the same map always finds the same cached analysis. */
export function kMapKey(kFactorByPart: Record<string, number>): string {
  const text = Object.keys(kFactorByPart).sort().map((id) => `${id}=${kFactorByPart[id]}`).join(';');
  let name = named.get(text);
  if (name === undefined) {
    name = createHash('sha256').update(text).digest('hex').slice(0, 24);
    named.set(text, name);
  }
  return name;
}

/**
 * Index keys of frozen configurations (the engine's kept reports share theirs between quotes), so a
 * quote burst on one design hashes its configuration once; keyed again for another design or catalog.
 */
const keyed = new WeakMap<object, { designId: string; catalogVersion: string | null; key: string }>();

/** The index key: design, the engine's configuration as it was applied, and the catalog version. */
function dfmIndexKey(designId: string, report: DfmOutcome): string {
  const configuration = report.configuration as unknown;
  const catalogVersion = typeof report.catalog_version === 'string' ? report.catalog_version : null;
  const frozen = typeof configuration === 'object' && configuration !== null && Object.isFrozen(configuration);
  const hit = frozen ? keyed.get(configuration) : undefined;
  if (hit && hit.designId === designId && hit.catalogVersion === catalogVersion) return hit.key;
  const input = canonical({ design_id: designId, configuration, catalog_version: catalogVersion });
  const key = `dfm:${createHash('sha256').update(input).digest('hex')}`;
  if (frozen) keyed.set(configuration, { designId, catalogVersion, key });
  return key;
}

// ---- per store ----

/** The design as a configuration sees it (material-flats.ts). */
export interface ConfiguredDesign {
  design: Design;
  /** part id -> the material K-factor its flat was recomputed with (empty: the stored flats fit) */
  kFactorByPart: Record<string, number>;
}

/** A re-analysis with the configured materials' K-factors, as kept (material-flats.ts). */
export type MaterialAnalysis = Omit<AnalysisOutput, 'files'>;

/** Settled reports read lately, configured designs per shared row, re-analyses, index entries followed. */
const SETTLED_MAX = 64;
const CONFIGURED_MAX = 16;
const ANALYSES_MAX = 32;
const REUSED_MAX = 256;

interface Configured { engine: UseCaseContext['engine']; links: UseCaseContext['links']; byConfiguration: BoundedMap<string, Promise<ConfiguredDesign>> }

/** The settled views handed out: frozen and never written again, so a stored quote may name them by id. */
const settledViews = new WeakSet<object>();

/** True for a report handed out as settled: it reads the same by its id forever. */
export function isSettledReport(report: unknown): report is DfmDoc {
  return typeof report === 'object' && report !== null && settledViews.has(report);
}

/** What one store's quotes keep in process. */
export class QuoteCache {
  /**
   * Reports whose production files have settled, as read, by account and id: such a report is never
   * written again (the production-files job writes a report only while its files are pending) and
   * reports are never deleted, so the copy read once is the stored report for every later quote of
   * any process. A pending report is read each time: its job (here or in another process) may settle it.
   */
  private readonly settled = new BoundedMap<string, DfmDoc>(SETTLED_MAX);
  /**
   * Settled reports the index named, by account and index key: while such a report is fresh the
   * index is not read again (it names another report only once this one is stale, and a process that
   * replaced it elsewhere leaves this one as good as it was until then).
   */
  private readonly reused = new BoundedMap<string, DfmDoc>(REUSED_MAX);
  /** Re-analyses with material K-factors (their blob keys), parsed: a quote burst on one design reads the blob once. */
  private readonly analyses = new BoundedMap<string, MaterialAnalysis>(ANALYSES_MAX);
  /** Configurations worked out lately per shared ready row (isSharedReadyRow), for one engine and links. */
  private readonly configured = new WeakMap<DesignRow, Configured>();

  /**
   * The configured design of a shared ready row (same engine and links): make()'s, kept per
   * configuration and frozen. A refused configuration or a failed re-analysis is not kept: the next
   * request tries again.
   */
  configuredDesign(ctx: UseCaseContext, row: DesignRow, configuration: ConfigurationInput | undefined, make: () => Promise<ConfiguredDesign>): Promise<ConfiguredDesign> {
    let known = this.configured.get(row);
    if (known?.engine !== ctx.engine || known.links !== ctx.links) this.configured.set(row, known = { engine: ctx.engine, links: ctx.links, byConfiguration: new BoundedMap(CONFIGURED_MAX) });
    const key = JSON.stringify(configuration ?? {});
    let answer = known.byConfiguration.get(key);
    if (!answer) {
      const byConfiguration = known.byConfiguration;
      answer = make().then((c) => deepFreeze(c));
      answer.catch(() => { if (byConfiguration.get(key) === answer) byConfiguration.delete(key); });
      byConfiguration.set(key, answer);
    }
    return answer;
  }

  /** The re-analysis stored under `blobKey`, if read lately. */
  materialAnalysis(blobKey: string): MaterialAnalysis | undefined {
    return this.analyses.get(blobKey);
  }

  keepMaterialAnalysis(blobKey: string, analysis: MaterialAnalysis): void {
    this.analyses.set(blobKey, analysis);
  }

  /** The public view of a stored report, from the settled copies when it is one of them. */
  async readReport(ctx: UseCaseContext, accountId: string, id: string): Promise<DfmDoc | null> {
    const key = `${accountId}\u0000${id}`;
    const hit = this.settled.get(key);
    if (hit) return hit;
    const rec = await ctx.store.documents<DfmDoc>('dfm_reports').get(accountId, id);
    if (!rec) return null;
    const view = publicView(rec.data);
    if (view.production_files.status === 'pending') return view;
    // shared by every quote that names it: frozen, so no caller can change another's copy, and its
    // JSON text made once for every response that carries it
    deepFreeze(keepJsonText(view));
    settledViews.add(view);
    this.settled.set(key, view);
    return view;
  }

  /** The fresh settled report the index named for (account, key), if followed lately. */
  reusedReport(ctx: UseCaseContext, accountId: string, key: string): DfmDoc | undefined {
    const kept = this.reused.get(`${accountId}\u0000${key}`);
    return kept && isFresh(ctx, kept) ? kept : undefined;
  }

  keepReusedReport(accountId: string, key: string, doc: DfmDoc): void {
    if (isSettledReport(doc)) this.reused.set(`${accountId}\u0000${key}`, doc);
  }
}

/** One QuoteCache per store (a test or a CLI run may open several), made on first use. */
const caches = new WeakMap<object, QuoteCache>();

export function quoteCacheOf(ctx: Pick<UseCaseContext, 'store'>): QuoteCache {
  let cache = caches.get(ctx.store);
  if (!cache) caches.set(ctx.store, (cache = new QuoteCache()));
  return cache;
}

/** The public view of a stored report (readReport of the store's QuoteCache). */
export function readReport(ctx: UseCaseContext, accountId: string, id: string): Promise<DfmDoc | null> {
  return quoteCacheOf(ctx).readReport(ctx, accountId, id);
}

// ---- the store's index of reused reports ----

const INDEX = 'dfm_report_cache';
/**
 * A report is named by new quotes for a day after it was made, then replaced by a fresh one: its
 * review link (REVIEW_LINK_DAYS) must outlive every quote that names it (QUOTE_VALIDITY_DAYS).
 */
const REUSE_FOR_MS = 24 * 3600 * 1000;

interface IndexDoc extends Doc { dfm_id: string }

const isFresh = (ctx: UseCaseContext, doc: DfmDoc): boolean => ctx.now().getTime() - Date.parse(String(doc.created_at)) < REUSE_FOR_MS;

/**
 * The stored report for this item's (design, configuration, catalog version): the one the account's
 * index names while it is fresh, else `store()`'s, which the index then names. The index lives in the
 * store (survives restarts, shared by every service process); it is per account, like the reports it
 * points to. With NO_QUOTE_CACHING the index never names one, so every item stores its own report.
 */
export async function reuseDfmReport(ctx: UseCaseContext, accountId: string, designId: string, report: DfmOutcome, store: () => Promise<DfmDoc>): Promise<DfmDoc> {
  const cache = quoteCacheOf(ctx);
  const key = dfmIndexKey(designId, report);
  const kept = cache.reusedReport(ctx, accountId, key);
  if (kept) return kept;
  const index = quoteCaching(ctx).index<IndexDoc>(ctx.store, INDEX);
  const hit = await index.getByKey(accountId, key);
  if (hit) {
    const doc = await cache.readReport(ctx, accountId, hit.data.dfm_id);
    if (doc && isFresh(ctx, doc)) {
      cache.keepReusedReport(accountId, key, doc);
      return doc;
    }
  }
  const stored = await store();
  if (hit) {
    await index.update(accountId, hit.id, { ...hit.data, dfm_id: stored.id });
    return stored;
  }
  try {
    await index.create(accountId, { id: ctx.newId('dfc'), dfm_id: stored.id }, { key });
  } catch (err) {
    // another request (or process) indexed its report first: both reports stand, later quotes use theirs
    if (!isStoreError(err, 'duplicate')) throw err;
  }
  return stored;
}
