// The pictures of a DFM report's bend plans: per bent part, one SVG per step of its press-brake
// sequence (the part on the die under the punch), drawn by the engine from the report's design and
// configuration (docs/press-brake.md "Step images").
import { type Caller, type UseCaseContext, requireScope, DfmInput, validateInput, type Configuration } from '../core/index.ts';
import { requireReadyDesign } from '../designs/index.ts';
import { designForConfiguration } from './material-flats.ts';
import { getDfmDoc } from './dfm.ts';

/** Part id -> its steps' SVGs, for the report's parts whose plan found a sequence. */
export async function getBendStepImages(ctx: UseCaseContext, caller: Caller, input: DfmInput): Promise<Record<string, string[]>> {
  requireScope(caller, 'dfm');
  const q = validateInput(DfmInput, input, { location: 'params' });
  const doc = await getDfmDoc(ctx, caller.accountId, q.dfm_id);
  if (!doc.parts.some((p) => p.bend_plan?.status === 'found')) return {};
  const configuration = (doc.configuration ?? {}) as Configuration;
  const ready = await requireReadyDesign(ctx, caller.accountId, doc.design_id, 'dfm_id');
  const { design } = await designForConfiguration(ctx, ready.row, ready.design, configuration);
  return ctx.engine.bendStepImages(design, configuration);
}
