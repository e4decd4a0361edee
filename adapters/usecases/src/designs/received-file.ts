// An uploaded file as the transports hand it to the use cases: either bytes (the CLI, the library,
// small JSON-free callers) or a file spooled to disk while it arrived, measured (size, SHA-256) on
// the way. A spooled upload is never read whole into memory here: it is checked by its two ends and
// streamed into the blob store, so memory does not grow with upload size × concurrent uploads. (The
// analysis job reads the stored file whole for the engine, in the worker, one job per engine thread.)
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { open, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { assertStepBytes, assertStepEnds, STEP_SNIFF_BYTES } from '@kerf/engine';
import type { BlobData } from '@kerf/store';
import { type UseCaseContext, UseCaseError } from '../core/index.ts';

/** How spoolUpload names its files, so a sweep of a shared directory removes only spools. */
const SPOOL_NAME = /^upload-[0-9a-f]{24}\.part$/;

/** An upload on disk, as spoolUpload wrote it. */
export interface SpooledFile {
  readonly spooled: true;
  path: string;
  size: number;
  sha256: string;
}

export type UploadBytes = Uint8Array | SpooledFile;

export function isSpooled(file: UploadBytes): file is SpooledFile {
  return !(file instanceof Uint8Array);
}

/** Size and SHA-256 of an upload (a spooled one was measured as it arrived). */
export function measureUpload(file: UploadBytes): { size: number; sha256: string } {
  if (isSpooled(file)) return { size: file.size, sha256: file.sha256 };
  return { size: file.length, sha256: createHash('sha256').update(file).digest('hex') };
}

/** The engine's STEP check (invalid_step with the reason); a spooled file is read by its two ends. */
export async function assertStepUpload(file: UploadBytes): Promise<void> {
  if (!isSpooled(file)) return assertStepBytes(file);
  const handle = await open(file.path, 'r');
  try {
    const read = async (length: number, position: number): Promise<Uint8Array> => {
      const buf = Buffer.alloc(length);
      const { bytesRead } = await handle.read(buf, 0, length, position);
      return buf.subarray(0, bytesRead);
    };
    const n = Math.min(STEP_SNIFF_BYTES, file.size);
    assertStepEnds(await read(n, 0), await read(n, file.size - n), file.size);
  } finally {
    await handle.close();
  }
}

/** What to hand the blob store: the bytes, or a stream of the spooled file. */
export function uploadData(file: UploadBytes): BlobData {
  return isSpooled(file) ? createReadStream(file.path) : file;
}

/**
 * Writes `source` to a new file in `dir` (mode 0600), hashing it on the way; beyond `maxBytes` it
 * stops and fails with file_too_large. Not stream.pipeline: a
 * failing source must not destroy the request stream it comes from, or the client gets no answer.
 * The caller removes the file (removeSpooled) once the request is answered.
 */
export function spoolUpload(source: Readable, dir: string, maxBytes = Infinity): { path: string; done: Promise<SpooledFile> } {
  const path = join(dir, `upload-${randomBytes(12).toString('hex')}.part`);
  const done = new Promise<SpooledFile>((resolve, reject) => {
    const hash = createHash('sha256');
    let size = 0;
    const out = createWriteStream(path, { mode: 0o600 });
    source.on('data', (chunk: Buffer) => {
      size += chunk.length;
      hash.update(chunk);
      if (size <= maxBytes) return;
      // more than the limit: stop writing, read the rest to nowhere so the client still gets its answer
      source.unpipe(out);
      source.removeAllListeners('data');
      source.resume();
      out.destroy();
      reject(new UseCaseError('too_large', 'invalid_request_error', 'file_too_large', `The file is larger than the upload limit of ${maxBytes} bytes.`));
    });
    source.once('error', (err) => { out.destroy(); reject(err); });
    out.once('error', (err) => { source.unpipe(out); source.resume(); reject(err); });
    out.once('finish', () => resolve({ spooled: true, path, size, sha256: hash.digest('hex') }));
    source.pipe(out);
  });
  return { path, done };
}

export async function removeSpooled(path: string): Promise<void> {
  await rm(path, { force: true });
}

/** The directory a transport spools its uploads to (the context's, else the OS temp dir). */
export function spoolDirOf(ctx: Pick<UseCaseContext, 'uploadSpoolDir'>): string {
  return ctx.uploadSpoolDir ?? tmpdir();
}

/**
 * Removes spooled uploads last written before `before` (ms since the epoch): what a process that
 * died mid-request left; a younger one may be an upload under way. Returns how many were removed.
 */
export async function sweepSpools(dir: string, before: number): Promise<number> {
  let removed = 0;
  for (const name of await readdir(dir).catch(() => [] as string[])) {
    if (!SPOOL_NAME.test(name)) continue;
    const path = join(dir, name);
    if (((await stat(path).catch(() => null))?.mtimeMs ?? Infinity) >= before) continue;
    await rm(path, { force: true });
    removed++;
  }
  return removed;
}
