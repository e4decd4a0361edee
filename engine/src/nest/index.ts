// True-shape nesting of flats onto stock sheets (docs/nesting.md).
export { nest, NEST_CELL_MM, NEST_DEFAULT_EVALUATIONS, NEST_DEFAULT_ROTATIONS } from './nest.ts';
export type { NestItem, NestRequest, NestResult, NestSheet, NestFinding, Placement } from './nest.ts';
export { outlineArea, rotateOutline, type Outline, type Point } from './raster.ts';
export { partOutline } from './part-outline.ts';
export { nestSheetDxf, nestSheetSvg, NEST_LAYER_SHEET, NEST_LAYER_CUT, NEST_LAYER_IDS } from './files.ts';
