// Content-hash reuse of analyses (issue 18.4): an account that uploads bytes it uploaded before
// (same analysis options) gets a new design carrying the earlier design's analysis, ready at once
// and with no engine job. Only within one account: an upload that is ready "too fast" would tell
// one account what another had uploaded, so the index is per account and another account's same
// bytes are analysed afresh. The index lives in the store (survives restarts, every process sees it).
import { isStoreError } from '@kerf/store';
import { type UseCaseContext, canonical, newEvent, type Doc, quoteCaching } from '../core/index.ts';
import { toPublicDesign, type DesignResult, type DesignRow } from './design-view.ts';
import { designReviewLink } from './review-link-docs.ts';

const INDEX = 'design_content_index';

interface IndexDoc extends Doc { design_id: string }

export interface ContentUpload {
  accountId: string;
  designId: string;
  name: string;
  sha256: string;
  size: number;
  /** the design's options as stored; all but fileQuoteId change the analysis */
  options: Record<string, unknown>;
}

function contentKey(u: ContentUpload): string {
  const { fileQuoteId: _q, ...analysisOptions } = u.options;
  return `sha256:${u.sha256}:${canonical(analysisOptions)}`;
}

/** The new design, ready with the account's earlier analysis of the same bytes; null when there is none to reuse. */
export async function reuseAnalysis(ctx: UseCaseContext, u: ContentUpload): Promise<DesignRow | null> {
  const hit = await quoteCaching(ctx).index<IndexDoc>(ctx.store, INDEX).getByKey(u.accountId, contentKey(u));
  if (!hit) return null;
  const prior = await ctx.store.designs.get<DesignResult>(u.accountId, hit.data.design_id);
  if (!prior || prior.status !== 'ready' || !prior.result || prior.sourceSha256 !== u.sha256) return null;
  // the earlier design's stored files (source, models) are shared, never rewritten; only the review link is its own
  const rec = await ctx.store.designs.create<DesignResult>(u.accountId, { id: u.designId, name: u.name, sourceBlobKey: prior.sourceBlobKey, sourceSize: u.size, sourceSha256: u.sha256, options: u.options });
  const reviewLinkId = String((await designReviewLink(ctx, u.accountId, u.designId)).id);
  const result: DesignResult = { ...prior.result, reviewLinkId };
  const ready = toPublicDesign(ctx, { ...rec, status: 'ready', result, error: null }, reviewLinkId);
  return ctx.store.designs.transition<DesignResult>(u.accountId, u.designId, ['queued'], { status: 'ready', result, error: null, events: [newEvent(ctx, 'design.ready', ready)] });
}

/** Records the design analysing these bytes as the one later uploads reuse (once it is ready). */
export async function indexContent(ctx: UseCaseContext, u: ContentUpload): Promise<void> {
  const index = quoteCaching(ctx).index<IndexDoc>(ctx.store, INDEX);
  const key = contentKey(u);
  try {
    await index.create(u.accountId, { id: ctx.newId('dci'), design_id: u.designId }, { key });
  } catch (err) {
    if (!isStoreError(err, 'duplicate')) throw err;
    // the indexed design was not reusable (still analysing, or failed): the newest upload takes its place
    const cur = await index.getByKey(u.accountId, key);
    if (cur) await index.update(u.accountId, cur.id, { ...cur.data, design_id: u.designId });
  }
}
