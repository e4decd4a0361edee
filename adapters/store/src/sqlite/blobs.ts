// Blobs of the embedded store: files under <dataDir>/blobs/<key>, metadata (size, sha256, type) in
// SQLite. A put streams into <dataDir>/tmp, fsyncs, then renames over the key, so a crash leaves
// either the old blob or the new one, never a half-written file.
import { randomBytes } from 'node:crypto';
import { type FileHandle, mkdir, open, readdir, readFile, rename, rm, stat, unlink } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import type { Readable } from 'node:stream';
import { measure } from '../common/blobData.ts';
import { checkBlobKey, checkBlobListLimit } from '../common/validate.ts';
import { isDiskFull, isStoreError, StoreError, type BlobData, type BlobInfo, type BlobStore } from '../port.ts';
import type { SqliteContext } from './context.ts';

/** Temp files older than this are leftovers of a crashed put; younger ones may be in flight. */
const ORPHAN_TEMP_AGE_MS = 60 * 60 * 1000;

interface BlobRow {
  key: string;
  size: number;
  sha256: string;
  content_type: string | null;
}

function isNotFound(err: unknown): boolean {
  return (err as { code?: unknown })?.code === 'ENOENT';
}

/**
 * Writes all of `chunk`: a write may store fewer bytes than it was given (a nearly full disk does
 * this without an error), and the rest must be written again or the failure surfaced.
 */
export async function writeFully(handle: Pick<FileHandle, 'write'>, chunk: Uint8Array): Promise<void> {
  let offset = 0;
  while (offset < chunk.byteLength) {
    const { bytesWritten } = await handle.write(chunk, offset, chunk.byteLength - offset);
    if (bytesWritten <= 0) throw Object.assign(new Error('a write stored no bytes: the disk is full'), { code: 'ENOSPC' });
    offset += bytesWritten;
  }
}

function asDiskFull(err: unknown): unknown {
  return isDiskFull(err) && !isStoreError(err) ? new StoreError('insufficient_storage', 'the disk is full: the blob was not stored', undefined, { cause: err }) : err;
}

export class FsBlobs implements BlobStore {
  private readonly upsert;
  private readonly find;
  private readonly remove;
  private readonly older;

  constructor(private readonly ctx: SqliteContext, private readonly blobDir: string, private readonly tmpDir: string) {
    this.upsert = ctx.db.prepare(`INSERT INTO blobs (key, size, sha256, content_type, updated_at) VALUES (@key, @size, @sha256, @contentType, @now)
      ON CONFLICT (key) DO UPDATE SET size = excluded.size, sha256 = excluded.sha256, content_type = excluded.content_type, updated_at = excluded.updated_at`);
    this.find = ctx.db.prepare('SELECT key, size, sha256, content_type FROM blobs WHERE key = ?');
    this.remove = ctx.db.prepare('DELETE FROM blobs WHERE key = ?');
    this.older = ctx.db.prepare(`SELECT key FROM blobs WHERE key >= @prefix AND key < @end AND (@suffix = '' OR substr(key, -length(@suffix)) = @suffix)
      AND updated_at < @before ORDER BY key LIMIT @limit`);
  }

  static async prepareDirs(blobDir: string, tmpDir: string, now: Date): Promise<void> {
    await mkdir(blobDir, { recursive: true, mode: 0o700 });
    await mkdir(tmpDir, { recursive: true, mode: 0o700 });
    for (const name of await readdir(tmpDir)) {
      const path = join(tmpDir, name);
      const info = await stat(path).catch(() => null);
      if (info && now.getTime() - info.mtimeMs > ORPHAN_TEMP_AGE_MS) await rm(path, { force: true });
    }
  }

  private pathOf(key: string): string {
    return join(this.blobDir, ...checkBlobKey(key).split('/'));
  }

