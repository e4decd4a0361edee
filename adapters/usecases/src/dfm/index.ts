export { computeDfm, createDfmReport, getDfmDoc, getDfmPartImageUrl, getDfmReport, getProductionFileUrl, productionFilesJob, storeDfmReport } from './dfm.ts';
export { designForConfiguration, materialFlatKey } from './material-flats.ts';
export { EngineMemo, isSettledReport, jsonPayload, kMapKey, readReport, reuseDfmReport, sharedParts } from './quote-cache.ts';
export { type Preview, previewDesign, previewDfm, type PreviewImage } from './previews.ts';
export { createReviewLink, getReviewLink, getReviewPage, type ReviewPage, saveReviewConfiguration } from './review-links.ts';
export { bendStepPictures, getBendStepImageUrl, type BendStepPicture } from './bend-steps.ts';
