// Blobs on MongoDB GridFS. GridFS writes the files document only after the last chunk, and a blob
// counts as stored only once its sha256 is recorded in that document; the newest such file of a
// key is the blob, and older versions are deleted after the new one is complete. A crash mid-put
// leaves orphan chunks, never a visible half blob.
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import { GridFSBucket, type Document } from 'mongodb';
import { measure } from '../common/blobData.ts';
import { checkBlobKey, checkBlobListLimit } from '../common/validate.ts';
import type { BlobData, BlobInfo, BlobStore } from '../port.ts';
import type { MongoContext } from './context.ts';
import { BLOB_BUCKET } from './indexes.ts';

const COMPLETE = { 'metadata.sha256': { $type: 'string' } };

export class GridFsBlobs implements BlobStore {
  private readonly bucket: GridFSBucket;
  constructor(private readonly ctx: MongoContext) {
    this.bucket = new GridFSBucket(ctx.db, { bucketName: BLOB_BUCKET });
  }

  private async current(key: string): Promise<Document | null> {
    checkBlobKey(key);
    const [file] = await this.bucket.find({ filename: key, ...COMPLETE }).sort({ uploadDate: -1, _id: -1 }).limit(1).toArray();
    return file ?? null;
  }

  async put(key: string, data: BlobData, opts: { contentType?: string; maxBytes?: number } = {}): Promise<BlobInfo> {
    checkBlobKey(key);
    const { chunks, measured } = measure(data, opts.maxBytes);
    const upload = this.bucket.openUploadStream(key, { metadata: { contentType: opts.contentType ?? null } });
    try {
      await pipeline(Readable.from(chunks), upload);
    } catch (err) {
      await upload.abort().catch(() => { /* already cleaned up or never started */ });
      throw err;
    }
    const { size, sha256 } = measured();
    const files = this.ctx.db.collection(`${BLOB_BUCKET}.files`);
    const mine = await files.findOneAndUpdate({ _id: upload.id }, { $set: { 'metadata.sha256': sha256, 'metadata.storedAt': this.ctx.now() } }, { returnDocument: 'after' });
    // Only versions uploaded before this one: a concurrent later put of the same key wins.
    const older = await this.bucket.find({ filename: key, _id: { $ne: upload.id }, uploadDate: { $lte: mine?.uploadDate ?? new Date() } }).toArray();
    for (const f of older) await this.bucket.delete(f._id).catch(() => { /* deleted concurrently */ });
    return { key, size, sha256, contentType: opts.contentType ?? null };
  }

  async get(key: string): Promise<Buffer | null> {
    const s = await this.stream(key);
    if (!s) return null;
    const parts: Buffer[] = [];
    for await (const c of s) parts.push(Buffer.from(c as Uint8Array));
    return Buffer.concat(parts);
  }

  async stream(key: string): Promise<Readable | null> {
    const file = await this.current(key);
    return file ? this.bucket.openDownloadStream(file._id) : null;
  }

  async stat(key: string): Promise<BlobInfo | null> {
    const file = await this.current(key);
    return file ? { key, size: file.length, sha256: file.metadata.sha256, contentType: file.metadata.contentType ?? null } : null;
  }

  async exists(key: string): Promise<boolean> {
    return (await this.current(key)) !== null;
  }

  async delete(key: string): Promise<boolean> {
    checkBlobKey(key);
    const files = await this.bucket.find({ filename: key }).toArray();
    let deleted = false;
    for (const f of files) {
      try {
        await this.bucket.delete(f._id);
        deleted = deleted || f.metadata?.sha256 !== undefined;
      } catch { /* deleted concurrently */ }
    }
    return deleted;
  }

  async listOlder(opts: { prefix: string; suffix?: string; olderThanMs: number; limit: number }): Promise<string[]> {
    const limit = checkBlobListLimit(opts.limit);
    const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const before = new Date(this.ctx.now().getTime() - opts.olderThanMs);
    // storedAt is the store's clock (uploadDate the driver's); blobs stored before it existed have only uploadDate
    const old = { $or: [{ 'metadata.storedAt': { $lt: before } }, { 'metadata.storedAt': { $exists: false }, uploadDate: { $lt: before } }] };
    const docs = await this.bucket.find({ filename: { $regex: `^${escape(opts.prefix)}.*${escape(opts.suffix ?? '')}$` }, ...old, ...COMPLETE })
      .sort({ filename: 1 }).limit(limit).toArray();
    return [...new Set(docs.map((d) => String(d.filename)))];
  }

  /**
   * Chunks without a file document (GridFS writes it after the last chunk) are partial uploads; a
   * file document without its sha256 is a put that never recorded its result. Either, older than
   * the limit, is removed.
   */
  async sweep(olderThanMs: number): Promise<{ partial: number; unrecorded: number }> {
    const before = new Date(this.ctx.now().getTime() - olderThanMs);
    const chunks = this.ctx.db.collection(`${BLOB_BUCKET}.chunks`);
    const files = this.ctx.db.collection(`${BLOB_BUCKET}.files`);
    let partial = 0;
    const uploads = await chunks.aggregate([{ $group: { _id: '$files_id' } }]).toArray();
    for (const { _id: id } of uploads) {
      // ObjectIds carry their creation time: only uploads started before the limit
      const started = (id as { getTimestamp?: () => Date }).getTimestamp?.();
      if (!started || started >= before || (await files.countDocuments({ _id: id }, { limit: 1 })) > 0) continue;
      await chunks.deleteMany({ files_id: id });
      partial++;
    }
    let unrecorded = 0;
    for (const f of await files.find({ 'metadata.sha256': { $not: { $type: 'string' } }, uploadDate: { $lt: before } }).toArray()) {
      await this.bucket.delete(f._id).catch(() => { /* removed meanwhile */ });
      unrecorded++;
    }
    return { partial, unrecorded };
  }
}
