export { analysisJob } from './analysis-job.ts';
export { type DesignResult, type DesignRow, sourceKey, toPublicDesign, toEngineDesign } from './design-view.ts';
export { analyzeDesign, type AnalyzeInput, getDesign, getDesignRow, isSharedReadyRow, MAX_WAIT_SECONDS, requireReadyDesign, submitDesign, waitForDesign } from './designs.ts';
export { designFileNames, getDesignImageUrl, getDesignModelUrl, getPartImageUrl, getPartModelUrl, getPartStepUrl } from './files.ts';
export { removeSpooled, spoolDirOf, type SpooledFile, spoolUpload, sweepSpools, type UploadBytes } from './received-file.ts';
export { newReviewLink } from './review-link-docs.ts';
export { countersinkSize, partStock, partStockChoices, stockChoicesOf, type PartStockChoices, type StockChoice } from './stock-choices.ts';
export { getPendingUpload, MAX_PREPARED_UPLOAD_BYTES, type PendingUpload, type PreparedUpload, prepareUpload, receiveUpload, type ReceiveUploadInput, UPLOAD_TTL_MS } from './uploads.ts';
