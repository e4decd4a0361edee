// Review links: a configuration parked for a person to inspect (and edit) on the web site; the
// agent reads it back before continuing (docs/api.md "Review links").
import {
  type UseCaseContext, requireScope, type Caller, collection, publicView, type Doc, type DfmOutcome, UseCaseError, invalid, notFound,
  ReviewLinkInput, ReviewLinkRequest, SaveReviewInput, validateInput,
} from '../core/index.ts';
import { isStoreError, type DocumentRecord } from '@kerf/store';
import type { Design, DfmIssue } from '@kerf/engine';
import { toPublicDesign, type DesignResult, requireReadyDesign, newReviewLink } from '../designs/index.ts';
import { computeDfm, getDfmDoc } from './dfm.ts';


export async function createReviewLink(ctx: UseCaseContext, caller: Caller, input: ReviewLinkRequest): Promise<Doc> {
  requireScope(caller, 'designs');
  const req = validateInput(ReviewLinkRequest, input);
  const accountId = caller.accountId;
  await requireReadyDesign(ctx, accountId, req.design_id, 'design_id');
  if (req.dfm_id) {
    const dfm = await getDfmDoc(ctx, accountId, req.dfm_id).catch(() => { throw notFound('DFM report', req.dfm_id!, 'dfm_id'); });
    if (dfm.design_id !== req.design_id) throw invalid('dfm_design_mismatch', `DFM report '${req.dfm_id}' belongs to design '${dfm.design_id}', not '${req.design_id}'.`, 'dfm_id');
  }
  return newReviewLink(ctx, accountId, { design_id: req.design_id, dfm_id: req.dfm_id ?? null, configuration: req.configuration ?? {} });
}

export async function getReviewLink(ctx: UseCaseContext, caller: Caller, input: ReviewLinkInput): Promise<Doc> {
  requireScope(caller, 'designs');
  const { review_link_id: id } = validateInput(ReviewLinkInput, input, { location: 'params' });
  const rec = await collection(ctx, 'review_links').get(caller.accountId, id);
  if (!rec) throw notFound('review link', id, 'review_link_id');
  const doc = rec.data;
  if (doc.status === 'open' && typeof doc.expires_at === 'string' && doc.expires_at < ctx.now().toISOString()) return publicView({ ...doc, status: 'expired' });
  return publicView(doc);
}

// ---- the public review page (the link's id is the capability) ----------------------------------

export interface ReviewPage { link: Doc; accountId: string; design: Design | null }

async function openLink(ctx: UseCaseContext, id: string): Promise<{ rec: DocumentRecord<Doc>; expired: boolean }> {
  const rec = await collection(ctx, 'review_links').getUnscoped(id);
  if (!rec) throw notFound('review link', id, 'review_link_id');
  const expired = typeof rec.data.expires_at === 'string' && rec.data.expires_at < ctx.now().toISOString();
  return { rec, expired };
}

/** The page behind review_url; the link's id is the credential (no caller). */
export async function getReviewPage(ctx: UseCaseContext, input: ReviewLinkInput): Promise<ReviewPage> {
  const { review_link_id: id } = validateInput(ReviewLinkInput, input, { location: 'params' });
  const { rec, expired } = await openLink(ctx, id);
  const row = await ctx.store.designs.get<DesignResult>(rec.accountId, String(rec.data.design_id));
  return {
    link: publicView(expired ? { ...rec.data, status: 'expired' } : rec.data),
    accountId: rec.accountId,
    design: row ? toPublicDesign(ctx, row) : null,
  };
}

/**
 * Issues that mean a selection names nothing (an id not in the catalog, a hole or part instance not
 * in the design): a report can carry them, but a saved configuration must not, or the agent that
 * reads it back quotes a typo.
 */
const UNKNOWN_SELECTION_CODES = new Set(['invalid_material_id', 'invalid_tube_profile_id', 'invalid_finish_id', 'invalid_powder_coat_color_id', 'invalid_tap_id', 'invalid_hole_id', 'invalid_part_instance_id']);

function refuseUnknownSelections(report: Pick<DfmOutcome, 'parts' | 'assembly_issues'>, configuration: unknown): void {
  const cfg = (configuration ?? {}) as { defaults?: Record<string, unknown>; parts?: Array<Record<string, unknown>> };
  const found: Array<{ partId: string | null; issue: DfmIssue }> = [];
  for (const part of report.parts) for (const issue of part.issues) found.push({ partId: part.part_id, issue });
  for (const issue of report.assembly_issues) found.push({ partId: null, issue });
  const bad = found.find((f) => UNKNOWN_SELECTION_CODES.has(f.issue.code));
  if (!bad) return;
  // the field the person typed: the part's own entry, else the defaults
  const field = Object.keys(bad.issue.details ?? {}).find((k) => k.endsWith('_id')) ?? null;
  const index = cfg.parts?.findIndex((p) => p.part_id === bad.partId && field !== null && field in p) ?? -1;
  const param = field === null ? 'configuration'
    : index >= 0 ? `configuration.parts[${index}].${field}`
    : cfg.defaults && field in cfg.defaults ? `configuration.defaults.${field}` : 'configuration';
  throw invalid('invalid_configuration', bad.issue.message, param);
}

/** A person's edit on the review page: checked by the engine like any configuration, then kept. */
export async function saveReviewConfiguration(ctx: UseCaseContext, input: SaveReviewInput): Promise<Doc> {
  const { review_link_id: id, configuration } = validateInput(SaveReviewInput, input);
  const { rec, expired } = await openLink(ctx, id);
  if (expired) throw new UseCaseError('conflict', 'invalid_request_error', 'review_link_expired', 'This review link has expired; ask for a new one.');
  const { design } = await requireReadyDesign(ctx, rec.accountId, String(rec.data.design_id), 'design_id');
  const report = await computeDfm(ctx, design, configuration, { id: ctx.newId('dfm'), generateProductionFiles: false });
  refuseUnknownSelections(report, configuration);
  const now = ctx.now().toISOString();
  const next: Doc = { ...rec.data, status: 'saved', configuration: report.configuration, configuration_updated_at: now };
  try {
    const updated = await collection(ctx, 'review_links').update(rec.accountId, id, next, { expectedVersion: rec.version });
    return publicView(updated!.data);
  } catch (err) {
    if (isStoreError(err, 'conflict')) throw new UseCaseError('conflict', 'invalid_request_error', 'review_link_changed', 'The configuration was changed by someone else meanwhile; reload the page.', { retryable: true });
    throw err;
  }
}
