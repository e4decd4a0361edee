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
import { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { assertStepBytes, assertStepEnds, EngineError, STEP_SNIFF_BYTES } from '@kerf/engine';
import type { BlobData } from '@kerf/store';
import { MAX_PREPARED_UPLOAD_BYTES, type UseCaseContext, UseCaseError } from '../core/index.ts';

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

/**
 * A gzip-compressed upload (.stpZ, .step.gz) may expand to at most this many times the upload limit:
 * compression saves the upload's bandwidth, it does not raise how much STEP the engine is given much
 * beyond what an uncompressed upload may carry (a 478 KB bomb expanding to 480 MB held an engine
 * thread for its whole time limit).
 */
export const COMPRESSED_EXPANSION_FACTOR = 2;

/** The upload limit the transports apply (the context's, else the prepared uploads' 50 MiB) and what a compressed upload may expand to, bytes. */
export function uploadLimits(ctx: Pick<UseCaseContext, 'maxUploadBytes'>): { uploadBytes: number; expandedBytes: number } {
  const uploadBytes = ctx.maxUploadBytes ?? MAX_PREPARED_UPLOAD_BYTES;
  return { uploadBytes, expandedBytes: uploadBytes * COMPRESSED_EXPANSION_FACTOR };
}

/** A byte count as a person reads it: 50 MiB, 64 KiB, 512 bytes. */
function formatBytes(n: number): string {
  if (n >= 1048576 && n % 1048576 === 0) return `${n / 1048576} MiB`;
  if (n >= 1024 && n % 1024 === 0) return `${n / 1024} KiB`;
  return `${n} bytes`;
}

/**
 * Refuses (413 file_too_large, naming the limit) a gzip-compressed upload that expands beyond
 * `limits.expandedBytes`. The file is decompressed as a stream and only counted, never held: the
 * check stops at the limit, so a bomb costs at most that much decompression. A corrupt gzip stream
 * is invalid_step, as the engine would say. A plain upload passes untouched.
 */
export async function assertExpandedSize(file: UploadBytes, limits: { uploadBytes: number; expandedBytes: number }): Promise<void> {
  const head = isSpooled(file) ? await readHead(file.path, 2) : file.subarray(0, 2);
  if (!(head.length === 2 && head[0] === 0x1f && head[1] === 0x8b)) return;
  const source = isSpooled(file) ? createReadStream(file.path) : Readable.from([Buffer.from(file.buffer, file.byteOffset, file.byteLength)]);
  const gunzip = createGunzip();
  let expanded = 0;
  await new Promise<void>((resolve, reject) => {
    const stop = (err: unknown): void => { source.destroy(); gunzip.destroy(); reject(err); };
    gunzip.on('data', (chunk: Buffer) => {
      expanded += chunk.length;
      if (expanded <= limits.expandedBytes) return;
      stop(new UseCaseError('too_large', 'invalid_request_error', 'file_too_large',
        `The compressed file expands to more than ${formatBytes(limits.expandedBytes)} (${limits.expandedBytes} bytes), the limit for a compressed upload (${COMPRESSED_EXPANSION_FACTOR} x the upload limit of ${formatBytes(limits.uploadBytes)}). Split the assembly into smaller files.`,
        { param: 'file' }));
    });
    gunzip.once('end', () => resolve());
    gunzip.once('error', () => stop(new EngineError('invalid_step', 'the file is gzip-compressed but corrupt')));
    source.once('error', stop);
    source.pipe(gunzip);
  });
}

async function readHead(path: string, length: number): Promise<Uint8Array> {
  const handle = await open(path, 'r');
  try {
    const buf = Buffer.alloc(length);
    const { bytesRead } = await handle.read(buf, 0, length, 0);
    return buf.subarray(0, bytesRead);
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
