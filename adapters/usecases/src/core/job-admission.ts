// Admission of background work an account's requests cause: analyses, production files and file
// quotes all wait in the shared engine queue, so one account may have only so many of them queued
// or running at once (KERF_MAX_ACTIVE_JOBS_PER_ACCOUNT, counted across those kinds). Beyond that a
// request that would queue more is refused (429, retry later) instead of growing the queue ahead of
// other accounts' work. System jobs (reconciling charges) are never refused: they are not counted and
// run in a lane of their own (JobKindHandlers.system).
import type { UseCaseContext } from './context.ts';
import { UseCaseError } from './errors.ts';
import { ANALYZE_JOB, FILE_QUOTE_JOB, PRODUCTION_FILES_JOB } from './job-kinds.ts';

/** Jobs of every kind an account may have queued or running unless the service says otherwise. */
export const DEFAULT_MAX_ACTIVE_JOBS_PER_ACCOUNT = 20;
/** What a refused request is told to wait, seconds: about one analysis. */
const ACTIVE_JOBS_RETRY_AFTER_S = 10;

/**
 * Refuses (429 too_many_jobs) when the account already has its limit of customer jobs queued or
 * running. `what` names the work in the message. Work a running job queues (a file quote's report
 * files) was admitted with the request that started it and is not checked again.
 */
export async function admitCustomerJob(ctx: UseCaseContext, accountId: string, what: string): Promise<void> {
  if (ctx.admitted) return;
  const limit = ctx.maxActiveJobsPerAccount ?? DEFAULT_MAX_ACTIVE_JOBS_PER_ACCOUNT;
  // the kinds customer requests queue
  const active = await ctx.store.jobs.countActive(accountId, { kinds: [ANALYZE_JOB, PRODUCTION_FILES_JOB, FILE_QUOTE_JOB] });
  if (active < limit) return;
  throw new UseCaseError('rate_limited', 'rate_limit_error', 'too_many_jobs',
    `This account already has ${limit} jobs (analyses, production files, file quotes) waiting or running; ${what} once some are done.`,
    { retryable: true, retryAfterSeconds: ACTIVE_JOBS_RETRY_AFTER_S });
}
