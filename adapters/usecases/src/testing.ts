// @kerf/usecases/testing: where the use cases keep things in the store, for end-to-end tests that
// plant a crashed job or look for a cached analysis. Not for production code.
export { ANALYZE_JOB, sourceKey } from './designs.ts';
export { materialFlatKey } from './material-flats.ts';
