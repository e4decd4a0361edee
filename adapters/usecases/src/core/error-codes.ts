// Every error code the service can hand a caller, with what it means and what to do about it: the
// source of the error reference each error's doc_url points to. test/error-docs.test.ts fails when
// the source produces a code that is missing here.
import type { EngineErrorCode } from '@kerf/engine';
import type { ErrorKind, ErrorType } from './errors.ts';

export interface ErrorCodeDoc {
  code: string;
  type: ErrorType;
  /** What went wrong, as transports read it; null when no error response carries this code (a failed resource's `error.code`, or internal). */
  kind: ErrorKind | null;
  retryable: boolean;
  /** What happened. */
  meaning: string;
  /** What the caller should do. */
  action: string;
}

type Entry = Omit<ErrorCodeDoc, 'code'>;

// A failed upload check answers 422 with the engine's code; a failed analysis shows it as the
// design's error.code.
const engine = (meaning: string, action: string, retryable = false): Entry => ({
  type: 'invalid_request_error', kind: 'invalid', retryable,
  meaning: `${meaning} Returned as the error of a rejected upload, or as the error.code of a failed design.`,
  action,
});

const ENGINE_CODES: Record<EngineErrorCode, Entry> = {
  invalid_step: engine('The file is not a readable STEP file: another format (STL, IGES, ZIP), truncated, corrupt, or too large to parse.',
    'Export the part again as STEP (AP203/AP214/AP242) and upload that file; the message names what was wrong.'),
  empty_model: engine('The STEP file holds no closed solid, for example only surfaces or open shells.',
    'Export the solid bodies (not surfaces) from the CAD system and upload again.'),
  unsupported_geometry: engine('A solid has geometry the engine cannot use, such as non-finite coordinates or broken triangles.',
    'Repair or re-export the named solid and upload again.'),
  analysis_timeout: engine('The analysis ran longer than the time limit and was stopped.',
    'Simplify the model or split the assembly; uploading the same file again gives the same result.'),
  analysis_failed: engine('The analysis could not complete: the engine failed on this file, or it crashed on it repeatedly.',
    'Check the model (or split a large assembly) and upload again; if the file is sound, report it with the request_id.'),
  queue_full: {
    type: 'api_error', kind: null, retryable: true,
    meaning: 'The engine had too many jobs waiting. Analyses wait and retry on their own, and a request that meets it is answered with service_unavailable, so callers normally never see this code.',
    action: 'Retry later.',
  },
  invalid_configuration: {
    type: 'invalid_request_error', kind: 'invalid', retryable: false,
    meaning: 'The configuration does not fit the design or the catalog: an unknown material, finish or hardware id, a part id not in the design, or a value out of range.',
    action: 'Correct the field named by `param` (catalog ids come from the /v1 catalog lists) and send the request again.',
  },
};

