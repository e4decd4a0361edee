// Multipart forms are read by our own preValidation step (not the plugin's attachFieldsToBody) so the
// body has one plain shape, file bytes are bounded by the upload limit, and the idempotency
// fingerprint can hash the file.
import type { FastifyRequest } from 'fastify';
import { HttpError } from './http-errors.ts';
import { MULTIPART_BODY } from './validation.ts';

/** The plugin's own refusals that have statuses of their own (413 for sizes, 415): kept as they are. */
const KNOWN_MULTIPART_ERRORS = /^FST_(REQ_FILE_TOO_LARGE|PARTS_LIMIT|FILES_LIMIT|FIELDS_LIMIT|INVALID_MULTIPART_CONTENT_TYPE|ERR_CTP_BODY_TOO_LARGE)$/;

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
  const boundary = /;\s*boundary=("?)([^";]+)\1/i.exec(String(request.headers['content-type'] ?? ''));
  if (!boundary) throw malformed('the Content-Type multipart/form-data has no boundary parameter');
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        const bytes = await part.toBuffer();
        if (!body.files[part.fieldname]) body.files[part.fieldname] = { filename: part.filename, mimetype: part.mimetype, bytes };
      } else if (body.fields[part.fieldname] === undefined) {
        body.fields[part.fieldname] = String(part.value);
      }
    }
  } catch (err) {
    if (KNOWN_MULTIPART_ERRORS.test(String((err as { code?: unknown })?.code))) throw err;
    // busboy's words ('Unexpected end of form', 'Malformed part header') name the fault
    throw malformed(`${(err as Error)?.message ?? 'it could not be parsed'} (is the boundary '${boundary[2]}' the one in the body, and is the body complete?)`);
  }
  return body;
}

function malformed(why: string): HttpError {
  return new HttpError(400, 'invalid_request_error', 'invalid_multipart', `The multipart/form-data body is malformed: ${why}.`);
}
