// A design's DFM report for one configuration under one catalog version is the same every time it
// is asked for: quotes keep it once and every later quote item of that (design, configuration,
// catalog version) names the stored report, instead of writing a new report, review link and
// production-files job per request. The index lives in the store (survives restarts, shared by
// every service process); it is per account, like the reports it points to.
import { createHash } from 'node:crypto';
import { type UseCaseContext, publicView, type Doc, type DfmOutcome, canonical, PerStore } from '../core/index.ts';
import { isStoreError, keepJsonText } from '@kerf/store';
import { deepFreeze } from '@kerf/engine';
import { type DfmDoc } from './dfm-doc.ts';
import { storeDfmReport } from './dfm.ts';

const INDEX = 'dfm_report_cache';
/**
 * A report is named by new quotes for a day after it was made, then replaced by a fresh one: its
 * review link (REVIEW_LINK_DAYS) must outlive every quote that names it (QUOTE_VALIDITY_DAYS).
 */
const REUSE_FOR_MS = 24 * 3600 * 1000;

interface IndexDoc extends Doc { dfm_id: string }

/**
 * Reports whose production files have settled, as read from the store, per store: such a report is
 * never written again (the production-files job writes a report only while its files are pending)
 * and reports are never deleted, so the copy read once is the stored report for every later quote
 * of any process. A pending report is read each time: its job (here or in another process) may
 * settle it. The index entry naming the report is still read per quote, so a report replaced by
 * a fresh one is followed at once.
 */
const SETTLED_MAX = 64;
const settled = new PerStore<DfmDoc>(SETTLED_MAX);

/** The settled views handed out: frozen and never written again, so a stored quote may name them by id. */
const settledViews = new WeakSet<object>();

/** True for a report handed out as settled: it reads the same by its id forever. */
export function isSettledReport(report: unknown): report is DfmDoc {
  return typeof report === 'object' && report !== null && settledViews.has(report);
}

/** The public view of a stored report, from the settled copies when it is one of them. */
export async function readReport(ctx: UseCaseContext, accountId: string, id: string): Promise<DfmDoc | null> {
  const known = settled.of(ctx.store);
  const key = `${accountId}\u0000${id}`;
  const hit = known.get(key);
  if (hit) return hit;
  const rec = await ctx.store.documents<DfmDoc>('dfm_reports').get(accountId, id);
  if (!rec) return null;
  const view = publicView(rec.data);
  if (view.production_files.status === 'pending') return view;
  // shared by every quote that names it: frozen, so no caller can change another's copy, and its
  // JSON text made once for the stored quote, its event and the response
  deepFreeze(keepJsonText(view));
  settledViews.add(view);
  known.set(key, view);
  return view;
}

/**
 * Index keys of frozen configurations (the engine's kept reports share theirs between quotes), so a
 * quote burst on one design hashes its configuration once; keyed again for another design or catalog.
 */
const keyed = new WeakMap<object, { designId: string; catalogVersion: string | null; key: string }>();

/** The index key: design, the engine's configuration as it was applied, and the catalog version. */
function dfmCacheKey(designId: string, report: DfmOutcome): string {
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

/**
 * Settled reports the index named, per store, by account and index key: while such a report is
 * fresh the index is not read again (it names another report only once this one is stale, and
 * a process that replaced it elsewhere leaves this one as good as it was until then).
 */
const REUSED_MAX = 256;
const reused = new PerStore<DfmDoc>(REUSED_MAX);

const isFresh = (ctx: UseCaseContext, doc: DfmDoc): boolean => ctx.now().getTime() - Date.parse(String(doc.created_at)) < REUSE_FOR_MS;

/** The stored report for this item's (design, configuration, catalog version), made and kept on first use. */
export async function storeOrReuseDfmReport(ctx: UseCaseContext, accountId: string, designId: string, report: DfmOutcome): Promise<DfmDoc> {
  if (ctx.quoteCache === false) return storeDfmReport(ctx, accountId, report);
  const key = dfmCacheKey(designId, report);
  const known = reused.of(ctx.store);
  const knownKey = `${accountId}\u0000${key}`;
  const kept = known.get(knownKey);
  if (kept && isFresh(ctx, kept)) return kept;
  const index = ctx.store.documents<IndexDoc>(INDEX);
  const hit = await index.getByKey(accountId, key);
  if (hit) {
    const doc = await readReport(ctx, accountId, hit.data.dfm_id);
    if (doc && isFresh(ctx, doc)) {
      if (isSettledReport(doc)) known.set(knownKey, doc);
      return doc;
    }
  }
  const stored = await storeDfmReport(ctx, accountId, report);
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
