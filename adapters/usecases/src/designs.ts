// Designs: upload -> durable queued design + analysis job; the public Design view; waiting for one.
import { createHash } from 'node:crypto';
import type { DesignRecord } from '@kerf/store';
import type { Design, Part } from '@kerf/engine/contract.ts';
import { EngineError } from '@kerf/engine/contract.ts';
import { assertStepBytes } from '@kerf/engine/import/sniff.ts';
import type { UseCaseContext } from './context.ts';
import type { AnalysisOutput } from './engine-api.ts';
import { ApiError, invalid, notFound } from './errors.ts';
import { newId } from './ids.ts';

export const ANALYZE_JOB = 'analyze_design';
/** Longest `Prefer: wait=N` honoured, seconds. */
export const MAX_WAIT_SECONDS = 60;
const WAIT_POLL_MS = 100;
const STEP_EXTENSIONS = /\.(step|stp)$/i;

/** What the analysis job stores as the design's result. */
export interface DesignResult extends AnalysisOutput {
  /** blob keys of the files the engine made, by relative name */
  fileKeys: Record<string, string>;
}

export type DesignRow = DesignRecord<DesignResult>;

export function sourceKey(designId: string): string { return `designs/${designId}/source.step`; }
export function fileKey(designId: string, name: string): string { return `designs/${designId}/files/${name}`; }

export interface SubmitInput {
  accountId: string;
  fileName: string;
  bytes: Uint8Array;
  options?: { kFactor?: number };
  /** The file quote waiting for this design (continued when analysis settles). */
  fileQuoteId?: string;
}

/** Checks the file, stores it, and creates the queued design with its analysis job in one step. */
export async function submitDesign(ctx: UseCaseContext, input: SubmitInput): Promise<Design> {
  // The name is shown back (design.name, download names): no paths, no control characters.
  const fileName = ((input.fileName || '').split(/[\\/]/).pop() ?? '').replace(/[\u0000-\u001f\u007f]/g, '').trim().slice(0, 255) || 'upload.step';
  if (input.bytes.length === 0) throw invalid('file_empty', 'The uploaded file is empty.', 'file');
  try {
    assertStepBytes(input.bytes);
  } catch (err) {
    if (err instanceof EngineError) throw invalid(err.code, `The uploaded file is not usable: ${err.message}.`, 'file');
    throw err;
  }
  if (!STEP_EXTENSIONS.test(fileName)) {
    // The content is STEP (checked above); an odd extension is only worth a note in the logs.
    ctx.log.info({ fileName }, 'STEP upload without a .step/.stp extension');
  }
  const id = newId('des');
  const sha256 = createHash('sha256').update(input.bytes).digest('hex');
  const key = sourceKey(id);
  await ctx.store.blobs.put(key, input.bytes, { contentType: 'application/step' });
  const rec = await ctx.store.designs.create<DesignResult>(input.accountId, {
    id,
    name: fileName,
    sourceBlobKey: key,
    sourceSize: input.bytes.length,
    sourceSha256: sha256,
    options: { ...(input.options ?? {}), ...(input.fileQuoteId ? { fileQuoteId: input.fileQuoteId } : {}) },
    job: { kind: ANALYZE_JOB, payload: {}, maxAttempts: 3 },
  });
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
  return (await ctx.store.designs.transition<DesignResult>(rec.accountId, rec.id, ['queued', 'processing'], { status: 'failed', error })) ?? rec;
}

export async function getDesign(ctx: UseCaseContext, accountId: string, designId: string): Promise<Design> {
  return toPublicDesign(ctx, await getDesignRow(ctx, accountId, designId));
}

/** Polls until the design is ready or failed, or the window closes; returns the latest view. */
export async function waitForDesign(ctx: UseCaseContext, accountId: string, designId: string, seconds: number): Promise<Design> {
  const deadline = Date.now() + Math.min(Math.max(seconds, 0), MAX_WAIT_SECONDS) * 1000;
  for (;;) {
    const rec = await ctx.store.designs.get<DesignResult>(accountId, designId);
    if (!rec) throw notFound('design', designId, 'design_id');
    if (rec.status === 'ready' || rec.status === 'failed' || Date.now() >= deadline || ctx.shutdown?.aborted) return toPublicDesign(ctx, rec);
    await new Promise((r) => setTimeout(r, Math.min(WAIT_POLL_MS, Math.max(1, deadline - Date.now()))));
  }
}

export function designUrl(ctx: UseCaseContext, designId: string): string {
  return `${ctx.baseUrl}/v1/designs/${designId}`;
}

function publicPart(ctx: UseCaseContext, designId: string, part: Part): Part {
  const base = `${designUrl(ctx, designId)}/parts/${part.id}`;
  return {
    ...part,
    model_url: `${base}/model`,
    flat_pattern_model_url: part.flat_pattern ? `${base}/model?view=flat` : null,
    image_url: `${base}/image`,
  };
}

export function toPublicDesign(ctx: UseCaseContext, rec: DesignRow): Design {
  const r = rec.status === 'ready' ? rec.result : null;
  const url = designUrl(ctx, rec.id);
  return {
    id: rec.id,
    object: 'design',
    status: rec.status,
    status_url: url,
    name: rec.name,
    created_at: rec.createdAt,
    suggested_process: r?.suggested_process ?? null,
    formed_dimensions: r?.formed_dimensions ?? null,
    parts: r ? r.parts.map((p) => publicPart(ctx, rec.id, p)) : [],
    part_instances: r?.part_instances ?? [],
    model_url: r ? `${url}/model` : null,
    image_url: r ? `${url}/image` : null,
    error: rec.status === 'failed' ? rec.error ?? { code: 'analysis_failed', message: 'The analysis failed.' } : null,
  };
}

/** A ready design of the account, or the precise reason it cannot be used yet. */
export async function requireReadyDesign(ctx: UseCaseContext, accountId: string, designId: string, param: string): Promise<{ row: DesignRow; design: Design }> {
  const rec = await ctx.store.designs.get<DesignResult>(accountId, designId);
  if (!rec) throw notFound('design', designId, param);
  if (rec.status === 'failed') {
    throw invalid('design_failed', `Design '${designId}' failed analysis (${rec.error?.code ?? 'analysis_failed'}); upload a corrected file.`, param);
  }
  if (rec.status !== 'ready') {
    throw new ApiError(422, 'invalid_request_error', 'design_not_ready', `Design '${designId}' is still ${rec.status}; poll its status_url until ready.`, { param, retryable: true, headers: { 'retry-after': '1' } });
  }
  return { row: rec, design: toPublicDesign(ctx, rec) };
}
