// Downloads: every file operation answers with a short-lived signed URL for a stored blob, and the
// download route opens one (the token is the credential).
import type { UseCaseContext } from './context.ts';
import { UseCaseError, fileUnavailable } from './errors.ts';
import { DownloadInput, type IMAGE_VIEWS } from './schemas.ts';
import { validateInput } from './validation.ts';

export type ImageView = (typeof IMAGE_VIEWS)[number];
export type ImageFormat = 'svg' | 'png';

const CONTENT_TYPES: Record<string, string> = {
  glb: 'model/gltf-binary', step: 'application/step', svg: 'image/svg+xml', png: 'image/png', dxf: 'application/dxf',
};

export function contentTypeOf(name: string): string {
  return CONTENT_TYPES[name.split('.').pop() ?? ''] ?? 'application/octet-stream';
}

/** A short-lived URL for a stored blob: what every file operation answers with. */
export function signedDownload(ctx: UseCaseContext, grant: { k: string; t: string; n: string }): string {
  return ctx.links.download(ctx.signer.sign(grant));
}

/** The bytes behind a signed download token; the token is the credential (no caller). */
export async function openDownload(ctx: UseCaseContext, input: DownloadInput): Promise<{ body: Buffer; contentType: string; fileName: string }> {
  const { token } = validateInput(DownloadInput, input, { location: 'params' });
  const grant = ctx.signer.verify(token);
  if (grant === 'expired') throw new UseCaseError('forbidden', 'permission_error', 'link_expired', 'This download link has expired; request the file again for a fresh link.');
  if (grant === 'invalid') throw new UseCaseError('forbidden', 'permission_error', 'invalid_signature', 'This download link is not valid.');
  const body = await ctx.store.blobs.get(grant.k);
  if (!body) throw fileUnavailable('The file behind this link no longer exists.');
  return { body, contentType: grant.t, fileName: grant.n };
}
