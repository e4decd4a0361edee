export { checkFile, type CheckFileInput, quoteFile, type QuoteFileInput } from './file-checks.ts';
export { createFileQuote, createQuote, type FileQuoteInput, fileQuoteJob, getQuote, readQuote, storeQuote, waitForQuote } from './quotes.ts';
export { namesSettledReports, toQuote } from './stored-quotes.ts';
export { drawNest, getQuoteNests, MAX_NEST_PICTURES, nestProductionFiles, nestSheetFileName, nestSheetLinks, nestsOfRecord, nestViews, quoteNestHome, viewProductionFiles, type NestFilesHome, type QuoteNestView } from './quote-nests.ts';
export { getDfmNest } from './dfm-nest.ts';
