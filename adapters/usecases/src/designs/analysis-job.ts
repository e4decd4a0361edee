// The analysis job: source blob -> engine -> design ready (or failed with the engine's error code).
import type { Job } from '@kerf/store';
import { type UseCaseContext, newEvent, type JobKindHandlers, FILE_QUOTE_JOB } from '../core/index.ts';
import { fileKey, toPublicDesign, type DesignResult } from './design-view.ts';
import { designFailedEvent } from './designs.ts';
import { designReviewLink } from './review-link-docs.ts';


export const analysisJob: JobKindHandlers = {
  async run(ctx: UseCaseContext, job: Job): Promise<void> {
    const { accountId, resourceId: designId } = job;
    const rec = await ctx.store.designs.transition<DesignResult>(accountId, designId, ['queued', 'processing'], { status: 'processing' });
    if (!rec) return; // already finished (a previous attempt got through) or gone
    const source = await ctx.store.blobs.get(rec.sourceBlobKey);
    if (!source) {
      const error = { code: 'source_missing', message: 'The uploaded file is no longer stored.' };
      await ctx.store.designs.transition(accountId, designId, ['processing'], { status: 'failed', error, events: [designFailedEvent(ctx, rec, error)] });
      return;
    }
    const kFactor = typeof rec.options.kFactor === 'number' ? rec.options.kFactor : undefined;
    const out = await ctx.engine.analyze(new Uint8Array(source.buffer, source.byteOffset, source.byteLength), { fileName: rec.name, kFactor });
    const fileKeys: Record<string, string> = {};
    for (const f of out.files ?? []) {
      const key = fileKey(designId, f.name);
      await ctx.store.blobs.put(key, f.bytes, { contentType: f.contentType });
      fileKeys[f.name] = key;
    }
    const { files: _files, engine_design_id: _engineId, ...rest } = out;
    // made before the design is ready, so that design.ready carries the design as GET shows it
    const reviewLinkId = String((await designReviewLink(ctx, accountId, designId)).id);
    const result: DesignResult = { ...rest, fileKeys, reviewLinkId };
    const ready = toPublicDesign(ctx, { ...rec, status: 'ready', result, error: null }, reviewLinkId);
    await ctx.store.designs.transition<DesignResult>(accountId, designId, ['processing'], { status: 'ready', result, error: null, events: [newEvent(ctx, 'design.ready', ready)] });
    await afterDesignSettled(ctx, accountId, designId);
  },
  async failed(ctx, job, error) {
    const rec = await ctx.store.designs.get<DesignResult>(job.accountId, job.resourceId);
    if (rec) await ctx.store.designs.transition(job.accountId, job.resourceId, ['queued', 'processing'], { status: 'failed', error, events: [designFailedEvent(ctx, rec, error)] });
    // A failed design is never analysed again and nothing serves its upload: the bytes (up to the
    // upload limit each) are not kept (docs/configuration.md "Crash leftovers").
    if (rec) await ctx.store.blobs.delete(rec.sourceBlobKey).catch((err: unknown) => ctx.log.warn({ err, design_id: rec.id }, 'deleting a failed design\'s upload failed'));
    await afterDesignSettled(ctx, job.accountId, job.resourceId);
  },
};

/** Work waiting for this design (a file quote) continues once it is ready or failed. */
async function afterDesignSettled(ctx: UseCaseContext, accountId: string, designId: string): Promise<void> {
  const rec = await ctx.store.designs.get(accountId, designId);
  const quoteId = rec?.options.fileQuoteId;
  if (typeof quoteId !== 'string') return;
  await ctx.store.jobs.enqueue({ kind: FILE_QUOTE_JOB, resourceId: quoteId, accountId });
  ctx.notifyJobs();
}