const CODES: Record<string, Entry> = {
  ...ENGINE_CODES,

  // Authentication
  missing_api_key: { type: 'authentication_error', kind: 'unauthenticated', retryable: false,
    meaning: 'The request carries no API key.', action: 'Send the key as `Authorization: Bearer <key>`.' },
  invalid_authorization_header: { type: 'authentication_error', kind: 'unauthenticated', retryable: false,
    meaning: 'The Authorization header is not of the form `Bearer <key>`.', action: 'Send the key as `Authorization: Bearer <key>`.' },
  invalid_api_key: { type: 'authentication_error', kind: 'unauthenticated', retryable: false,
    meaning: 'The API key is unknown or has been revoked.', action: 'Use a current key; ask the operator for a new one if yours was revoked.' },

  // Malformed requests
  invalid_json: { type: 'invalid_request_error', kind: 'malformed', retryable: false,
    meaning: 'The body (or the JSON-encoded `request` form field) is empty or not valid JSON.', action: 'Send a valid JSON document.' },
  invalid_content_length: { type: 'invalid_request_error', kind: 'malformed', retryable: false,
    meaning: 'The Content-Length header does not match the body sent.', action: 'Let the HTTP client compute Content-Length.' },
  invalid_cursor: { type: 'invalid_request_error', kind: 'malformed', retryable: false,
    meaning: 'The pagination cursor is not one this list returned, or its entry no longer exists.', action: 'Pass `next_cursor` unchanged, or start again without a cursor.' },
  invalid_idempotency_key: { type: 'invalid_request_error', kind: 'malformed', retryable: false,
    meaning: 'The Idempotency-Key header is not 1-255 printable ASCII characters.', action: 'Use a key such as a UUID.' },
  invalid_multipart: { type: 'invalid_request_error', kind: 'malformed', retryable: false,
    meaning: 'The multipart/form-data body cannot be read: no boundary in the Content-Type, a boundary the body does not use, a body cut short, or a part sent twice that the form takes once (a second `file`); `param` names that part.', action: 'Let the HTTP client build the form (it sets the boundary), and send the whole body.' },
  invalid_request: { type: 'invalid_request_error', kind: 'malformed', retryable: false,
    meaning: 'The HTTP layer rejected the request (usually 400; other 4xx statuses for other protocol faults).', action: 'Fix the request as the message says.' },
  route_not_found: { type: 'invalid_request_error', kind: 'not_found', retryable: false,
    meaning: 'No operation exists for this method and path.', action: 'Check the path and method against /v1/openapi.json.' },
  file_too_large: { type: 'invalid_request_error', kind: 'too_large', retryable: false,
    meaning: 'The uploaded file or the request body exceeds the size limit.', action: 'Upload a smaller file; the operator sets the limit (KERF_MAX_UPLOAD_BYTES).' },
  unsupported_media_type: { type: 'invalid_request_error', kind: 'unsupported_media', retryable: false,
    meaning: 'The Content-Type is not one this operation accepts.', action: 'Send application/json, or multipart/form-data where the operation takes a file.' },

  // Validation
  parameter_missing: { type: 'invalid_request_error', kind: 'invalid', retryable: false,
    meaning: 'A required parameter, field or file part is missing; `param` names it.', action: 'Add the parameter and send the request again.' },
  parameter_unknown: { type: 'invalid_request_error', kind: 'invalid', retryable: false,
    meaning: 'The request has a parameter the operation does not define; `param` names it.', action: 'Remove it (check its spelling).' },
  parameter_invalid: { type: 'invalid_request_error', kind: 'invalid', retryable: false,
    meaning: 'A parameter has the wrong type or value; `param` names it and `details.issues` lists every problem found.', action: 'Correct the value and send the request again.' },
  design_not_ready: { type: 'invalid_request_error', kind: 'invalid', retryable: true,
    meaning: 'The design is still being analyzed.', action: "Poll the design's status_url until it is ready, then send the request again." },
  design_failed: { type: 'invalid_request_error', kind: 'invalid', retryable: false,
    meaning: 'The design failed analysis, so it cannot be checked or quoted; its error.code says why.', action: 'Upload a corrected file and use the new design.' },
  dfm_design_mismatch: { type: 'invalid_request_error', kind: 'invalid', retryable: false,
    meaning: 'The DFM report given belongs to another design.', action: "Pass the design_id of the DFM report, or a DFM report of this design." },
  too_many_endpoints: { type: 'invalid_request_error', kind: 'invalid', retryable: false,
    meaning: 'The account already has the most active webhook endpoints it may have (16 per API).', action: 'Delete an endpoint you no longer use, or subscribe one endpoint to more events.' },
  invalid_webhook_url: { type: 'invalid_request_error', kind: 'invalid', retryable: false,
    meaning: 'The webhook endpoint URL cannot receive deliveries: not an absolute URL, not https, or a private, loopback, link-local or cloud metadata address.', action: 'Use a public https URL of your receiver.' },

  // Not found and permissions
  resource_missing: { type: 'not_found_error', kind: 'not_found', retryable: false,
    meaning: 'No resource with that id exists for this account; `param` names the id.', action: 'Check the id; resources of other accounts are not visible.' },
  file_unavailable: { type: 'not_found_error', kind: 'not_found', retryable: false,
    meaning: 'The file asked for does not exist for this resource: a part without a flat pattern, a file kind that does not apply, or a stored file that is gone.', action: 'Read the message; ask for a file kind that applies to the part, or upload the design again.' },
  insufficient_scope: { type: 'permission_error', kind: 'forbidden', retryable: false,
    meaning: 'The credential (an OAuth token) was not granted the scope this operation needs; `details.required_scope` names it.', action: 'Reconnect and grant the scope, or use a credential that has it.' },
  invalid_credentials: { type: 'authentication_error', kind: 'unauthenticated', retryable: false,
    meaning: 'Sign-in on the web site: the email or password is not right.', action: 'Check both and try again; after several failures sign-in pauses for a while.' },
  too_many_sign_in_attempts: { type: 'rate_limit_error', kind: 'rate_limited', retryable: true,
    meaning: 'Sign-in on the web site: too many failed attempts for this email or from this address.', action: 'Wait for the time given (Retry-After) and try again.' },
  email_taken: { type: 'invalid_request_error', kind: 'invalid', retryable: false,
    meaning: 'Sign-up: an account with this email exists.', action: 'Sign in with it, or use another email.' },
  agent_not_allowed: { type: 'permission_error', kind: 'forbidden', retryable: false,
    meaning: 'Agent credentials (OAuth access tokens) cannot manage API keys, saved cards, web sessions or connections.', action: 'Do this on the account page of the web site, or with an API key.' },
  link_expired: { type: 'permission_error', kind: 'forbidden', retryable: false,
    meaning: 'The signed download link has expired.', action: 'Request the file again through the API for a fresh link.' },
  invalid_signature: { type: 'permission_error', kind: 'forbidden', retryable: false,
    meaning: 'The signed download link was altered or was not issued by this service.', action: 'Use the link exactly as the API returned it, or request a fresh one.' },

  // Conflicts
  idempotency_key_reused: { type: 'idempotency_error', kind: 'conflict', retryable: false,
    meaning: 'The Idempotency-Key was already used with a different request.', action: 'Use a new key for a new request; reuse a key only to retry the identical request.' },
  idempotency_key_in_use: { type: 'idempotency_error', kind: 'conflict', retryable: true,
    meaning: 'The first request with this Idempotency-Key is still running.', action: 'Wait for Retry-After and retry with the same key to get its response.' },
  delivery_not_failed: { type: 'invalid_request_error', kind: 'conflict', retryable: false,
    meaning: 'Only a delivery that ended failed (its attempts used up) can be sent again; this one succeeded, is still being retried, or was abandoned.', action: 'Read the endpoint\'s deliveries: redeliver the last attempt of a delivery whose status is `failed` and `next_attempt_at` null.' },
  webhook_endpoint_changed: { type: 'invalid_request_error', kind: 'conflict', retryable: true,
    meaning: 'The webhook endpoint changed while its secret was being rolled (another roll or a delete).', action: 'Read the endpoint again and retry the roll if it still exists.' },
  review_link_expired: { type: 'invalid_request_error', kind: 'conflict', retryable: false,
    meaning: 'The review link has expired; its configuration can no longer be saved.', action: 'Ask for a new review link.' },
  review_link_changed: { type: 'invalid_request_error', kind: 'conflict', retryable: true,
    meaning: 'Someone else saved the review configuration meanwhile.', action: 'Reload the review page and make the change again.' },

  // Payments (the PaymentProcessor port, adapters/usecases/src/core/payments.ts)
  card_declined: { type: 'payment_error', kind: 'payment_required', retryable: false,
    meaning: 'The off-session charge of the card on file was declined; the message carries the processor\'s decline reason (details.decline_code). Nothing was created.', action: 'Ask the customer to save another card (payment_method_setup_url), then pay again with a new Idempotency-Key.' },
  payment_not_completed: { type: 'payment_error', kind: 'payment_required', retryable: false,
    meaning: 'The payment cannot complete off-session, for example because the card needs the customer to authenticate. Nothing was created.', action: 'Ask the customer to update the saved card (payment_method_setup_url), then pay again.' },
  no_payment_method: { type: 'payment_error', kind: 'conflict', retryable: false,
    meaning: 'The account has no card on file to charge.', action: 'Save a card at the payment_method_setup_url of GET /v1/account, then send the request again.' },
  payment_not_refundable: { type: 'payment_error', kind: 'conflict', retryable: false,
    meaning: 'The payment cannot be refunded as asked: it did not succeed (yet), or the amount exceeds what is left to refund.', action: 'Check the payment status and the amount already refunded.' },
  webhook_signature_invalid: { type: 'invalid_request_error', kind: 'malformed', retryable: false,
    meaning: 'A payment processor webhook arrived without a valid signature (wrong secret, altered body or too old).', action: 'Check STRIPE_WEBHOOK_SECRET against the endpoint secret the processor shows.' },
  payment_processor_unavailable: { type: 'api_error', kind: 'unavailable', retryable: true,
    meaning: 'The payment processor could not be reached or answered with an error; no charge is made twice.', action: 'Wait for Retry-After and retry with the same Idempotency-Key.' },

  // Prepared uploads (MCP prepare_upload, then an HTTP PUT of the bytes)
  unsupported_file_type: { type: 'invalid_request_error', kind: 'invalid', retryable: false,
    meaning: 'The file name given to prepare_upload is not a STEP file name (.step or .stp).', action: 'Export the part as STEP and prepare the upload with its base name.' },
  upload_expired: { type: 'permission_error', kind: 'forbidden', retryable: false,
    meaning: 'The upload link is older than 15 minutes.', action: 'Call prepare_upload again (with a new operation_key) and PUT the file to the new upload_url.' },
  upload_already_received: { type: 'invalid_request_error', kind: 'conflict', retryable: false,
    meaning: 'The design of this upload link already has its file; another file cannot replace it.', action: 'Call prepare_upload again to upload a different file as a new design.' },
  upload_size_mismatch: { type: 'invalid_request_error', kind: 'invalid', retryable: false,
    meaning: 'The uploaded bytes are not the size_bytes announced to prepare_upload.', action: 'Send the whole file unchanged, or prepare the upload again with its real size.' },
  upload_checksum_mismatch: { type: 'invalid_request_error', kind: 'invalid', retryable: false,
    meaning: 'The SHA-256 of the uploaded bytes is not the sha256 announced to prepare_upload.', action: 'Send the file unchanged (binary, not transcoded), or prepare the upload again with its real digest.' },

  // Carts and orders
  unsupported_country: { type: 'invalid_request_error', kind: 'invalid', retryable: false,
    meaning: 'The ship_to country is not US: carts and orders ship within the US only.', action: 'Use a US address (country "US").' },
  unknown_shipping_option: { type: 'invalid_request_error', kind: 'invalid', retryable: false,
    meaning: "The shipping_option_id is not one of the cart's quote.fulfillment.shipping_options (or the cart has no ship_to yet, so no options).", action: 'Set ship_to, then pick an id from quote.fulfillment.shipping_options.' },
  quote_not_ready: { type: 'invalid_request_error', kind: 'invalid', retryable: false,
    meaning: 'The quote is still processing, failed or expired, so no cart can be made from it.', action: 'Wait for the quote to be priced, or quote the items again.' },
  cart_not_ready: { type: 'invalid_request_error', kind: 'conflict', retryable: false,
    meaning: 'The cart cannot be paid yet: no ship_to, no shipping option selected, a quote that is not ready, or no calculated tax; `param` names what is missing.', action: 'PATCH the cart with what `param` names, then pay again.' },
  cart_checked_out: { type: 'invalid_request_error', kind: 'conflict', retryable: false,
    meaning: 'The cart is already paid and checked out (details.order_id); it cannot change or be paid again.', action: 'Read the order; create a new cart for a new purchase.' },
  cart_expired: { type: 'invalid_request_error', kind: 'conflict', retryable: false,
    meaning: "The cart's quote expired, so the cart can no longer change or be paid.", action: 'Create a new cart from the same items.' },
  payment_in_progress: { type: 'invalid_request_error', kind: 'conflict', retryable: true,
    meaning: 'A payment of this cart is under way under another Idempotency-Key (or the cart changed while it was charged).', action: 'Retry the first pay request with its own Idempotency-Key, or GET the cart until payment.status settles.' },
  operator_required: { type: 'permission_error', kind: 'forbidden', retryable: false,
    meaning: 'Operator actions (/v1/admin/...) need an operator API key.', action: 'Use a key made with `kerf admin create-api-key --operator`.' },
  invalid_order_transition: { type: 'invalid_request_error', kind: 'conflict', retryable: false,
    meaning: "The order cannot move to that status from its current one (e.g. a delivered order back to in_production).", action: 'Read the order and pick a status the message lists.' },

  // Dropship (docs/commerce.md "Dropship"; issue #13)
  dropship_account_not_approved: { type: 'permission_error', kind: 'forbidden', retryable: false,
    meaning: "The account's dropship access is requested, suspended or denied (or was never requested); only approved accounts may use /v1/dropship.", action: 'Ask the operator to approve the account for dropship.' },
  api_key_required: { type: 'permission_error', kind: 'forbidden', retryable: false,
    meaning: "The dropship API takes the account's API key; an OAuth access token is refused.", action: 'Send the API key as the bearer token (or in the svc_key header).' },
  item_not_approved: { type: 'permission_error', kind: 'forbidden', retryable: false,
    meaning: 'The SKU exists on the account but its item is still requested (not approved), so it has no locked price and cannot be ordered.', action: 'Wait for the operator to approve the item, then order again.' },
  unknown_sku: { type: 'not_found_error', kind: 'not_found', retryable: false,
    meaning: 'No dropship item with that SKU on the account; `param` is sku.', action: 'Pick a SKU from GET /v1/dropship/items.' },
  dropship_payment_processing: { type: 'payment_error', kind: 'conflict', retryable: true,
    meaning: 'The off-session parts charge is still processing; the order is created once it succeeds.', action: 'Repeat the request with the same external_ref after Retry-After: it answers the order once the payment succeeded.' },
  contract_quantity_exhausted: { type: 'invalid_request_error', kind: 'conflict', retryable: false,
    meaning: "Fewer of the contract item's committed (prepaid) units are left than the order's quantity.", action: 'Order fewer units, or ask the operator to commit more.' },
  order_on_production_hold: { type: 'invalid_request_error', kind: 'conflict', retryable: false,
    meaning: 'A contract order is on production hold until a factory release; it cannot go into production or ship before.', action: 'Release the order (kerf admin dropship release ORDER_ID), then move it on.' },
  sku_taken: { type: 'invalid_request_error', kind: 'conflict', retryable: false,
    meaning: 'The account already has a dropship item with that SKU.', action: 'Pick another SKU.' },
  item_price_locked: { type: 'invalid_request_error', kind: 'conflict', retryable: false,
    meaning: 'The item is already approved; its unit price (and committed quantity) are locked.', action: 'Create a new item (another SKU) for a new price.' },

  origin_not_allowed: { type: 'permission_error', kind: 'forbidden', retryable: false,
    meaning: 'A browser called the MCP endpoint from a web origin this service does not allow.', action: 'Connect from a native MCP client, or ask the operator to allow the origin.' },

  // DFM issue codes for blind features (engine/src/dfm/blind-checks.ts): findings in a DFM report's
  // parts[].issues, never an error response; a part carrying one is blocked until the model changes
  counterbore_not_supported: { type: 'invalid_request_error', kind: null, retryable: false,
    meaning: 'DFM finding: the part has a counterbore or spot face (a flat-bottomed step around a hole, part-way into the material); a laser cuts through and cannot make it. details: feature_id, size_mm (counterbore diameter), depth_mm, side; hole_id names the hole.', action: 'Make it a plain through hole, or a countersink (82 or 90 degrees) if it seats a screw head, and upload the model again.' },
  blind_hole_not_supported: { type: 'invalid_request_error', kind: null, retryable: false,
    meaning: 'DFM finding: the part has a blind hole (it stops part-way); a laser cannot stop inside the material. details: feature_id, size_mm (diameter), depth_mm, center_mm.', action: 'Make it a through hole or remove it from the model.' },
  blind_feature: { type: 'invalid_request_error', kind: null, retryable: false,
    meaning: 'DFM finding: the part has a pocket, recess or step milled part-way into the material (up to 15 % of the material; more and the part is refused as machined). details: feature_id, size_mm x length_mm, depth_mm, center_mm.', action: 'Cut it through as a window or remove it from the model (machine it elsewhere after cutting).' },
  engraving_not_supported: { type: 'invalid_request_error', kind: null, retryable: false,
    meaning: 'DFM finding: the part has engraving (recessed strokes at most 2 mm wide) that the laser cannot cut. details: feature_id, depth_mm, center_mm.', action: 'Remove the engraving from the model, or cut it through as a stencil.' },
  edge_chamfer_not_supported: { type: 'invalid_request_error', kind: null, retryable: false,
    meaning: 'DFM finding: sheet edges are chamfered; a laser cuts square edges. details: feature_id, size_mm x depth_mm (chamfer legs), length_mm (edge length), side.', action: 'Remove the chamfer from the model (edges are deburred as standard).' },
  edge_fillet_not_supported: { type: 'invalid_request_error', kind: null, retryable: false,
    meaning: 'DFM finding: sheet edges are rounded; a laser cuts square edges. details: feature_id, size_mm (radius), length_mm, side.', action: 'Remove the edge fillet from the model (edges are deburred as standard).' },
  modelled_thread_needs_tap: { type: 'invalid_request_error', kind: null, retryable: false,
    meaning: 'DFM finding: a hole carries a modelled thread; the laser cuts the tap drill (minor diameter) hole and the thread is made by tapping, a secondary operation that must be configured. hole_id names the hole; details.size_mm is the major diameter.', action: 'Configure a tap for the hole (configuration.parts[].taps[]), or remove the thread from the model.' },

  // Limits and the service itself
  too_many_jobs: { type: 'rate_limit_error', kind: 'rate_limited', retryable: true,
    meaning: 'The account already has as many jobs (analyses, production files, file quotes) waiting or running as the service allows (KERF_MAX_ACTIVE_JOBS_PER_ACCOUNT).', action: 'Wait for Retry-After (or for some designs or production files to be ready), then send the request again.' },
  rate_limit_exceeded: { type: 'rate_limit_error', kind: 'rate_limited', retryable: true,
    meaning: 'Too many requests for this account (without a valid credential: this client address) in the current window, over the REST API and MCP together.', action: 'Wait for Retry-After, then retry; spread requests out.' },
  internal_error: { type: 'api_error', kind: 'internal', retryable: true,
    meaning: 'An unexpected failure in the service.', action: 'Retry with the same Idempotency-Key; report the request_id if it persists.' },
  engine_unavailable: { type: 'api_error', kind: 'unavailable', retryable: true,
    meaning: 'The engine cannot do this work right now, or this build lacks the module for it.', action: 'Wait for Retry-After and retry.' },
  insufficient_storage: { type: 'api_error', kind: 'insufficient_storage', retryable: true,
    meaning: 'The service ran out of disk space while keeping the request (an upload, a report); nothing of it was kept.', action: 'Wait for Retry-After and retry; an operator frees space.' },
  service_unavailable: { type: 'api_error', kind: 'unavailable', retryable: true,
    meaning: 'The analysis queue is full.', action: 'Wait for Retry-After and retry.' },
  production_files_pending: { type: 'api_error', kind: 'unavailable', retryable: true,
    meaning: 'The production files of this DFM report are still being generated.', action: 'Wait for Retry-After and retry.' },
  source_missing: { type: 'api_error', kind: null, retryable: false,
    meaning: "The uploaded file was no longer stored when its analysis ran; appears as a failed design's error.code.", action: 'Upload the file again.' },
};

export const ERROR_CODES: readonly ErrorCodeDoc[] = Object.entries(CODES)
  .map(([code, entry]) => ({ code, ...entry }))
  .sort((a, b) => a.code.localeCompare(b.code));