  async put(key: string, data: BlobData, opts: { contentType?: string; maxBytes?: number } = {}): Promise<BlobInfo> {
    const target = this.pathOf(key);
    const temp = join(this.tmpDir, `${randomBytes(12).toString('hex')}.part`);
    const { chunks, measured } = measure(data, opts.maxBytes);
    const handle = await open(temp, 'wx').catch((err: unknown) => { throw asDiskFull(err); });
    let writtenSize: number;
    try {
      for await (const chunk of chunks) await writeFully(handle, chunk);
      await handle.sync();
      // the size the file system kept, after the sync: the bytes were hashed as they were written, so
      // reading the file back (from the page cache) would only repeat that work
      writtenSize = (await handle.stat()).size;
    } catch (err) {
      await handle.close();
      await rm(temp, { force: true });
      throw asDiskFull(err);
    }
    await handle.close();
    const { size, sha256 } = measured();
    if (writtenSize !== size) {
      await rm(temp, { force: true });
      throw new StoreError('insufficient_storage', `the blob was stored short (${writtenSize} of ${size} bytes): the disk is full or failing`);
    }
    try {
      await mkdir(dirname(target), { recursive: true });
      await rename(temp, target);
    } catch (err) {
      await rm(temp, { force: true });
      throw asDiskFull(err);
    }
    const contentType = opts.contentType ?? null;
    const now = this.ctx.now().toISOString();
    try {
      await this.ctx.write(() => this.upsert.run({ key, size, sha256, contentType, now }));
    } catch (err) {
      // the database may fill where the file fitted: no row, so no file either (never acknowledged)
      await rm(target, { force: true });
      throw asDiskFull(err);
    }
    return { key, size, sha256, contentType };
  }

  async get(key: string): Promise<Buffer | null> {
    try {
      return await readFile(this.pathOf(key));
    } catch (err) {
      if (isNotFound(err)) return null;
      throw err;
    }
  }

  async stream(key: string): Promise<Readable | null> {
    const path = this.pathOf(key);
    // Open first so that a missing blob is null here, not an error event later.
    try {
      const handle = await open(path, 'r');
      return handle.createReadStream();
    } catch (err) {
      if (isNotFound(err)) return null;
      throw err;
    }
  }

  async stat(key: string): Promise<BlobInfo | null> {
    const path = this.pathOf(key);
    const info = await stat(path).catch((err: unknown) => { if (isNotFound(err)) return null; throw err; });
    if (!info) return null;
    const row = this.find.get(key) as BlobRow | undefined;
    if (row && row.size === info.size) return { key, size: row.size, sha256: row.sha256, contentType: row.content_type };
    // The file was renamed into place but the process died before its row was written.
    const bytes = await readFile(path);
    const { chunks, measured } = measure(bytes, undefined);
    for await (const _ of chunks) { /* hashing */ }
    return { key, size: measured().size, sha256: measured().sha256, contentType: null };
  }

  async exists(key: string): Promise<boolean> {
    return (await stat(this.pathOf(key)).catch(() => null))?.isFile() ?? false;
  }

  async listOlder(opts: { prefix: string; suffix?: string; olderThanMs: number; limit: number }): Promise<string[]> {
    const limit = checkBlobListLimit(opts.limit);
    const before = new Date(this.ctx.now().getTime() - opts.olderThanMs).toISOString();
    const rows = this.older.all({ prefix: opts.prefix, end: `${opts.prefix}\uffff`, suffix: opts.suffix ?? '', before, limit }) as Array<{ key: string }>;
    return rows.map((r) => r.key);
  }

  async sweep(olderThanMs: number): Promise<{ partial: number; unrecorded: number }> {
    const before = this.ctx.now().getTime() - olderThanMs;
    const old = async (path: string): Promise<boolean> => ((await stat(path).catch(() => null))?.mtimeMs ?? Infinity) < before;
    let partial = 0;
    for (const name of await readdir(this.tmpDir)) {
      const path = join(this.tmpDir, name);
      if (await old(path)) { await rm(path, { force: true }); partial++; }
    }
    let unrecorded = 0;
    for (const entry of await readdir(this.blobDir, { recursive: true, withFileTypes: true })) {
      if (!entry.isFile()) continue;
      const path = join(entry.parentPath, entry.name);
      const key = relative(this.blobDir, path).split(sep).join('/');
      if (this.find.get(key) || !(await old(path))) continue;
      await rm(path, { force: true });
      unrecorded++;
    }
    return { partial, unrecorded };
  }

  async delete(key: string): Promise<boolean> {
    const path = this.pathOf(key);
    await this.ctx.write(() => this.remove.run(key));
    try {
      await unlink(path);
      return true;
    } catch (err) {
      if (isNotFound(err)) return false;
      throw err;
    }
  }
}
