// Design and part files behind the 307 redirects: a file the analysis kept, else one the engine makes
// on demand from the stored source (then kept), handed out as a short-lived signed URL.
import {
  requireScope, type Caller, type UseCaseContext, fileUnavailable, notFound, contentTypeOf, signedDownload,
  type ImageFormat, type ImageView, DesignImageInput, DesignInput, PartImageInput, PartModelInput, PartStepInput, validateInput,
} from '../core/index.ts';
import { fileKey, type DesignRow } from './design-view.ts';
import { requireReadyDesign } from './designs.ts';

export type PartModelView = 'formed' | 'flat';
export type PartStepView = 'source' | 'normalized' | 'flat';

/** Names of the files a design can have, shared with the engine adapter. */
export const designFileNames = {
  model: (): string => 'model.glb',
  image: (view: ImageView, format: ImageFormat, width: number): string => `image-${view}-${width}.${format}`,
  partModel: (partId: string, view: PartModelView): string => `parts/${partId}/${view === 'flat' ? 'flat' : 'formed'}.glb`,
  partStep: (partId: string, view: PartStepView): string => `parts/${partId}/${view}.step`,
  partImage: (partId: string, view: ImageView, format: ImageFormat, width: number): string => `parts/${partId}/image-${view}-${width}.${format}`,
};

function downloadName(row: DesignRow, name: string): string {
  const stem = row.name.replace(/\.(step|stp)$/i, '').replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 80) || row.id;
  return `${stem}-${name.replace(/\//g, '-')}`;
}

/** The design's model (GLB), as a short-lived download URL. */
export async function getDesignModelUrl(ctx: UseCaseContext, caller: Caller, input: DesignInput): Promise<string> {
  requireScope(caller, 'designs');
  const { design_id } = validateInput(DesignInput, input, { location: 'params' });
  return designFileUrl(ctx, caller.accountId, design_id, designFileNames.model());
}

export async function getDesignImageUrl(ctx: UseCaseContext, caller: Caller, input: DesignImageInput): Promise<string> {
  requireScope(caller, 'designs');
  const q = validateInput(DesignImageInput, input, { location: 'querystring' });
  return designFileUrl(ctx, caller.accountId, q.design_id, designFileNames.image(q.view!, q.format!, q.width!));
}

export async function getPartModelUrl(ctx: UseCaseContext, caller: Caller, input: PartModelInput): Promise<string> {
  requireScope(caller, 'designs');
  const q = validateInput(PartModelInput, input, { location: 'querystring' });
  return designFileUrl(ctx, caller.accountId, q.design_id, designFileNames.partModel(q.part_id, q.view!), q.part_id);
}

export async function getPartStepUrl(ctx: UseCaseContext, caller: Caller, input: PartStepInput): Promise<string> {
  requireScope(caller, 'designs');
  const q = validateInput(PartStepInput, input, { location: 'querystring' });
  return designFileUrl(ctx, caller.accountId, q.design_id, designFileNames.partStep(q.part_id, q.view!), q.part_id);
}

export async function getPartImageUrl(ctx: UseCaseContext, caller: Caller, input: PartImageInput): Promise<string> {
  requireScope(caller, 'designs');
  const q = validateInput(PartImageInput, input, { location: 'querystring' });
  return designFileUrl(ctx, caller.accountId, q.design_id, designFileNames.partImage(q.part_id, q.view!, q.format!, q.width!), q.part_id);
}

/** Signed URL of a design file, made and kept on first request. */
async function designFileUrl(ctx: UseCaseContext, accountId: string, designId: string, name: string, partId?: string): Promise<string> {
  const { row, design } = await requireReadyDesign(ctx, accountId, designId, 'design_id');
  if (partId !== undefined && !design.parts.some((p) => p.id === partId)) throw notFound('part', partId, 'part_id');
  const part = partId ? design.parts.find((p) => p.id === partId)! : null;
  if (part && /\/flat\.(glb|step)$/.test(name) && !part.flat_pattern && !part.tube) {
    throw fileUnavailable(`Part '${part.id}' has no flat pattern (${part.unsupported_reason ?? 'not unfolded'}).`, 'view');
  }
  let key = row.result?.fileKeys?.[name] ?? fileKey(designId, name);
  let contentType = contentTypeOf(name);
  if (!(await ctx.store.blobs.exists(key))) {
    const source = await ctx.store.blobs.get(row.sourceBlobKey);
    if (!source) throw fileUnavailable('The uploaded file is no longer stored.');
    // A single-part upload is its own source STEP.
    if (part && name.endsWith('/source.step') && design.parts.length === 1 && design.part_instances.length <= 1) {
      key = row.sourceBlobKey;
    } else {
      const file = await ctx.engine.designFile({ design, source: new Uint8Array(source.buffer, source.byteOffset, source.byteLength), name, signal: ctx.signal });
      if (!file) throw fileUnavailable(`The file '${name}' is not available for this design.`);
      contentType = file.contentType;
      await ctx.store.blobs.put(key, file.bytes, { contentType });
    }
  }
  return signedDownload(ctx, { k: key, t: contentType, n: downloadName(row, name) });
}

