// @kerf/usecases/testing: where the use cases keep things in the store, for end-to-end tests that
// plant a crashed job or look for a cached analysis. Not for production code.
export { ANALYZE_JOB } from './core/index.ts';
export { sourceKey } from './designs/index.ts';
export { materialFlatKey } from './dfm/index.ts';
