// Review links: a configuration parked for a person to inspect (and edit) on the web site; the
// agent reads it back before continuing (interface.md 4.1).
import type { UseCaseContext } from './context.ts';
import { requireReadyDesign } from './designs.ts';
import { getDfmDoc } from './dfm.ts';
import { collection, isoPlus, publicView, type Doc } from './documents.ts';
import type { Configuration } from './engine-api.ts';
import { invalid, notFound } from './errors.ts';
import { newId } from './ids.ts';

export const REVIEW_LINK_DAYS = 30;

export interface ReviewLinkRequest { design_id: string; configuration?: Configuration; dfm_id?: string }

export async function createReviewLink(ctx: UseCaseContext, accountId: string, req: ReviewLinkRequest, websiteUrl = ctx.baseUrl): Promise<Doc> {
  await requireReadyDesign(ctx, accountId, req.design_id, 'design_id');
  if (req.dfm_id) {
    const dfm = await getDfmDoc(ctx, accountId, req.dfm_id).catch(() => { throw notFound('DFM report', req.dfm_id!, 'dfm_id'); });
    if (dfm.design_id !== req.design_id) throw invalid('dfm_design_mismatch', `DFM report '${req.dfm_id}' belongs to design '${dfm.design_id}', not '${req.design_id}'.`, 'dfm_id');
  }
  const id = newId('rvl');
  const now = ctx.now();
  const doc: Doc = {
    id,
    object: 'review_link',
    status: 'open',
    design_id: req.design_id,
    dfm_id: req.dfm_id ?? null,
    review_url: `${websiteUrl}/review/${id}`,
    configuration: req.configuration ?? {},
    configuration_updated_at: now.toISOString(),
    created_at: now.toISOString(),
    expires_at: isoPlus(now, REVIEW_LINK_DAYS),
  };
  await collection(ctx, 'review_links').create(accountId, doc, { id });
  return publicView(doc);
}

export async function getReviewLink(ctx: UseCaseContext, accountId: string, id: string): Promise<Doc> {
  const rec = await collection(ctx, 'review_links').get(accountId, id);
  if (!rec) throw notFound('review link', id, 'review_link_id');
  const doc = rec.data;
  if (doc.status === 'open' && typeof doc.expires_at === 'string' && doc.expires_at < ctx.now().toISOString()) return publicView({ ...doc, status: 'expired' });
  return publicView(doc);
}
