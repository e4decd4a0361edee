// Public surface of @kerf/engine: a plain list of re-exports.
export * from './contract.ts';
export type * from './geometry/model.ts';
export { analyze, analyzeModel, K_FACTOR_MIN, K_FACTOR_MAX } from './analyze.ts';
export type { AnalyzeOptions, AnalyzedModel, AnalyzedPart, AnalyzedInstance, PartAnalysis, PlacedSheetAnalysis } from './analyze.ts';
export { importStep, importStepDetailed, assertStepBytes, assertStepEnds, STEP_SNIFF_BYTES } from './import/index.ts';
// the bare OCCT read with the engine's parameters: the bench's baseline for what analysis adds
export { loadOcct, IMPORT_PARAMS } from './import/index.ts';
// a STEP string as a person reads it (escapes, raw Windows-1251/UTF-8 names): for matching parts by name
export { decodeStepName } from './import/step-string.ts';
export { buildSolid } from './geometry/topology.ts';
export { groupInstances, matchSolids } from './parts/instances.ts';
export { recognizeSheet } from './sheet/index.ts';
export { flangeLengths } from './sheet/flange.ts';
export { recognizeTube } from './tube/index.ts';
export { hardwareFromName, hardwareFromShape, recognizeBoughtIn, HARDWARE_KINDS, type HardwareKind, type NameMatch, type ShapeMatch, type BoughtInRecognition } from './hardware/index.ts';
export { flatToDxf } from './dxf/index.ts';
export * from './catalog/index.ts';
export * from './dfm/index.ts';
export * from './pricing/index.ts';
export * from './nest/index.ts';
export { createEngine } from './pool/index.ts';
export type { Engine, EngineOptions, EngineStats } from './pool/index.ts';
export { analyzeWithFiles, generateProductionFiles, productionFilesForModel, writeProductionFiles, safeFolderName, fileNameOf } from './files/index.ts';
export type { ProductionFiles, ProductionFileOptions, GenerateOptions, FileKind } from './files/index.ts';
export { designFile, designFileOf, isDesignFileName } from './design-files.ts';
export type { DesignFileOptions } from './design-files.ts';
export { dfmImage, dfmImageOf, dfmImages, dfmImageSvg } from './dfm/image.ts';
export type { DfmImageOptions, DfmImagePart, DfmImagesOptions } from './dfm/image.ts';
