// Multipart forms are read by our own preValidation step (not the plugin's attachFieldsToBody) so the
// body has one plain shape, file bytes are bounded by the upload limit, and the idempotency
// fingerprint can hash the file. A file part is spooled to a temporary file while it arrives and read
// into memory only once the whole request is in: a slow client holds a file descriptor, not up to the
// upload limit of memory.
import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
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

/** `spoolDir`: where file parts wait while they arrive (default the OS temp dir). */
export async function readMultipart(request: FastifyRequest, spoolDir = tmpdir()): Promise<MultipartBody> {
  const body: MultipartBody = { [MULTIPART_BODY]: true, files: {}, fields: {} };
  const boundary = /;\s*boundary=("?)([^";]+)\1/i.exec(String(request.headers['content-type'] ?? ''));
  if (!boundary) throw malformed('the Content-Type multipart/form-data has no boundary parameter');
  const spooled: Array<{ field: string; filename: string; mimetype: string; path: string }> = [];
  try {
    try {
      for await (const part of request.parts()) {
        if (part.type === 'file') {
          const path = join(spoolDir, `upload-${randomBytes(12).toString('hex')}.part`);
          spooled.push({ field: part.fieldname, filename: part.filename, mimetype: part.mimetype, path });
          await spool(part.file, path);
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
    // the whole request is in: now the files are read, bounded by the upload limit
    for (const f of spooled) {
      if (!body.files[f.field]) body.files[f.field] = { filename: f.filename, mimetype: f.mimetype, bytes: await readFile(f.path) };
    }
  } finally {
    await Promise.all(spooled.map((f) => rm(f.path, { force: true })));
  }
  return body;
}

/**
 * Writes the part to `path`. Not stream.pipeline: a failing part must not destroy the request
 * stream it comes from, or the client gets no answer at all.
 */
function spool(file: Readable, path: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const out = createWriteStream(path, { mode: 0o600 });
    file.once('error', (err) => { out.destroy(); reject(err); });
    out.once('error', (err) => { file.unpipe(out); file.resume(); reject(err); });
    out.once('finish', () => resolve());
    file.pipe(out);
  });
}

function malformed(why: string): HttpError {
  return new HttpError(400, 'invalid_request_error', 'invalid_multipart', `The multipart/form-data body is malformed: ${why}.`);
}
