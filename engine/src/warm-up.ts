// `@kerf/engine/warm-up`: a caller that is about to import STEP (the CLI, at process start) starts
// compiling the importer's WASM here, before loading the rest of the engine, so the two overlap.
// Small on purpose: importing it loads only the importer's loader.
export { compileOcct as warmUp } from './import/occt.ts';
