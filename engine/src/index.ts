// Public surface of @kerf/engine: a plain list of re-exports.
export * from './contract.ts';
export type * from './geometry/model.ts';
export { analyze, analyzeModel, K_FACTOR_MIN, K_FACTOR_MAX } from './analyze.ts';
export type { AnalyzeOptions, AnalyzedModel, AnalyzedPart, AnalyzedInstance, PartAnalysis, PlacedSheetAnalysis } from './analyze.ts';
export { importStep, importStepDetailed } from './import/index.ts';
export { buildSolid } from './geometry/topology.ts';
export { groupInstances, matchSolids } from './parts/instances.ts';
export { recognizeSheet } from './sheet/index.ts';
export { flangeLengths } from './sheet/flange.ts';
export { recognizeTube } from './tube/index.ts';
export { flatToDxf } from './dxf/index.ts';
export * from './catalog/index.ts';
export * from './dfm/index.ts';
export * from './pricing/index.ts';
export { createEngine } from './pool/index.ts';
export type { Engine, EngineOptions, EngineStats } from './pool/index.ts';
export { analyzeWithFiles, generateProductionFiles, productionFilesForModel, writeProductionFiles } from './files/index.ts';
export type { ProductionFiles, ProductionFileOptions, GenerateOptions } from './files/index.ts';
