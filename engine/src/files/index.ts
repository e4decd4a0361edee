// Production files: exact STEP, GLB, DXF and images of each part.
export { analyzeWithFiles, generateProductionFiles, productionFilesForModel, type ProductionFiles, type ProductionFileOptions, type GenerateOptions, type ModelPart } from './generate.ts';
export { writeProductionFiles, safeFolderName } from './write.ts';
export { PRODUCTION_KINDS, IMAGE_KINDS, ALL_KINDS, fileNameOf, type FileKind, type ProductionKind, type ImageKind } from './kinds.ts';
export { writeGlb } from './glb.ts';
export { VIEWS, type ViewName } from './views.ts';
