// DFM reports: computed by the engine for a ready design and a configuration, kept immutable, with
// production files made in the background (status in `production_files`).
import { isStoreError, type Job } from '@kerf/store';
import { EngineError, withFlatsUsed, type Design } from '@kerf/engine';
import {
  requireScope, type Caller, type EngineContext, type UseCaseContext, collection, publicView, type Configuration,
  type DfmOutcome, type ProductionFilesPart, fileUnavailable, invalid, notFound, unavailable, signedDownload,
  type JobKindHandlers, presentDfmReport, admitCustomerJob, asOverLimit, customerJobLimit, PRODUCTION_FILES_JOB, DfmInput, DfmPartImageInput, DfmRequest,
  ProductionFileInput, type ProductionFileKind, validateInput, newEvent,
} from '../core/index.ts';
import { requireReadyDesign, newReviewLink } from '../designs/index.ts';
import { dfmImageUrl } from './dfm-images.ts';
import { designForConfiguration } from './material-flats.ts';
import type { DfmDoc } from './dfm-doc.ts';


/** Engine DFM for one design; a configuration the engine refuses is an error naming the field. */
export async function computeDfm(ctx: EngineContext, design: Design, configuration: Configuration, opts: { id: string; generateProductionFiles: boolean; paramPrefix?: string }): Promise<DfmOutcome> {
  try {
    return await ctx.engine.dfm(design, configuration, { id: opts.id, now: ctx.now().toISOString(), generateProductionFiles: opts.generateProductionFiles });
  } catch (err) {
    if (err instanceof EngineError && err.code === 'invalid_configuration') {
      const param = (err as EngineError & { param?: string }).param ?? 'configuration';
      throw invalid('invalid_configuration', err.message, `${opts.paramPrefix ?? ''}${param}`);
    }
    throw err;
  }
}

/** POST /v1/dfm: the report of a ready design under a configuration, kept; production files follow. */
export async function createDfmReport(ctx: UseCaseContext, caller: Caller, input: DfmRequest): Promise<DfmDoc> {
  requireScope(caller, 'dfm');
  const req = validateInput(DfmRequest, input);
  const ready = await requireReadyDesign(ctx, caller.accountId, req.design_id, 'design_id');
  // The flats (and so every flat-based check) use the configured materials' K-factors.
  const { design } = await designForConfiguration(ctx, ready.row, ready.design, req.configuration);
  const report = await computeDfm(ctx, design, req.configuration ?? {}, { id: ctx.newId('dfm'), generateProductionFiles: req.generate_production_files !== false });
  return storeDfmReport(ctx, caller.accountId, withFlatsUsed(report, design));
}

/** Keeps an engine DFM report (from /v1/dfm or inside a quote) and starts its production files. */
export async function storeDfmReport(ctx: UseCaseContext, accountId: string, report: DfmOutcome): Promise<DfmDoc> {
  const id = report.id;
  // The annotated images are drawn from the design's geometry on first download (dfm-images.ts): a
  // quote or report that nobody looks at costs no drawing.
  // refused before anything is kept: the report's files would queue one more job for the account
  if (report.production_files.status === 'pending') await admitCustomerJob(ctx, accountId, 'ask for more reports with production files');
  // every report carries a website review link of its own, with its configuration
  const link = await newReviewLink(ctx, accountId, { design_id: report.design_id, dfm_id: id, configuration: report.configuration });
  const presented = presentDfmReport(ctx.links, withoutImages(report));
  // a review link record (a Doc) always has its page's URL
  const doc: DfmDoc = { ...presented, review_url: link.review_url as string, review_link_id: link.id, id, object: 'dfm_report' };
  await collection(ctx, 'dfm_reports').create(accountId, doc, { id });
  if (doc.production_files.status === 'pending') {
    await ctx.store.jobs.enqueue({ kind: PRODUCTION_FILES_JOB, resourceId: id, accountId, limit: customerJobLimit(ctx) }).catch(async (err: unknown) => {
      // over the limit (parallel requests passed the early count together): the report was never
      // answered, so it is not kept either
      if (isStoreError(err, 'limit_reached')) await collection(ctx, 'dfm_reports').delete(accountId, id);
      throw asOverLimit(ctx, err, 'ask for more reports with production files');
    });
    ctx.notifyJobs();
  }
  return publicView(doc);
}

