export { isSettledReport, readReport, storeOrReuseDfmReport } from './dfm-cache.ts';
export { computeDfm, createDfmReport, getDfmPartImageUrl, getDfmReport, getProductionFileUrl, productionFilesJob, storeDfmReport } from './dfm.ts';
export { designForConfiguration, kMapKey, materialFlatKey } from './material-flats.ts';
export { type Preview, previewDesign, previewDfm, type PreviewImage } from './previews.ts';
export { createReviewLink, getReviewLink, getReviewPage, type ReviewPage, saveReviewConfiguration } from './review-links.ts';
