// The pictures of a DFM report's bend plans: per bent part, one SVG per step of its press-brake
// sequence (the part on the die under the punch), drawn by the engine from the report's design and
// configuration (docs/press-brake.md "Step images"). Served like the report's part images: drawn on
// first request, kept under the report, handed out as signed links.
import {
  type Caller, type UseCaseContext, requireScope, DfmBendStepImageInput, DfmInput, validateInput, type Configuration, fileUnavailable, notFound,
  signedDownload,
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

/**
 * Makes sure the report's step pictures are stored: the first request draws them all (one engine
 * call for every step of every part) and keeps them under the report; later ones only look. Returns
 * whether the asked-for step has a picture.
 */
async function storeSteps(ctx: UseCaseContext, accountId: string, doc: DfmDoc, partId: string, step: number): Promise<boolean> {
  if (await ctx.store.blobs.exists(stepKey(doc.id, partId, step))) return true;
  const drawn = await drawSteps(ctx, accountId, doc);
  for (const [id, svgs] of Object.entries(drawn)) {
    for (const [i, svg] of svgs.entries()) if (svg) await ctx.store.blobs.put(stepKey(doc.id, id, i + 1), Buffer.from(svg, 'utf8'), { contentType: SVG });
  }
  return Boolean(drawn[partId]?.[step - 1]);
}

/** Throws unless the report has this part with a found plan of at least `step` steps (404 part, else file_unavailable saying why). */
function requireStepOfPlan(doc: DfmDoc, partId: string, step: number): void {
  const part = doc.parts.find((p) => p.part_id === partId);
  if (!part) throw notFound('part', partId, 'part_id');
  const plan = part.bend_plan;
  if (plan?.status !== 'found') {
    throw fileUnavailable(plan ? `Part '${partId}' has no bend sequence to draw${plan.message ? `: ${plan.message}` : ''}.` : `Part '${partId}' has no press-brake plan (not bent sheet, or the catalog has no tooling).`, 'part_id');
  }
  if (step > plan.sequence.length) throw fileUnavailable(`Part '${partId}' has ${plan.sequence.length} bend step(s); there is no step ${step}.`, 'step');
}

/** GET /v1/dfm/{id}/parts/{part_id}/bend-steps/{step}/image: a signed link to one step's SVG. */
export async function getBendStepImageUrl(ctx: UseCaseContext, caller: Caller, input: DfmBendStepImageInput): Promise<string> {
  requireScope(caller, 'dfm');
  const q = validateInput(DfmBendStepImageInput, input, { location: 'params' });
  const doc = await getDfmDoc(ctx, caller.accountId, q.dfm_id);
  requireStepOfPlan(doc, q.part_id, q.step);
  if (!(await storeSteps(ctx, caller.accountId, doc, q.part_id, q.step))) throw fileUnavailable(`Step ${q.step} of part '${q.part_id}' has no picture (its bend line was not measured).`, 'step');
  return signedDownload(ctx, { k: stepKey(doc.id, q.part_id, q.step), t: SVG, n: `${doc.id}-${q.part_id}-bend-step-${q.step}.svg` });
}

export interface BendStepPicture { part_id: string; step: number; bend_id: number; url: string | null; svg: string }

/**
 * The stored step pictures of a report's bent parts (up to `max_parts` parts with a sequence), as
 * bytes: what MCP and the web quote page show. Drawn and stored on first use, like the signed links'.
 */
export async function bendStepPictures(ctx: UseCaseContext, caller: Caller, input: DfmInput & { max_parts?: number }): Promise<BendStepPicture[]> {
  requireScope(caller, 'dfm');
  const q = validateInput(DfmInput, { dfm_id: input.dfm_id }, { location: 'params' });
  const doc = await getDfmDoc(ctx, caller.accountId, q.dfm_id);
  const out: BendStepPicture[] = [];
  for (const p of doc.parts.filter((x) => x.bend_plan?.status === 'found').slice(0, input.max_parts ?? Infinity)) {
    for (const s of p.bend_plan!.sequence) {
      if (!(await storeSteps(ctx, caller.accountId, doc, p.part_id, s.step))) continue;
      const svg = await ctx.store.blobs.get(stepKey(doc.id, p.part_id, s.step));
      if (svg) out.push({ part_id: p.part_id, step: s.step, bend_id: s.bend_id, url: s.image_url ?? null, svg: svg.toString('utf8') });
    }
  }
  return out;
}
