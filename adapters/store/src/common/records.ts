// Input checks for records both stores write, so both refuse the same malformed input.
import { StoreError, type DesignError, type DesignStatus, type JobLimit, type NewDesign, type NewJob } from '../port.ts';
import { DEFAULT_MAX_ATTEMPTS } from './constants.ts';
import { checkBlobKey, checkNonEmpty } from './validate.ts';

const DESIGN_STATUSES: readonly DesignStatus[] = ['queued', 'processing', 'ready', 'failed'];
const SHA256_HEX = /^[0-9a-f]{64}$/;
const MAX_ATTEMPTS_LIMIT = 100;

export function checkDesignStatuses(from: DesignStatus | DesignStatus[], param = 'from'): DesignStatus[] {
  const list = Array.isArray(from) ? from : [from];
  if (list.length === 0 || list.some((s) => !DESIGN_STATUSES.includes(s))) {
    throw new StoreError('invalid_argument', `${param} must be design statuses (${DESIGN_STATUSES.join(', ')})`, param);
  }
  return list;
}

export function checkNewDesign(input: NewDesign): Required<Omit<NewDesign, 'id' | 'job'>> & Pick<NewDesign, 'id' | 'job'> {
  if (!input || typeof input !== 'object') throw new StoreError('invalid_argument', 'design input must be an object', 'design');
  if (input.id !== undefined) checkNonEmpty(input.id, 'id', 100);
  checkNonEmpty(input.name, 'name', 1000);
  checkBlobKey(input.sourceBlobKey);
  if (!Number.isSafeInteger(input.sourceSize) || input.sourceSize < 0) {
    throw new StoreError('invalid_argument', 'sourceSize must be a non-negative integer', 'sourceSize');
  }
  if (typeof input.sourceSha256 !== 'string' || !SHA256_HEX.test(input.sourceSha256)) {
    throw new StoreError('invalid_argument', 'sourceSha256 must be 64 lower-case hex characters', 'sourceSha256');
  }
  const options = input.options ?? {};
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw new StoreError('invalid_argument', 'options must be an object', 'options');
  }
  return { id: input.id, name: input.name, sourceBlobKey: input.sourceBlobKey, sourceSize: input.sourceSize, sourceSha256: input.sourceSha256, options, job: input.job };
}

export function checkDesignError(error: DesignError | null | undefined, param = 'error'): void {
  if (error === null || error === undefined) return;
  if (typeof error !== 'object' || typeof error.code !== 'string' || typeof error.message !== 'string') {
    throw new StoreError('invalid_argument', `${param} must be {code, message} strings`, param);
  }
}

export interface CheckedJob {
  kind: string;
  resourceId: string;
  accountId: string;
  payload: unknown;
  maxAttempts: number;
  delayMs: number;
  limit: JobLimit | null;
}

function checkJobLimit(limit: JobLimit | undefined): JobLimit | null {
  if (limit === undefined) return null;
  const kinds = checkKinds(limit?.kinds);
  if (!kinds || kinds.length === 0) throw new StoreError('invalid_argument', 'limit.kinds must name at least one kind', 'limit.kinds');
  if (!Number.isSafeInteger(limit.max) || limit.max < 1) {
    throw new StoreError('invalid_argument', 'limit.max must be a positive integer', 'limit.max');
  }
  return { kinds, max: limit.max };
}

/** The refusal of an enqueue over its limit. */
export function limitReached(limit: JobLimit): StoreError {
  return new StoreError('limit_reached', `the account already has ${limit.max} active jobs of ${limit.kinds.join(', ')}`, 'limit');
}

export function checkNewJob(job: NewJob): CheckedJob {
  if (!job || typeof job !== 'object') throw new StoreError('invalid_argument', 'job must be an object', 'job');
  const maxAttempts = job.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
  if (!Number.isInteger(maxAttempts) || maxAttempts < 1 || maxAttempts > MAX_ATTEMPTS_LIMIT) {
    throw new StoreError('invalid_argument', `maxAttempts must be an integer in 1..${MAX_ATTEMPTS_LIMIT}`, 'maxAttempts');
  }
  const delayMs = job.delayMs ?? 0;
  if (typeof delayMs !== 'number' || !Number.isFinite(delayMs) || delayMs < 0) {
    throw new StoreError('invalid_argument', 'delayMs must be a non-negative number', 'delayMs');
  }
  return {
    kind: checkNonEmpty(job.kind, 'kind', 100),
    resourceId: checkNonEmpty(job.resourceId, 'resourceId', 200),
    accountId: checkNonEmpty(job.accountId, 'accountId', 200),
    payload: job.payload ?? null,
    maxAttempts,
    delayMs,
    limit: checkJobLimit(job.limit),
  };
}

export function checkKinds(kinds: string[] | undefined): string[] | null {
  if (kinds === undefined) return null;
  if (!Array.isArray(kinds) || kinds.some((k) => typeof k !== 'string')) {
    throw new StoreError('invalid_argument', 'kinds must be an array of strings', 'kinds');
  }
  return kinds;
}
