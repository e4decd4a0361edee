// Normalises the BlobData union into a stream of chunks, counting and hashing as it goes, so both
// blob stores enforce maxBytes and report size + sha256 the same way.
import { createHash } from 'node:crypto';
import { StoreError, type BlobData } from '../port.ts';

export interface Measured {
  size: number;
  sha256: string;
}

/** Yields the bytes of `data`; after the last chunk `measured()` returns size and sha256. */
export function measure(data: BlobData, maxBytes: number | undefined): { chunks: AsyncIterable<Uint8Array>; measured: () => Measured } {
  const hash = createHash('sha256');
  let size = 0;
  let digest: string | null = null;
  async function* chunks(): AsyncIterable<Uint8Array> {
    const source: AsyncIterable<unknown> | Iterable<unknown> = data instanceof Uint8Array ? [data] : data;
    for await (const raw of source) {
      const chunk = typeof raw === 'string' ? Buffer.from(raw) : raw;
      if (!(chunk instanceof Uint8Array)) throw new StoreError('invalid_argument', 'blob data must yield bytes', 'data');
      size += chunk.byteLength;
      if (maxBytes !== undefined && size > maxBytes) {
        throw new StoreError('invalid_argument', `blob is larger than ${maxBytes} bytes`, 'size');
      }
      hash.update(chunk);
      yield chunk;
    }
    digest = hash.digest('hex');
  }
  return {
    chunks: chunks(),
    measured: () => {
      if (digest === null) throw new Error('measure(): data not fully consumed');
      return { size, sha256: digest };
    },
  };
}
