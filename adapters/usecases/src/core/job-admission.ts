// Admission of background work an account's requests cause: analyses, production files and file
// quotes all wait in the shared engine queue, so one account may have only so many of them queued
// or running at once (KERF_MAX_ACTIVE_JOBS_PER_ACCOUNT, counted across those kinds). Beyond that a
// request that would queue more is refused (429, retry later) instead of growing the queue ahead of
// other accounts' work. System jobs (reconciling charges) are never refused: they are not counted and
// run in a lane of their own (JobKindHandlers.system).
import { isStoreError, type JobLimit } from '@kerf/store';
import type { UseCaseContext } from './context.ts';
import { UseCaseError } from './errors.ts';
import { ANALYZE_JOB, FILE_QUOTE_JOB, PRODUCTION_FILES_JOB } from './job-kinds.ts';

/** Jobs of every kind an account may have queued or running unless the service says otherwise. */
export const DEFAULT_MAX_ACTIVE_JOBS_PER_ACCOUNT = 20;
/** What a refused request is told to wait, seconds: about one analysis. */
const ACTIVE_JOBS_RETRY_AFTER_S = 10;

const CUSTOMER_JOB_KINDS = [ANALYZE_JOB, PRODUCTION_FILES_JOB, FILE_QUOTE_JOB];

/**
 * The limit a request's enqueue carries (the store checks it in the same step as the insert, so
 * parallel requests cannot all pass); none for work a running job queues (a file quote's report
 * files), which was admitted with the request that started it.
 */
export function customerJobLimit(ctx: UseCaseContext): JobLimit | undefined {
  if (ctx.admitted) return undefined;
  return { kinds: CUSTOMER_JOB_KINDS, max: ctx.maxActiveJobsPerAccount ?? DEFAULT_MAX_ACTIVE_JOBS_PER_ACCOUNT };
}

function tooManyJobs(ctx: UseCaseContext, what: string): UseCaseError {
  const limit = ctx.maxActiveJobsPerAccount ?? DEFAULT_MAX_ACTIVE_JOBS_PER_ACCOUNT;
  return new UseCaseError('rate_limited', 'rate_limit_error', 'too_many_jobs',
    `This account already has ${limit} jobs (analyses, production files, file quotes) waiting or running; ${what} once some are done.`,
    { retryable: true, retryAfterSeconds: ACTIVE_JOBS_RETRY_AFTER_S });
}

/**
 * Refuses (429 too_many_jobs) when the account already has its limit of customer jobs queued or
 * running: a cheap early refusal before the request stores anything. The enqueue's own limit
 * (customerJobLimit, asOverLimit) is what holds under concurrency.
 */
export async function admitCustomerJob(ctx: UseCaseContext, accountId: string, what: string): Promise<void> {
  const limit = customerJobLimit(ctx);
  if (!limit) return;
  const active = await ctx.store.jobs.countActive(accountId, { kinds: limit.kinds });
  if (active >= limit.max) throw tooManyJobs(ctx, what);
}

/** The store's limit_reached as the 429 the caller reads; any other error as it is. */
export function asOverLimit(ctx: UseCaseContext, err: unknown, what: string): unknown {
  return isStoreError(err, 'limit_reached') ? tooManyJobs(ctx, what) : err;
}
