// Designs: upload -> durable queued design + analysis job; the public Design view; waiting for one.
import { isStoreError, type OutboxEvent } from '@kerf/store';
import { deepFreeze, EngineError, type Design } from '@kerf/engine';
import {
  requireScope, type Caller, type EngineContext, type UseCaseContext, UseCaseError, invalid, notFound,
  admitCustomerJob, asOverLimit, customerJobLimit, ANALYZE_JOB, DesignInput, validateInput, PerStore, newEvent,
} from '../core/index.ts';
import { designReviewLink } from './review-link-docs.ts';
import { sourceKey, toEngineDesign, toPublicDesign, type DesignResult, type DesignRow, type DesignState, type DesignView } from './design-view.ts';
import { indexContent, reuseAnalysis } from './design-reuse.ts';
import { assertExpandedSize, assertStepUpload, measureUpload, uploadData, uploadLimits, type UploadBytes } from './received-file.ts';

/** Longest `Prefer: wait=N` honoured, seconds. */
export const MAX_WAIT_SECONDS = 60;
const WAIT_POLL_MS = 100;
const STEP_EXTENSIONS = /\.(step|stp)$/i;

/** An uploaded STEP file: its bytes (or the file they were spooled to) travel beside the JSON-shaped input of other use cases. */
export interface AnalyzeInput {
  file_name: string;
  bytes: UploadBytes;
}

/** POST /v1/analyze and its equivalents: the file becomes a durable queued design. */
export async function analyzeDesign(ctx: UseCaseContext, caller: Caller, input: AnalyzeInput): Promise<DesignView> {
  requireScope(caller, 'designs');
  return submitDesign(ctx, { accountId: caller.accountId, fileName: input.file_name, bytes: input.bytes });
}

export interface SubmitInput {
  accountId: string;
  fileName: string;
  bytes: UploadBytes;
  options?: { kFactor?: number };
  /** The file quote waiting for this design (continued when analysis settles). */
  fileQuoteId?: string;
  /** The id reserved for it earlier (a prepared upload); default a fresh one. */
  designId?: string;
}

/** Checks the file, stores it, and creates the queued design with its analysis job in one step. */
export async function submitDesign(ctx: UseCaseContext, input: SubmitInput): Promise<DesignView> {
  // The name is shown back (design.name, download names): no paths, no control characters.
  const fileName = ((input.fileName || '').split(/[\\/]/).pop() ?? '').replace(/[\u0000-\u001f\u007f]/g, '').trim().slice(0, 255) || 'upload.step';
  await admitCustomerJob(ctx, input.accountId, 'upload more');
  try {
    await assertStepUpload(input.bytes);
    await assertExpandedSize(input.bytes, uploadLimits(ctx));
  } catch (err) {
    // the engine's words, so the API, the CLI and the library refuse a file alike
    if (err instanceof EngineError) throw invalid(err.code, err.message, 'file');
    throw err;
  }
  if (!STEP_EXTENSIONS.test(fileName)) {
    // The content is STEP (checked above); an odd extension is only worth a note in the logs.
    ctx.log.info({ fileName }, 'STEP upload without a .step/.stp extension');
  }
  const id = input.designId ?? ctx.newId('des');
  const { size, sha256 } = measureUpload(input.bytes);
  const key = sourceKey(id);
  const options = { ...(input.options ?? {}), ...(input.fileQuoteId ? { fileQuoteId: input.fileQuoteId } : {}) };
  const upload = { accountId: input.accountId, designId: id, name: fileName, sha256, size, options };
  const reused = await reuseAnalysis(ctx, upload);
  if (reused) return toPublicDesign(ctx, reused);
  await ctx.store.blobs.put(key, uploadData(input.bytes), { contentType: 'application/step' });
  const rec = await ctx.store.designs.create<DesignResult>(input.accountId, {
    id,
    name: fileName,
    sourceBlobKey: key,
    sourceSize: size,
    sourceSha256: sha256,
    options,
    job: { kind: ANALYZE_JOB, payload: {}, maxAttempts: 3, limit: customerJobLimit(ctx) },
  }).catch(async (err: unknown) => {
    // refused over the limit (parallel uploads passed the early count together): nothing keeps the file
    if (isStoreError(err, 'limit_reached')) await ctx.store.blobs.delete(key).catch(() => undefined);
    throw asOverLimit(ctx, err, 'upload more');
  });
  await indexContent(ctx, upload);
  ctx.notifyJobs();
  return toPublicDesign(ctx, rec);
}

export async function getDesignRow(ctx: UseCaseContext, accountId: string, designId: string): Promise<DesignRow> {
  const rec = await ctx.store.designs.get<DesignResult>(accountId, designId);
  if (!rec) throw notFound('design', designId, 'design_id');
  if (rec.status === 'queued' || rec.status === 'processing') return settleAbandoned(ctx, rec);
  return rec;
}

/**
 * A job the queue gave up on (its last lease ran out in a dead process) never reaches the job's
 * failure handler; the design must not stay "processing" forever, so it is failed here.
 */
