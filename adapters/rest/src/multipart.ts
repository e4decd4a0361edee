// Multipart forms are read by our own preValidation step (not the plugin's attachFieldsToBody) so the
// body has one plain shape, file bytes are bounded by the upload limit, and the idempotency
// fingerprint can hash the file.
import type { FastifyRequest } from 'fastify';
import { MULTIPART_BODY } from './validation.ts';

export interface UploadedFile { filename: string; mimetype: string; bytes: Buffer }
export interface MultipartBody {
  [MULTIPART_BODY]: true;
  files: Record<string, UploadedFile>;
  fields: Record<string, string>;
}

export function isMultipartBody(body: unknown): body is MultipartBody {
  return !!body && typeof body === 'object' && (body as Record<string, unknown>)[MULTIPART_BODY] === true;
}

export async function readMultipart(request: FastifyRequest): Promise<MultipartBody> {
  const body: MultipartBody = { [MULTIPART_BODY]: true, files: {}, fields: {} };
  for await (const part of request.parts()) {
    if (part.type === 'file') {
      const bytes = await part.toBuffer();
      if (!body.files[part.fieldname]) body.files[part.fieldname] = { filename: part.filename, mimetype: part.mimetype, bytes };
    } else if (body.fields[part.fieldname] === undefined) {
      body.fields[part.fieldname] = String(part.value);
    }
  }
  return body;
}
