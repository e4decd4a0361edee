// @kerf/usecases: every operation a user can do, once. Each use case takes a Caller and an input
// checked against its schema (./schemas.ts); REST, the web site, MCP and the CLI only translate.
import { type JobKindHandlers, ANALYZE_JOB, FILE_QUOTE_JOB, PRODUCTION_FILES_JOB } from './core/index.ts';
import { analysisJob } from './designs/index.ts';
import { productionFilesJob } from './dfm/index.ts';
import { fileQuoteJob } from './quotes/index.ts';
import { WEBHOOK_DELIVERY_JOB, webhookDeliveryJob } from './webhooks/index.ts';
import { PAYMENT_RECONCILE_JOB, paymentReconcileJob } from './commerce/index.ts';
import { DROPSHIP_RECONCILE_JOB, dropshipReconcileJob } from './dropship/index.ts';

// the ports the service plugs in, and what runs against them
export type { EngineContext, UseCaseContext, Logger } from './core/index.ts';
export type { EngineApi, EngineFile, AnalysisOutput, AnalyzeRequest, CatalogEntries, CatalogEntry, CatalogKind, Configuration as EngineConfiguration, DfmOutcome, PartPricesContext, ProductionFilesPart } from './core/index.ts';
export type { Links, CatalogName } from './core/index.ts';
export { QUOTE_CACHING, NO_QUOTE_CACHING, type QuoteCaching } from './core/index.ts';
export { UrlSigner, loadSigningSecret, SIGNED_URL_TTL_MS, type DownloadGrant } from './core/index.ts';
export { paymentError, noPaymentMethod, paymentKeyReused, paymentNotRefundable, webhookSignatureInvalid, processorUnavailable, type PaymentProcessor, type Payment, type PaymentStatus, type PaymentAccount, type ChargeRequest, type SavedCard, type SavedCardState, type Refund, type RefundRequest, type RefundStatus, type PaymentListener } from './core/index.ts';
export { JobWorker, RetryJobLater, type JobWorkerOptions, type JobKindHandlers, type FinalFailure } from './core/index.ts';
export type { WebhookSender, WebhookRequest, WebhookOutcome } from './core/index.ts';

// callers, errors, input schemas
export { authenticate } from './identity/index.ts';
export { SCOPES, OPTIONAL_SCOPES, apiKeyCaller, localCaller, requireScope, requireAccountOwner, type Caller, type CallerVia, type Scope } from './core/index.ts';
export { parseBearer } from './identity/index.ts';
export { OAUTH_OWNER, GRANT_BOUND_MODELS, oauthCollection, oauthDocId, oauthOwner, isLive, findOAuthRecord, revokeGrantRecords, oauthCaller, type OAuthRecord } from './identity/index.ts';
export { DEVICE_POLLS_COLLECTION, EXPIRED_DEVICE_CODE_GRACE_MS, noteClientGrant } from './identity/index.ts';
export { UseCaseError, insufficientStorage, internalError, notFound, type ErrorKind, type ErrorType, type UseCaseErrorOptions } from './core/index.ts';
export { ERROR_CODES, type ErrorCodeDoc } from './core/index.ts';
export { validateInput, validationError, makeAjv, type ValidationIssue } from './core/index.ts';
export { schemas } from './core/index.ts';
// the objects it answers with: schemas of the API's responses (types, OpenAPI, field descriptions)
export { objects } from './core/index.ts';