/** The report without its parts' inline SVGs (kilobytes each; served as image files instead). */
export function withoutImages<T extends DfmOutcome>(report: T): T {
  return { ...report, parts: report.parts.map(({ image_svg: _svg, ...rest }) => rest) };
}

export async function getDfmDoc(ctx: UseCaseContext, accountId: string, id: string): Promise<DfmDoc> {
  const rec = await collection(ctx, 'dfm_reports').get(accountId, id);
  if (!rec) throw notFound('DFM report', id, 'dfm_id');
  return rec.data as DfmDoc;
}

export async function getDfmReport(ctx: UseCaseContext, caller: Caller, input: DfmInput): Promise<DfmDoc> {
  requireScope(caller, 'dfm');
  const { dfm_id } = validateInput(DfmInput, input, { location: 'params' });
  const doc = await getDfmDoc(ctx, caller.accountId, dfm_id);
  if (doc.production_files.status === 'pending') await resumeProductionFiles(ctx, caller.accountId, dfm_id);
  return publicView(doc);
}

/**
 * Self-healing, as for file quotes: production files still pending with no job queued or running
 * for them (a process died between storing the report and enqueueing, or the job was lost) get a
 * job again, instead of staying pending forever.
 */
async function resumeProductionFiles(ctx: UseCaseContext, accountId: string, dfmId: string): Promise<void> {
  const jobs = await ctx.store.jobs.listForResource(dfmId);
  if (jobs.some((j) => j.kind === PRODUCTION_FILES_JOB && (j.status === 'queued' || j.status === 'running'))) return;
  ctx.log.warn({ dfm_id: dfmId }, 'production files pending without a job: enqueued again');
  await ctx.store.jobs.enqueue({ kind: PRODUCTION_FILES_JOB, resourceId: dfmId, accountId });
  ctx.notifyJobs();
}

function requireReportPart(doc: DfmDoc, partId: string): void {
  if (!(doc.parts as Array<{ part_id: string }>).some((p) => p.part_id === partId)) throw notFound('part', partId, 'part_id');
}

/** A DFM part image: the part's findings on its real flat (or the formed view asked for), with a
 * legend (`legend: false`: the numbered markers only, for a page that lists the findings itself);
 * the SVG and the PNG of one URL are the same drawing. */
export async function getDfmPartImageUrl(ctx: UseCaseContext, caller: Caller, input: DfmPartImageInput, options: { legend?: boolean } = {}): Promise<string> {
  requireScope(caller, 'dfm');
  const q = validateInput(DfmPartImageInput, input, { location: 'querystring' });
  const doc = await getDfmDoc(ctx, caller.accountId, q.dfm_id);
  requireReportPart(doc, q.part_id);
  return dfmImageUrl(ctx, caller.accountId, doc, q.part_id, q.view!, q.format!, q.width!, options.legend ?? true);
}

export async function getProductionFileUrl(ctx: UseCaseContext, caller: Caller, input: ProductionFileInput): Promise<string> {
  requireScope(caller, 'dfm');
  const { dfm_id: dfmId, part_id: partId, kind } = validateInput(ProductionFileInput, input, { location: 'querystring' });
  const doc = await getDfmDoc(ctx, caller.accountId, dfmId);
  requireReportPart(doc, partId);
  const pf = doc.production_files;
  if (pf.status === 'pending') throw unavailable('production_files_pending', 'Production files are still being generated; retry shortly.', 2);
  const file = doc._files?.[partId]?.[kind];
  if (!file) {
    const why = pf.status === 'ready' ? `part '${partId}' has no ${kind} file` : pf.status === 'failed' ? `production file generation failed (${pf.error?.code ?? 'failed'})` : `production files were not generated (${pf.reason ?? 'skipped'})`;
    throw fileUnavailable(`No ${kind} file: ${why}.`, 'kind');
  }
  return signedDownload(ctx, { k: file.key, t: file.contentType, n: file.name });
}

/** A part's production files for one flat K-factor, kept once per design. */
type SharedFiles = Partial<Record<ProductionFileKind, { key: string; contentType: string; ext: string }>>;

const flatPrefix = (designId: string, part: ProductionFilesPart): string =>
  `designs/${designId}/production/${part.partId}/${part.kFactor === undefined ? 'k-default' : `k${part.kFactor}`}`;
const manifestKey = (designId: string, part: ProductionFilesPart): string => `${flatPrefix(designId, part)}/files.json`;

