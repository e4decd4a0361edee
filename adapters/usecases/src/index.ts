// @kerf/usecases: what REST, MCP and the CLI do, once.
export * from './errors.ts';
export * from './context.ts';
export * from './engine-api.ts';
export * from './signed-urls.ts';
export * from './designs.ts';
export * from './catalogs.ts';
export * from './files.ts';
export * from './dfm.ts';
export * from './quotes.ts';
export * from './review-links.ts';
export * from './material-flats.ts';
export * from './jobs.ts';
export { analysisJob, FILE_QUOTE_JOB } from './analysis-job.ts';
import type { JobKindHandlers } from './jobs.ts';
import { analysisJob, FILE_QUOTE_JOB } from './analysis-job.ts';
import { ANALYZE_JOB } from './designs.ts';
import { PRODUCTION_FILES_JOB, productionFilesJob } from './dfm.ts';
import { fileQuoteJob } from './quotes.ts';

/** Every job kind the service runs, by kind. */
export const JOB_HANDLERS: Record<string, JobKindHandlers> = {
  [ANALYZE_JOB]: analysisJob,
  [PRODUCTION_FILES_JOB]: productionFilesJob,
  [FILE_QUOTE_JOB]: fileQuoteJob,
};
