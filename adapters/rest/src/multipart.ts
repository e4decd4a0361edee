// Multipart forms are read by our own preValidation step (not the plugin's attachFieldsToBody) so the
// body has one plain shape, file bytes are bounded by the upload limit, and the idempotency
// fingerprint can hash the file. A file part is spooled to a temporary file while it arrives (size and
// SHA-256 taken on the way) and handed to the use cases as that file, never read whole into memory:
// a slow client holds a file descriptor, and memory does not grow with upload size × concurrent
// uploads. The spool is removed once the request is answered (removeSpools).
import type { FastifyRequest } from 'fastify';
import { removeSpooled, spoolUpload, type SpooledFile } from '@kerf/usecases';
import { isDiskFull } from '@kerf/store';
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

/**
 * The parts each multipart route takes (`file` on /v1/analyze; `file` and `request` on
 * /v1/quotes). Any other part is refused as an unknown field, as a JSON body's would be, so a typo
 * (`-F k_factor=0.9`) is not silently dropped; each part may come once.
 */
const FORM_PARTS: Record<string, readonly string[]> = {
  'POST /v1/analyze': ['file'],
  'POST /v1/quotes': ['file', 'request'],
};

export function isMultipartBody(body: unknown): body is MultipartBody {
  return !!body && typeof body === 'object' && (body as Record<string, unknown>)[MULTIPART_BODY] === true;
}

/** `spoolDir`: where file parts wait while they arrive (the janitor sweeps it: spoolDirOf). */
export async function readMultipart(request: FastifyRequest, spoolDir: string): Promise<MultipartBody> {
  const body: MultipartBody = { [MULTIPART_BODY]: true, files: {}, fields: {} };
  const boundary = /;\s*boundary=("?)([^";]+)\1/i.exec(String(request.headers['content-type'] ?? ''));
  if (!boundary) throw malformed('the Content-Type multipart/form-data has no boundary parameter');
  const route = `${request.method} ${request.routeOptions.url ?? ''}`;
  const accepted = FORM_PARTS[route] ?? ['file'];
  const spooled = spoolsOf(request);
  let complete = false;
  try {
    try {
      for await (const part of request.parts()) {
        checkPart(route, accepted, part.fieldname, body);
        if (part.type === 'file') {
          const { path, done } = spoolUpload(part.file, spoolDir);
          spooled.push(path);
          const file = await done;
          body.files[part.fieldname] = { filename: part.filename, mimetype: part.mimetype, bytes: file };
          if (part.file.truncated) throw Object.assign(new Error('request file too large'), { code: 'FST_REQ_FILE_TOO_LARGE', statusCode: 413 });
        } else {
          body.fields[part.fieldname] = String(part.value);
        }
      }
    } catch (err) {
      if (err instanceof HttpError) throw err;
      if (KNOWN_MULTIPART_ERRORS.test(String((err as { code?: unknown })?.code))) throw err;
      // the spool could not keep the file: the service's fault, not the body's
      if (isDiskFull(err)) throw err;
      // busboy's words ('Unexpected end of form', 'Malformed part header') name the fault
      throw malformed(`${(err as Error)?.message ?? 'it could not be parsed'} (is the boundary '${boundary[2]}' the one in the body, and is the body complete?)`);
    }
    complete = true;
  } finally {
    if (!complete) await removeSpools(request);
  }
  return body;
}

/** Refuses a part the route does not take, or one it already has (a second `file`). */
function checkPart(route: string, accepted: readonly string[], name: string, body: MultipartBody): void {
  const list = accepted.map((f) => `\`${f}\``).join(', ');
  if (!accepted.includes(name)) {
    throw new HttpError(422, 'invalid_request_error', 'parameter_unknown',
      `Unknown form field '${name}': ${route} takes the multipart parts ${list}.`, { param: name });
  }
  if (body.files[name] || body.fields[name] !== undefined) {
    throw new HttpError(400, 'invalid_request_error', 'invalid_multipart',
      `The multipart/form-data body has more than one \`${name}\` part: send each of ${list} once (one file per request).`, { param: name });
  }
}

const spools = new WeakMap<FastifyRequest, string[]>();
function spoolsOf(request: FastifyRequest): string[] {
  let paths = spools.get(request);
  if (!paths) spools.set(request, paths = []);
  return paths;
}

/** Whether the request has spooled uploads left to remove. */
export function hasSpools(request: FastifyRequest): boolean {
  return spools.has(request);
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
