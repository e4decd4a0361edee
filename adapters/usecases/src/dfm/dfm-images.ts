// A DFM report's part images: the part's findings drawn on its real flat (or a formed view) by the
// engine, from the design's source and the report's own findings, configuration and K-factor. Made
// on first request and kept under the report, like the design's images.
import { type UseCaseContext, fileUnavailable, signedDownload, type ImageFormat, type ImageView } from '../core/index.ts';
import { requireReadyDesign } from '../designs/index.ts';
import type { DfmDoc } from './dfm-doc.ts';

export async function dfmImageUrl(ctx: UseCaseContext, accountId: string, doc: DfmDoc, partId: string, view: ImageView, format: ImageFormat, width: number, legend = true): Promise<string> {
  // the image without its legend (the web page's, which lists the findings itself) is kept apart
  const name = `image-${view}-${width}${legend ? '' : '-markers'}.${format}`;
  const key = `dfm/${doc.id}/parts/${partId}/${name}`;
  const contentType = format === 'svg' ? 'image/svg+xml' : 'image/png';
  if (!(await ctx.store.blobs.exists(key))) {
    const { row, design } = await requireReadyDesign(ctx, accountId, doc.design_id, 'design_id');
    const part = doc.parts.find((p) => p.part_id === partId)!;
    const source = await ctx.store.blobs.get(row.sourceBlobKey);
    if (!source) throw fileUnavailable('The uploaded file is no longer stored.');
    const file = await ctx.engine.dfmImage({
      design, source: new Uint8Array(source.buffer, source.byteOffset, source.byteLength), part_id: partId, view, format, width,
      // records kept before a report had every field still draw
      issues: part.issues ?? [], configuration: doc.configuration ?? null, k_factor: part.k_factor ?? null, ...(legend ? {} : { legend: false }), signal: ctx.signal,
    });
    if (!file) throw fileUnavailable(`Part '${partId}' has no ${view} DFM image.`, 'view');
    await ctx.store.blobs.put(key, file.bytes, { contentType });
  }
  return signedDownload(ctx, { k: key, t: contentType, n: `${doc.id}-${partId}-${view}.${format}` });
}
