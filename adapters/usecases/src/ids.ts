import { pooledRandomBytes } from '@kerf/store';

/** Opaque, unguessable ids with the contract's type prefix. */
export function newId(prefix: string): string {
  return `${prefix}_${pooledRandomBytes(12).toString('base64url').replace(/[-_]/g, (c) => (c === '-' ? 'A' : 'B'))}`;
}
