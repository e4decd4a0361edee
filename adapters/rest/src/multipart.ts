// Multipart forms are read by our own preValidation step (not the plugin's attachFieldsToBody) so the
// body has one plain shape, file bytes are bounded by the upload limit, and the idempotency
// fingerprint can hash the file. A file part is spooled to a temporary file while it arrives (size and
// SHA-256 taken on the way) and handed to the use cases as that file, never read whole into memory:
// a slow client holds a file descriptor, and memory does not grow with upload size × concurrent
// uploads. The spool is removed once the request is answered (removeSpools).
import { tmpdir } from 'node:os';
import type { FastifyRequest } from 'fastify';
import { removeSpooled, spoolUpload, type SpooledFile } from '@kerf/usecases';
import { HttpError } from './http-errors.ts';
import { MULTIPART_BODY } from './validation.ts';

/** The plugin's own refusals that have statuses of their own (413 for sizes, 415): kept as they are. */
const KNOWN_MULTIPART_ERRORS = /^FST_(REQ_FILE_TOO_LARGE|PARTS_LIMIT|FILES_LIMIT|FIELDS_LIMIT|INVALID_MULTIPART_CONTENT_TYPE|ERR_CTP_BODY_TOO_LARGE)$/;

/** `bytes`: the spooled file, as the use cases take an upload. */
export interface UploadedFile { filename: string; mimetype: string; bytes: SpooledFile }
export interface MultipartBody {
  [MULTIPART_BODY]: true;
  files: Record<string, UploadedFile>;
  fields: Record<string, string>;
}

export function isMultipartBody(body: unknown): body is MultipartBody {
  return !!body && typeof body === 'object' && (body as Record<string, unknown>)[MULTIPART_BODY] === true;
}

/** `spoolDir`: where file parts wait while they arrive (default the OS temp dir). */
export async function readMultipart(request: FastifyRequest, spoolDir = tmpdir()): Promise<MultipartBody> {
  const body: MultipartBody = { [MULTIPART_BODY]: true, files: {}, fields: {} };
  const boundary = /;\s*boundary=("?)([^";]+)\1/i.exec(String(request.headers['content-type'] ?? ''));
  if (!boundary) throw malformed('the Content-Type multipart/form-data has no boundary parameter');
  const spooled = spoolsOf(request);
  let complete = false;
  try {
    try {
      for await (const part of request.parts()) {
        if (part.type === 'file') {
          const { path, done } = spoolUpload(part.file, spoolDir);
          spooled.push(path);
          const file = await done;
          if (!body.files[part.fieldname]) body.files[part.fieldname] = { filename: part.filename, mimetype: part.mimetype, bytes: file };
          if (part.file.truncated) throw Object.assign(new Error('request file too large'), { code: 'FST_REQ_FILE_TOO_LARGE', statusCode: 413 });
        } else if (body.fields[part.fieldname] === undefined) {
          body.fields[part.fieldname] = String(part.value);
        }
      }
    } catch (err) {
      if (KNOWN_MULTIPART_ERRORS.test(String((err as { code?: unknown })?.code))) throw err;
      // busboy's words ('Unexpected end of form', 'Malformed part header') name the fault
      throw malformed(`${(err as Error)?.message ?? 'it could not be parsed'} (is the boundary '${boundary[2]}' the one in the body, and is the body complete?)`);
    }
    complete = true;
  } finally {
    if (!complete) await removeSpools(request);
  }
  return body;
}

const spools = new WeakMap<FastifyRequest, string[]>();
function spoolsOf(request: FastifyRequest): string[] {
  let paths = spools.get(request);
  if (!paths) spools.set(request, paths = []);
  return paths;
}

/** Removes the request's spooled uploads (once it is answered; again is harmless). */
export async function removeSpools(request: FastifyRequest): Promise<void> {
  const paths = spools.get(request);
  if (!paths) return;
  spools.delete(request);
  await Promise.all(paths.map((p) => removeSpooled(p)));
}

function malformed(why: string): HttpError {
  return new HttpError(400, 'invalid_request_error', 'invalid_multipart', `The multipart/form-data body is malformed: ${why}.`);
}
