// Checks of lease arguments, shared by both stores so both refuse the same input.
import { checkNonEmpty, checkPositiveMs } from './validate.ts';

const MAX_NAME_CHARS = 100;

export function checkLease(name: string, holder: string, ttlMs?: number): { name: string; holder: string; ttlMs: number } {
  return {
    name: checkNonEmpty(name, 'name', MAX_NAME_CHARS),
    holder: checkNonEmpty(holder, 'holder', MAX_NAME_CHARS),
    ttlMs: ttlMs === undefined ? 0 : Math.ceil(checkPositiveMs(ttlMs, 'ttlMs')),
  };
}