/** The shared files as a report names them for download. */
function named(shared: SharedFiles, stem: string, partId: string): NonNullable<DfmDoc['_files']>[string] {
  const out: NonNullable<DfmDoc['_files']>[string] = {};
  for (const [kind, f] of Object.entries(shared)) if (f) out[kind as ProductionFileKind] = { key: f.key, contentType: f.contentType, name: `${stem}-${partId}-${kind}.${f.ext}` };
  return out;
}

export const productionFilesJob: JobKindHandlers = {
  crashed: 'Production file generation',
  async run(ctx: UseCaseContext, job: Job): Promise<void> {
    const dfms = collection(ctx, 'dfm_reports');
    const rec = await dfms.get(job.accountId, job.resourceId);
    if (!rec) return;
    const doc = rec.data as DfmDoc;
    if (doc.production_files.status !== 'pending') return;
    const { row, design } = await requireReadyDesign(ctx, job.accountId, doc.design_id, 'design_id');
    const files: NonNullable<DfmDoc['_files']> = {};
    const stem = row.name.replace(/\.(step|stp)$/i, '').replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 60) || row.id;
    const wanted: ProductionFilesPart[] = [];
    for (const p of doc.parts as Array<{ part_id: string; status: string; k_factor?: unknown }>) {
      const part = design.parts.find((x) => x.id === p.part_id);
      if (!part || !part.manufacturable) continue;
      // Each flat uses its part's configured material K-factor (docs/geometry.md "Bend allowance and K-factor").
      wanted.push(typeof p.k_factor === 'number' ? { partId: p.part_id, kFactor: p.k_factor } : { partId: p.part_id });
    }
    // A part's files depend only on its geometry and its flat's K-factor: made once per (design, part,
    // K) and shared by every report and quote item that asks for the same (a 50-item quote of one
    // design and material imports the file once, not 50 times).
    const missing: ProductionFilesPart[] = [];
    for (const w of wanted) {
      const shared = await ctx.store.blobs.get(manifestKey(row.id, w));
      if (shared) files[w.partId] = named(JSON.parse(shared.toString('utf8')) as SharedFiles, stem, w.partId);
      else missing.push(w);
    }
    if (missing.length > 0) {
      const source = await ctx.store.blobs.get(row.sourceBlobKey);
      if (!source) throw new EngineError('analysis_failed', 'the uploaded file is no longer stored');
      // One engine call for the parts still missing: the source is imported and analyzed once, however many parts it has.
      const made = await ctx.engine.productionFiles({ design, source: new Uint8Array(source.buffer, source.byteOffset, source.byteLength), parts: missing, configuration: doc.configuration as Configuration });
      for (const w of missing) {
        const shared: SharedFiles = {};
        for (const [kind, f] of Object.entries(made[w.partId] ?? {})) {
          if (!f) continue;
          const ext = f.name.split('.').pop() ?? 'bin';
          const key = `${flatPrefix(row.id, w)}/${kind}.${ext}`;
          await ctx.store.blobs.put(key, f.bytes, { contentType: f.contentType });
          shared[kind as ProductionFileKind] = { key, contentType: f.contentType, ext };
        }
        // written last: a manifest means every file it names is stored
        await ctx.store.blobs.put(manifestKey(row.id, w), Buffer.from(JSON.stringify(shared), 'utf8'), { contentType: 'application/json' });
        files[w.partId] = named(shared, stem, w.partId);
      }
    }
    const ready: DfmDoc = { ...doc, _files: files, production_files: { ...doc.production_files, status: 'ready' } };
    await dfms.update(job.accountId, doc.id, ready, { events: [newEvent(ctx, 'dfm_report.production_files.ready', publicView(ready))] });
  },
  async failed(ctx, job, error) {
    const dfms = collection(ctx, 'dfm_reports');
    const rec = await dfms.get(job.accountId, job.resourceId);
    if (!rec) return;
    const doc = rec.data as DfmDoc;
    const failed: DfmDoc = {
      ...doc,
      production_files: {
        status: 'failed', reason: null, error,
        // Advisory only (rule 5): a person reviews the files before production.
        review_warning: { design_id: doc.design_id, code: 'production_files_failed', message: `Automatic production files could not be generated (${error.code}); our team will prepare them before production.` },
      },
    };
    await dfms.update(job.accountId, doc.id, failed, { events: [newEvent(ctx, 'dfm_report.production_files.failed', publicView(failed))] });
  },
};
