// A full disk never loses an acknowledged blob: a write that stores fewer bytes than it was given is
// written again or refused, and a put is acknowledged only once the file on disk is measured whole.
// The end-to-end case runs on a real 2 MB tmpfs, so it needs permission to mount one (root, as in
// this project's CI container); where mounting is refused it is skipped, and says so.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isStoreError, openStore, type Store } from '../src/index.ts';
import { writeFully } from '../src/sqlite/blobs.ts';

describe('writeFully', () => {
  it('writes the rest again after a short write, and refuses a write that stores nothing', async () => {
    const data = randomBytes(1000);
    const out: Buffer[] = [];
    const short = { async write(buf: Uint8Array, offset: number, length: number) { const n = Math.min(length, 7); out.push(Buffer.from(buf.subarray(offset, offset + n))); return { bytesWritten: n, buffer: buf }; } };
    await writeFully(short as never, data);
    assert.deepEqual(Buffer.concat(out), data);
    const full = { async write(buf: Uint8Array) { return { bytesWritten: 0, buffer: buf }; } };
    await assert.rejects(writeFully(full as never, data), (e: { code?: string }) => e.code === 'ENOSPC');
  });
});

function mountTmpfs(dir: string, size: string): boolean {
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

const dir = mkdtempSync(join(tmpdir(), 'kerf-full-'));
const mounted = mountTmpfs(dir, '2m');

describe('FsBlobs on a full disk (2 MB tmpfs)', { skip: mounted ? false : 'mounting a tmpfs is not permitted here' }, () => {
  let store: Store;
  before(async () => { store = await openStore({ dataDir: join(dir, 'data') }); });
  after(async () => {
    await store?.close();
    try { execFileSync('umount', [dir], { stdio: 'ignore' }); } catch { /* not mounted */ }
    rmSync(dir, { recursive: true, force: true });
  });

  it('every put it acknowledges is on disk whole; the one that does not fit is refused insufficient_storage and leaves no temp file', async () => {
    const kept: Array<{ key: string; sha256: string; size: number }> = [];
    let refused: unknown = null;
    for (let i = 0; i < 40 && !refused; i++) {
      const data = randomBytes(150_000 + i * 1000);
      try {
        const info = await store.blobs.put(`full/${i}`, data);
        assert.equal(info.size, data.byteLength);
        kept.push({ key: info.key, sha256: createHash('sha256').update(data).digest('hex'), size: data.byteLength });
      } catch (err) {
        refused = err;
      }
    }
    assert.ok(refused, 'the disk filled');
    assert.ok(isStoreError(refused, 'insufficient_storage'), String(refused));
    assert.ok(kept.length > 3, `${kept.length} blobs fit`);
    for (const k of kept) {
      const bytes = await store.blobs.get(k.key);
      assert.ok(bytes, k.key);
      assert.equal(bytes.byteLength, k.size, k.key);
      assert.equal(createHash('sha256').update(bytes).digest('hex'), k.sha256, k.key);
    }
    assert.deepEqual(readdirSync(join(dir, 'data', 'tmp')).filter((n) => n.endsWith('.part')), []);
  });
});
