export { checkFile, type CheckFileInput, quoteFile, type QuoteFileInput } from './file-checks.ts';
export { createFileQuote, createQuote, type FileQuoteInput, fileQuoteJob, getQuote, type QuoteDoc, readQuote, storeQuote, waitForQuote } from './quotes.ts';
export { toQuote } from './stored-quotes.ts';
