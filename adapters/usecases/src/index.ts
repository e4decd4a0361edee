// @kerf/usecases: every operation a user can do, once. Each use case takes a Caller and an input
// checked against its schema (./schemas.ts); REST, the web site, MCP and the CLI only translate.
import type { JobKindHandlers } from './jobs.ts';
import { analysisJob, FILE_QUOTE_JOB } from './analysis-job.ts';
import { ANALYZE_JOB } from './designs.ts';
import { PRODUCTION_FILES_JOB, productionFilesJob } from './dfm.ts';
import { fileQuoteJob } from './quotes.ts';
import { WEBHOOK_DELIVERY_JOB, webhookDeliveryJob } from './webhooks/delivery.ts';
import { PAYMENT_RECONCILE_JOB, paymentReconcileJob } from './pay.ts';
import { DROPSHIP_RECONCILE_JOB, dropshipReconcileJob } from './dropship/create.ts';

// the ports the service plugs in, and what runs against them
export type { EngineContext, UseCaseContext, Logger } from './context.ts';
export type { EngineApi, EngineFile, AnalysisOutput, AnalyzeRequest, CatalogEntry, CatalogKind, Configuration as EngineConfiguration, DfmOutcome, QuoteOutcome, ProductionFilesPart } from './engine-api.ts';
export type { Links, CatalogName } from './links.ts';
export { UrlSigner, loadSigningSecret, SIGNED_URL_TTL_MS, type DownloadGrant } from './signed-urls.ts';
// resource ids: the store's form, prefix + time + 80 random bits, so an index takes new ids at its
// end (random ids put each new quote on a page of its own in the primary key's index)
export { newId } from '@kerf/store';
export { paymentError, noPaymentMethod, paymentKeyReused, paymentNotRefundable, webhookSignatureInvalid, processorUnavailable, type PaymentProcessor, type Payment, type PaymentStatus, type PaymentAccount, type ChargeRequest, type SavedCard, type SavedCardState, type Refund, type RefundRequest, type RefundStatus, type PaymentListener } from './payments.ts';
export { JobWorker, RetryJobLater, type JobWorkerOptions, type JobKindHandlers, type FinalFailure } from './jobs.ts';
export type { WebhookSender, WebhookRequest, WebhookOutcome } from './webhooks/sender.ts';

// callers, errors, input schemas
export { SCOPES, authenticate, apiKeyCaller, localCaller, requireScope, requireAccountOwner, type Caller, type CallerVia, type Scope } from './caller.ts';
export { parseBearer } from './caller.ts';
export { OAUTH_OWNER, GRANT_BOUND_MODELS, oauthCollection, oauthDocId, oauthOwner, isLive, findOAuthRecord, revokeGrantRecords, oauthCaller, type OAuthRecord } from './oauth-records.ts';
export { DEVICE_POLLS_COLLECTION, EXPIRED_DEVICE_CODE_GRACE_MS, noteClientGrant } from './oauth-records.ts';
export { UseCaseError, internalError, notFound, type ErrorKind, type ErrorType, type UseCaseErrorOptions } from './errors.ts';
export { ERROR_CODES, type ErrorCodeDoc } from './error-codes.ts';
export { validateInput, validationError, makeAjv, type ValidationIssue } from './validation.ts';
export * as schemas from './schemas.ts';

// the use cases
export { analyzeDesign, getDesign, waitForDesign, MAX_WAIT_SECONDS, type AnalyzeInput } from './designs.ts';
export { getDesignModelUrl, getDesignImageUrl, getPartModelUrl, getPartStepUrl, getPartImageUrl, openDownload, contentTypeOf, designFileNames } from './files.ts';
export { createDfmReport, getDfmReport, getDfmPartImageUrl, getProductionFileUrl } from './dfm.ts';
export { createQuote, createFileQuote, getQuote, waitForQuote, type FileQuoteInput } from './quotes.ts';
export { createReviewLink, getReviewLink, getReviewPage, saveReviewConfiguration, type ReviewPage } from './review-links.ts';
export { listCatalog, searchCatalog, getHardwareModelUrl, type ListEnvelope } from './catalogs.ts';
export { checkFile, quoteFile, type CheckFileInput, type QuoteFileInput } from './file-checks.ts';
export {
  createWebhookEndpoint, listWebhookEndpoints, getWebhookEndpoint, deleteWebhookEndpoint, rollWebhookSecret, listWebhookDeliveries,
  type EndpointView, type EndpointWithSecret,
} from './webhooks/endpoints.ts';
export { listConnections, revokeConnection, consentedScopes, type Connection, type ConsentPort, type ConsentRequest } from './connections.ts';
export { createPasswordAccount, setPassword, signIn, signOut, sessionCaller, hashPassword, verifyPassword, SESSION_TTL_MS, SIGN_IN_LIMITS } from './web-accounts.ts';
export { EVENT_TYPES, newEvent, emitEvent, relayEvents, EventRelay, type EventType, type EventBody, type EventRelayOptions } from './webhooks/events.ts';
export { getAccount, startCardSetup, removeSavedCard, type AccountView } from './account.ts';
export { createCart, createCartFromQuote, getCart, updateCart, getCartByToken, type CartDoc, type CartPayment, type CartTotals } from './carts.ts';
export { payCart, settleCart, paymentUpdated, PAYMENT_RECONCILE_JOB, DEFAULT_RECONCILE_AFTER_MS, type PayResult } from './pay.ts';
export { chargeKey, newIntent, chargeIntent, lookupIntent, type ChargeIntent } from './charge-once.ts';
export { listOrders, getOrder, adminGetOrder, adminUpdateOrder, requireOperator, type OrderDoc, type OrderStatus, type CommerceContext } from './orders.ts';
export { WEBHOOK_DELIVERY_JOB, RETRY_DELAYS_MS, MAX_DELIVERY_ATTEMPTS, DELIVERY_TIMEOUT_MS, type DeliveryDoc } from './webhooks/delivery.ts';
export { prepareUpload, receiveUpload, getPendingUpload, UPLOAD_TTL_MS, MAX_PREPARED_UPLOAD_BYTES, type PreparedUpload, type PendingUpload, type ReceiveUploadInput } from './uploads.ts';
export { previewDesign, previewDfm, type Preview, type PreviewImage } from './previews.ts';
export { runOnce, type Operation } from './operations.ts';

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
export { listApiKeys, createApiKey, revokeApiKey, type ApiKeyView } from './api-keys.ts';
export { escapeHtml } from './escape-html.ts';
export { partStockChoices, countersinkSize, type PartStockChoices, type StockChoice } from './stock-choices.ts';
export { contentSecurityPolicy, cspHash, type PageSecurityOptions } from './page-security.ts';
export { addressSubject, requestSubject, signedLinkSubject, RateLimiter, boundedRateCounters, DEFAULT_RATE_LIMIT_KEYS, type RateLimit, type RateLimitState } from './rate-limit.ts';
export { spoolUpload, removeSpooled, type SpooledFile, type UploadBytes } from './received-file.ts';
export { spoolDirOf } from './received-file.ts';
export { whileClientWaits, type ClientResponse } from './client-gone.ts';
export { BoundedMap } from '@kerf/store';