// the use cases
export { analyzeDesign, getDesign, waitForDesign, MAX_WAIT_SECONDS, type AnalyzeInput } from './designs/index.ts';
export { getDesignModelUrl, getDesignImageUrl, getPartModelUrl, getPartStepUrl, getPartImageUrl, designFileNames } from './designs/index.ts';
export { openDownload, contentTypeOf } from './core/index.ts';
export { bendStepPictures, type BendStepPicture, createDfmReport, getBendStepImageUrl, getDfmReport, getDfmPartImageUrl, getProductionFileUrl } from './dfm/index.ts';
// the quote and DFM caches' in-process engine part: the service's in-process engine keeps its work in one
export { EngineMemo } from './dfm/index.ts';
// a response's JSON with the kept texts of the quote cache spliced in (the REST serializer)
export { jsonPayload } from './dfm/index.ts';
export { createQuote, createFileQuote, getQuote, waitForQuote, type FileQuoteInput } from './quotes/index.ts';
export { getDfmNest, getQuoteNests, type QuoteNestView } from './quotes/index.ts';
export { createReviewLink, getReviewLink, getReviewPage, saveReviewConfiguration, type ReviewPage } from './dfm/index.ts';
export { listCatalog, listPressBrake, searchCatalog, getHardwareModelUrl } from './catalogs/index.ts';
export type { ListEnvelope } from './core/index.ts';
export { checkFile, quoteFile, type CheckFileInput, type QuoteFileInput } from './quotes/index.ts';
export {
  createWebhookEndpoint, listWebhookEndpoints, getWebhookEndpoint, deleteWebhookEndpoint, rollWebhookSecret, listWebhookDeliveries, redeliverWebhookDelivery, redeliverFailedSince, type RedeliverFailedSinceInput,
  type EndpointView, type EndpointWithSecret,
} from './webhooks/index.ts';
export { listConnections, revokeConnection, consentedScopes, type Connection, type ConsentPort, type ConsentRequest } from './identity/index.ts';
export { createPasswordAccount, setPassword, signIn, signOut, sessionCaller, hashPassword, verifyPassword, SESSION_TTL_MS, SIGN_IN_LIMITS } from './identity/index.ts';
export { EVENT_TYPES, newEvent, emitEvent, type EventType, type EventBody } from './core/index.ts';
export { relayEvents, EventRelay, type EventRelayOptions } from './webhooks/index.ts';
export { getAccount, startCardSetup, removeSavedCard, type AccountView } from './commerce/index.ts';
export { createCart, createCartFromQuote, getCart, updateCart, getCartByToken } from './commerce/index.ts';
export { payCart, settleCart, paymentUpdated, PAYMENT_RECONCILE_JOB, DEFAULT_RECONCILE_AFTER_MS, type PayResult } from './commerce/index.ts';
export { chargeKey, newIntent, chargeIntent, lookupIntent, type ChargeIntent } from './commerce/index.ts';
export { listOrders, getOrder, adminGetOrder, adminUpdateOrder, requireOperator, type CommerceContext, getOrderNests, listOrderProductionFiles } from './commerce/index.ts';
export { WEBHOOK_DELIVERY_JOB, RETRY_DELAYS_MS, MAX_DELIVERY_ATTEMPTS, DELIVERY_TIMEOUT_MS, type DeliveryDoc } from './webhooks/index.ts';
export { prepareUpload, receiveUpload, getPendingUpload, UPLOAD_TTL_MS, MAX_PREPARED_UPLOAD_BYTES, type PreparedUpload, type PendingUpload, type ReceiveUploadInput } from './designs/index.ts';
export { previewDesign, previewDfm, type Preview, type PreviewImage } from './dfm/index.ts';
export { runOnce, type Operation } from './core/index.ts';

export { Janitor, JANITOR_RETENTION_MS, JANITOR_INTERVAL_MS } from './janitor.ts';
/** Every job kind the service runs, by kind. */
export const JOB_HANDLERS: Record<string, JobKindHandlers> = {
  [ANALYZE_JOB]: analysisJob,
  [PRODUCTION_FILES_JOB]: productionFilesJob,
  [FILE_QUOTE_JOB]: fileQuoteJob,
  [PAYMENT_RECONCILE_JOB]: paymentReconcileJob,
  [DROPSHIP_RECONCILE_JOB]: dropshipReconcileJob,
};

/** The webhook delivery job, run by a worker of its own (deliveries wait on receivers, not the engine). */
export const WEBHOOK_JOB_HANDLERS: Record<string, JobKindHandlers> = {
  [WEBHOOK_DELIVERY_JOB]: webhookDeliveryJob,
};
export * from './dropship/index.ts';
export { listApiKeys, createApiKey, revokeApiKey, type ApiKeyView } from './identity/index.ts';
export { partStock, partStockChoices, stockChoicesOf, countersinkSize, type PartStockChoices, type StockChoice } from './designs/index.ts';
export { addressSubject, RateLimiter, boundedRateCounters, DEFAULT_RATE_LIMIT_KEYS, type RateLimit, type RateLimitState } from './core/index.ts';
export { spoolUpload, removeSpooled, type SpooledFile, type UploadBytes } from './designs/index.ts';
export { spoolDirOf } from './designs/index.ts';
