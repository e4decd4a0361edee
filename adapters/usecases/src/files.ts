// Design and part files behind the 307 redirects: a file the analysis kept, else one the engine makes
// on demand from the stored source (then kept), handed out as a short-lived signed URL.
import type { UseCaseContext } from './context.ts';
import { fileKey, requireReadyDesign, type DesignRow } from './designs.ts';
import { ApiError, notFound } from './errors.ts';

export type PartModelView = 'formed' | 'flat';
export type PartStepView = 'source' | 'normalized' | 'flat';
export type ImageView = 'iso' | 'top' | 'bottom' | 'front' | 'back' | 'left' | 'right' | 'flat';
export type ImageFormat = 'svg' | 'png';

const CONTENT_TYPES: Record<string, string> = {
  glb: 'model/gltf-binary', step: 'application/step', svg: 'image/svg+xml', png: 'image/png', dxf: 'application/dxf',
};

export function contentTypeOf(name: string): string {
  return CONTENT_TYPES[name.split('.').pop() ?? ''] ?? 'application/octet-stream';
}

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

/** Signed URL of a design file, made and kept on first request. */
export async function designFileUrl(ctx: UseCaseContext, accountId: string, designId: string, name: string, partId?: string): Promise<string> {
  const { row, design } = await requireReadyDesign(ctx, accountId, designId, 'design_id');
  if (partId !== undefined && !design.parts.some((p) => p.id === partId)) throw notFound('part', partId, 'part_id');
  const part = partId ? design.parts.find((p) => p.id === partId)! : null;
  if (part && /\/flat\.(glb|step)$/.test(name) && !part.flat_pattern && !part.tube) {
    throw new ApiError(404, 'not_found_error', 'file_unavailable', `Part '${part.id}' has no flat pattern (${part.unsupported_reason ?? 'not unfolded'}).`, { param: 'view' });
  }
  let key = row.result?.fileKeys?.[name] ?? fileKey(designId, name);
  let contentType = contentTypeOf(name);
  if (!(await ctx.store.blobs.exists(key))) {
    const source = await ctx.store.blobs.get(row.sourceBlobKey);
    if (!source) throw new ApiError(404, 'not_found_error', 'file_unavailable', 'The uploaded file is no longer stored.');
    // A single-part upload is its own source STEP.
    if (part && name.endsWith('/source.step') && design.parts.length === 1 && design.part_instances.length <= 1) {
      key = row.sourceBlobKey;
    } else {
      const file = await ctx.engine.designFile({ design, source: new Uint8Array(source.buffer, source.byteOffset, source.byteLength), name });
      if (!file) throw new ApiError(404, 'not_found_error', 'file_unavailable', `The file '${name}' is not available for this design.`);
      contentType = file.contentType;
      await ctx.store.blobs.put(key, file.bytes, { contentType });
    }
  }
  return ctx.signer.sign({ k: key, t: contentType, n: downloadName(row, name) });
}

/** The bytes behind a signed URL token. */
export async function openDownload(ctx: UseCaseContext, token: string): Promise<{ body: Buffer; contentType: string; fileName: string }> {
  const grant = ctx.signer.verify(token);
  if (grant === 'expired') throw new ApiError(403, 'permission_error', 'link_expired', 'This download link has expired; request the file again for a fresh link.');
  if (grant === 'invalid') throw new ApiError(403, 'permission_error', 'invalid_signature', 'This download link is not valid.');
  const body = await ctx.store.blobs.get(grant.k);
  if (!body) throw new ApiError(404, 'not_found_error', 'file_unavailable', 'The file behind this link no longer exists.');
  return { body, contentType: grant.t, fileName: grant.n };
}
