// Previews: labelled pictures of a ready design (MCP preview_design), the same images GET
// /v1/designs/{id}/image and the part images serve, as bytes rather than links.
import {
  requireScope, type Caller, type UseCaseContext, UseCaseError, openDownload, type ImageView, PreviewRequest, type DfmInput,
  validateInput,
} from '../core/index.ts';
import { requireReadyDesign, getDesignImageUrl, getPartImageUrl } from '../designs/index.ts';
import { getDfmPartImageUrl, getDfmReport } from './dfm.ts';

/** Views shown when none are asked for. */
const DESIGN_VIEWS: readonly ImageView[] = ['iso', 'top', 'front', 'flat'];
const PART_VIEWS: readonly ImageView[] = ['iso', 'top', 'flat'];
/** Parts whose flat patterns a design-level 'flat' view shows (a big assembly would flood the answer). */
const MAX_FLAT_PARTS = 4;

export interface PreviewImage {
  label: string;
  view: ImageView;
  part_id: string | null;
  content_type: string;
  bytes: Buffer;
  /** where the API serves the same image, when it does */
  url?: string;
}

export interface Preview {
  design_id: string;
  images: PreviewImage[];
  /** views that do not apply (a tube's flat pattern, a part that was not unfolded), with why */
  skipped: Array<{ view: ImageView; part_id: string | null; reason: string }>;
}

const token = (url: string): string => decodeURIComponent(url.slice(url.lastIndexOf('/') + 1));

export async function previewDesign(ctx: UseCaseContext, caller: Caller, input: PreviewRequest): Promise<Preview> {
  requireScope(caller, 'designs');
  const req = validateInput(PreviewRequest, input);
  const { design } = await requireReadyDesign(ctx, caller.accountId, req.design_id, 'design_id');
  const part = req.part_id === undefined ? null : design.parts.find((p) => p.id === req.part_id);
  if (part === undefined) throw new UseCaseError('not_found', 'not_found_error', 'resource_missing', `Design '${design.id}' has no part '${req.part_id}'; its parts are ${design.parts.map((p) => p.id).join(', ')}.`, { param: 'part_id' });
  const views = req.views ?? (part ? PART_VIEWS : DESIGN_VIEWS);
  const out: Preview = { design_id: design.id, images: [], skipped: [] };
  const common = { design_id: design.id, format: 'png' as const, width: req.width };
  const add = async (view: ImageView, partId: string | null, label: string): Promise<void> => {
    try {
      const url = partId ? await getPartImageUrl(ctx, caller, { ...common, part_id: partId, view }) : await getDesignImageUrl(ctx, caller, { ...common, view });
      const file = await openDownload(ctx, { token: token(url) });
      out.images.push({ label, view, part_id: partId, content_type: file.contentType, bytes: file.body });
    } catch (err) {
      if (!(err instanceof UseCaseError) || err.code !== 'file_unavailable') throw err;
      out.skipped.push({ view, part_id: partId, reason: err.message });
    }
  };
  for (const view of views) {
    if (part) {
      await add(view, part.id, `${view === 'flat' ? 'Flat pattern' : `${view} view`} of part ${part.id} (${part.name}) of design ${design.id}`);
    } else if (view === 'flat') {
      // a design has no flat pattern of its own: its parts' flats stand for it
      for (const p of design.parts.slice(0, MAX_FLAT_PARTS)) await add('flat', p.id, `Flat pattern of part ${p.id} (${p.name}) of design ${design.id}`);
    } else {
      await add(view, null, `${view} view of design ${design.id} (${design.name})`);
    }
  }
  return out;
}

/** A DFM report's annotated part images (SVG: every finding and configured hole operation marked). */
export async function previewDfm(ctx: UseCaseContext, caller: Caller, input: DfmInput & { max_parts?: number }): Promise<PreviewImage[]> {
  requireScope(caller, 'dfm');
  const report = await getDfmReport(ctx, caller, { dfm_id: input.dfm_id });
  const parts = (report.parts as Array<{ part_id: string; image_url?: string | null }>).slice(0, input.max_parts ?? MAX_FLAT_PARTS);
  const out: PreviewImage[] = [];
  for (const p of parts) {
    const url = await getDfmPartImageUrl(ctx, caller, { dfm_id: report.id, part_id: p.part_id, format: 'svg' });
    const file = await openDownload(ctx, { token: token(url) });
    out.push({ label: `DFM findings of part ${p.part_id} in report ${report.id} (design ${report.design_id})`, view: 'flat', part_id: p.part_id, content_type: file.contentType, bytes: file.body, ...(p.image_url ? { url: p.image_url } : {}) });
  }
  return out;
}
