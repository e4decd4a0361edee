// Review link documents, as every path makes them: POST /v1/review-links, and the links a ready
// design and each DFM report carry of their own (`review_url`, `review_link_id`), so a
// person can look at them without an API call.
import { isStoreError } from '@kerf/store';
import { type UseCaseContext, collection, type Configuration, isoPlus, publicView, type Doc } from '../core/index.ts';

export const REVIEW_LINK_DAYS = 30;

export interface ReviewLinkFields { design_id: string; dfm_id: string | null; configuration: Configuration }

/** Creates an open link; with `key`, the one link of that key (a second create reads the first). */
export async function newReviewLink(ctx: UseCaseContext, accountId: string, fields: ReviewLinkFields, key?: string): Promise<Doc> {
  const links = collection(ctx, 'review_links');
  const id = ctx.newId('rvl');
  const now = ctx.now();
  const doc: Doc = {
    id,
    object: 'review_link',
    status: 'open',
    design_id: fields.design_id,
    dfm_id: fields.dfm_id,
    review_url: ctx.links.reviewPage(id),
    configuration: fields.configuration,
    configuration_updated_at: now.toISOString(),
    created_at: now.toISOString(),
    expires_at: isoPlus(now, REVIEW_LINK_DAYS),
  };
  try {
    await links.create(accountId, doc, key ? { id, key } : { id });
  } catch (err) {
    if (!key || !isStoreError(err, 'duplicate')) throw err;
    return publicView((await links.getByKey(accountId, key))!.data);
  }
  return publicView(doc);
}

/** The design's own review link (made once, on first need; a crash before it only delays it). */
export async function designReviewLink(ctx: UseCaseContext, accountId: string, designId: string): Promise<Doc> {
  const key = `design:${designId}`;
  const existing = await collection(ctx, 'review_links').getByKey(accountId, key);
  if (existing) return publicView(existing.data);
  return newReviewLink(ctx, accountId, { design_id: designId, dfm_id: null, configuration: {} }, key);
}