async function settleAbandoned(ctx: UseCaseContext, rec: DesignRow): Promise<DesignRow> {
  const jobs = await ctx.store.jobs.listForResource(rec.id);
  const analysis = jobs.filter((j) => j.kind === ANALYZE_JOB);
  if (analysis.length === 0 || analysis.some((j) => j.status === 'queued' || j.status === 'running' || j.status === 'done')) return rec;
  const last = analysis[analysis.length - 1];
  const error = { code: 'analysis_failed', message: `The analysis did not complete (${last.lastError?.code ?? 'failed'}); the file may be too large or complex.` };
  return (await ctx.store.designs.transition<DesignResult>(rec.accountId, rec.id, ['queued', 'processing'], { status: 'failed', error, events: [designFailedEvent(ctx, rec, error)] })) ?? rec;
}

/** design.failed with the design as GET shows it once failed, to record with that transition. */
export function designFailedEvent(ctx: UseCaseContext, rec: DesignState, error: { code: string; message: string }): OutboxEvent {
  return newEvent(ctx, 'design.failed', toPublicDesign(ctx, { ...rec, status: 'failed', result: null, error }));
}

export async function getDesign(ctx: UseCaseContext, caller: Caller, input: DesignInput): Promise<DesignView> {
  requireScope(caller, 'designs');
  const { design_id } = validateInput(DesignInput, input, { location: 'params' });
  return designView(ctx, await getDesignRow(ctx, caller.accountId, design_id));
}

/** The design as callers see it: a ready one with its own review link. */
export async function designView(ctx: UseCaseContext, rec: DesignRow): Promise<DesignView> {
  if (rec.status !== 'ready') return toPublicDesign(ctx, rec);
  // kept on the result by the analysis job: a read costs no lookup; older designs get theirs now
  const linkId = rec.result?.reviewLinkId ?? String((await designReviewLink(ctx, rec.accountId, rec.id)).id);
  return toPublicDesign(ctx, rec, linkId);
}

/** Polls until the design is ready or failed, or the window closes; returns the latest view. */
export async function waitForDesign(ctx: UseCaseContext, caller: Caller, input: DesignInput & { wait_seconds: number }): Promise<DesignView> {
  requireScope(caller, 'designs');
  const accountId = caller.accountId;
  const designId = input.design_id;
  const seconds = input.wait_seconds;
  const deadline = Date.now() + Math.min(Math.max(seconds, 0), MAX_WAIT_SECONDS) * 1000;
  for (;;) {
    const rec = await ctx.store.designs.get<DesignResult>(accountId, designId);
    if (!rec) throw notFound('design', designId, 'design_id');
    if (rec.status === 'ready' || rec.status === 'failed' || Date.now() >= deadline || ctx.shutdown?.aborted) return designView(ctx, rec);
    await new Promise((r) => setTimeout(r, Math.min(WAIT_POLL_MS, Math.max(1, deadline - Date.now()))));
  }
}

/**
 * Ready designs read lately, per store. A design leaves `ready` never (only queued and processing
 * ones change) and is never deleted, so the row read once is the stored row for every later request
 * of any process: a quote burst on one design reads and parses it once. Frozen: shared by callers.
 */
const READY_MAX = 32;
const readyRows = new PerStore<DesignRow>(READY_MAX);
const sharedRows = new WeakSet<DesignRow>();

/** True for a ready row handed out from the cache above: frozen, shared by every caller, the same object each time. */
export function isSharedReadyRow(row: DesignRow): boolean {
  return sharedRows.has(row);
}

async function readDesignRow(ctx: UseCaseContext, accountId: string, designId: string): Promise<DesignRow | null> {
  const known = readyRows.of(ctx.store);
  const key = `${accountId}\u0000${designId}`;
  const hit = known.get(key);
  if (hit) return hit;
  const rec = await ctx.store.designs.get<DesignResult>(accountId, designId);
  if (rec?.status !== 'ready') return rec;
  known.set(key, deepFreeze(rec));
  sharedRows.add(rec);
  return rec;
}

/**
 * The public design of each shared ready row (readDesignRow's frozen rows) for the links it was made
 * with: a quote burst on one design builds it once. Frozen, as the row is: every caller shares it.
 */
const readyViews = new WeakMap<DesignRow, { links: EngineContext['links']; design: Design }>();

function readyView(ctx: UseCaseContext, row: DesignRow): Design {
  if (!isSharedReadyRow(row)) return toEngineDesign(ctx, row);
  const known = readyViews.get(row);
  if (known?.links === ctx.links) return known.design;
  const design = deepFreeze(toEngineDesign(ctx, row));
  readyViews.set(row, { links: ctx.links, design });
  return design;
}

/** A ready design of the account, or the precise reason it cannot be used yet. */
export async function requireReadyDesign(ctx: UseCaseContext, accountId: string, designId: string, param: string): Promise<{ row: DesignRow; design: Design }> {
  const rec = await readDesignRow(ctx, accountId, designId);
  if (!rec) throw notFound('design', designId, param);
  if (rec.status === 'failed') {
    throw invalid('design_failed', `Design '${designId}' failed analysis (${rec.error?.code ?? 'analysis_failed'}); upload a corrected file.`, param);
  }
  if (rec.status !== 'ready') {
    throw new UseCaseError('invalid', 'invalid_request_error', 'design_not_ready', `Design '${designId}' is still ${rec.status}; poll its status_url until ready.`, { param, retryable: true, retryAfterSeconds: 1 });
  }
  return { row: rec, design: readyView(ctx, rec) };
}
