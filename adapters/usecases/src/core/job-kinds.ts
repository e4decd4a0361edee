// The kinds of background job, named once: the modules that enqueue a kind, the handlers that run it
// and the admission check that counts an account's active jobs all read them from here.
export const ANALYZE_JOB = 'analyze_design';
export const PRODUCTION_FILES_JOB = 'production_files';
export const FILE_QUOTE_JOB = 'file_quote';
