// The pictures of a DFM report's bend plans: per bent part, one SVG per step of its press-brake
// sequence (the part on the die under the punch), drawn by the engine from the report's design and
// configuration (docs/press-brake.md "Step images"). Served like the report's part images: drawn on
// first request, kept under the report, handed out as signed links.
import {
  type Caller, type UseCaseContext, requireScope, DfmBendStepImageInput, DfmInput, validateInput, type Configuration, fileUnavailable, notFound,
  openDownload, signedDownload, UseCaseError,
} from '../core/index.ts';
import { requireReadyDesign } from '../designs/index.ts';
import { designForConfiguration } from './material-flats.ts';
import { getDfmDoc } from './dfm.ts';
import type { DfmDoc } from './dfm-doc.ts';

const SVG = 'image/svg+xml';
const stepKey = (dfmId: string, partId: string, step: number): string => `dfm/${dfmId}/parts/${partId}/bend-step-${step}.svg`;

/** Part id -> its steps' SVGs, for the report's parts whose plan found a sequence. */
async function drawSteps(ctx: UseCaseContext, accountId: string, doc: DfmDoc): Promise<Record<string, string[]>> {
  if (!doc.parts.some((p) => p.bend_plan?.status === 'found')) return {};
  const configuration = (doc.configuration ?? {}) as Configuration;
  const ready = await requireReadyDesign(ctx, accountId, doc.design_id, 'dfm_id');
  const { design } = await designForConfiguration(ctx, ready.row, ready.design, configuration);
  return ctx.engine.bendStepImages(design, configuration);
}

/** Part id -> its steps' SVGs, for the report's parts whose plan found a sequence. */
export async function getBendStepImages(ctx: UseCaseContext, caller: Caller, input: DfmInput): Promise<Record<string, string[]>> {
  requireScope(caller, 'dfm');
  const q = validateInput(DfmInput, input, { location: 'params' });
  return drawSteps(ctx, caller.accountId, await getDfmDoc(ctx, caller.accountId, q.dfm_id));
}

/** GET /v1/dfm/{id}/parts/{part_id}/bend-steps/{step}/image: a signed link to one step's SVG. */
export async function getBendStepImageUrl(ctx: UseCaseContext, caller: Caller, input: DfmBendStepImageInput): Promise<string> {
  requireScope(caller, 'dfm');
  const q = validateInput(DfmBendStepImageInput, input, { location: 'params' });
  const doc = await getDfmDoc(ctx, caller.accountId, q.dfm_id);
  const part = doc.parts.find((p) => p.part_id === q.part_id);
  if (!part) throw notFound('part', q.part_id, 'part_id');
  const plan = part.bend_plan;
  if (plan?.status !== 'found') {
    throw fileUnavailable(plan ? `Part '${q.part_id}' has no bend sequence to draw${plan.message ? `: ${plan.message}` : ''}.` : `Part '${q.part_id}' has no press-brake plan (not bent sheet, or the catalog has no tooling).`, 'part_id');
  }
  if (q.step > plan.sequence.length) throw fileUnavailable(`Part '${q.part_id}' has ${plan.sequence.length} bend step(s); there is no step ${q.step}.`, 'step');
  const key = stepKey(doc.id, q.part_id, q.step);
  if (!(await ctx.store.blobs.exists(key))) {
    // one engine call draws every step of every part: keep them all
    const drawn = await drawSteps(ctx, caller.accountId, doc);
    for (const [partId, svgs] of Object.entries(drawn)) {
      for (const [i, svg] of svgs.entries()) if (svg) await ctx.store.blobs.put(stepKey(doc.id, partId, i + 1), Buffer.from(svg, 'utf8'), { contentType: SVG });
    }
    if (!drawn[q.part_id]?.[q.step - 1]) throw fileUnavailable(`Step ${q.step} of part '${q.part_id}' has no picture (its bend line was not measured).`, 'step');
  }
  return signedDownload(ctx, { k: key, t: SVG, n: `${doc.id}-${q.part_id}-bend-step-${q.step}.svg` });
}

export interface BendStepPicture { part_id: string; step: number; bend_id: number; url: string | null; svg: string }

const token = (url: string): string => decodeURIComponent(url.slice(url.lastIndexOf('/') + 1));

/** The step pictures of a report's bent parts (up to `max_parts` parts with a sequence), as bytes: what MCP shows. */
export async function bendStepPictures(ctx: UseCaseContext, caller: Caller, input: DfmInput & { max_parts?: number }): Promise<BendStepPicture[]> {
  requireScope(caller, 'dfm');
  const q = validateInput(DfmInput, { dfm_id: input.dfm_id }, { location: 'params' });
  const doc = await getDfmDoc(ctx, caller.accountId, q.dfm_id);
  const out: BendStepPicture[] = [];
  for (const p of doc.parts.filter((x) => x.bend_plan?.status === 'found').slice(0, input.max_parts ?? 4)) {
    for (const s of p.bend_plan!.sequence) {
      const link = await getBendStepImageUrl(ctx, caller, { dfm_id: doc.id, part_id: p.part_id, step: s.step }).catch((err: unknown) => {
        if (err instanceof UseCaseError && err.code === 'file_unavailable') return null;
        throw err;
      });
      if (!link) continue;
      const file = await openDownload(ctx, { token: token(link) });
      out.push({ part_id: p.part_id, step: s.step, bend_id: s.bend_id, url: s.image_url ?? null, svg: file.body.toString('utf8') });
    }
  }
  return out;
}
