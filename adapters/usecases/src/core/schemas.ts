// Input schemas of the use cases (the API's request shapes), defined once: each use case checks
// its input against its schema, and the transports derive theirs from the same objects (REST body,
// query and path validation and OpenAPI; MCP tool input schemas; CLI option checks). Request shapes
// are strict: an unknown or mistyped field is an error naming `param`. Each field's description is
// the OpenAPI document's and the MCP tools' (REST parameters are described by theirs).
import { Type, type Static, type TSchema } from '@sinclair/typebox';
// `type: [T, 'null']` and `enum` as the contract writes them (anyOf would change every validation message)
import {
  ACCEPTABLE_RISKS, ADDRESS, ClientReference, Configuration, described, enumOf, FileQuoteRequest, Id, orNull,
  QuoteItemRequest, RequestDesignId as DesignId, ShipTo, strict,
} from '@kerf/contract';

// the request pieces the store's records are made of live below it, in @kerf/contract
export { ACCEPTABLE_RISKS, Configuration, FileQuoteRequest, QuoteItemRequest, ShipTo };

// ---- ids and shared pieces --------------------------------------------------------------------

/** An id in a path. */
const PathId = (description: string) => Type.String({ maxLength: 100, description });
const Limit = (maximum: number, dflt: number) => Type.Integer({ minimum: 1, maximum, default: dflt, description: 'Page size.' });
const Cursor = (maxLength: number) => Type.String({ minLength: 1, maxLength, description: 'The `next_cursor` of the previous page; omit for the first page.' });


// ---- catalogs ---------------------------------------------------------------------------------

const CATALOG_NAMES = ['materials', 'tube_profiles', 'finishes', 'powder_coat_colors', 'taps', 'studs', 'nuts', 'standoffs'] as const;
const HARDWARE_MODEL_KINDS = ['studs', 'nuts', 'standoffs'] as const;

export const ListCatalogInput = Type.Object({
  catalog: enumOf(CATALOG_NAMES, { description: 'Which catalog.' }),
  limit: Type.Optional(Limit(500, 100)),
  cursor: Type.Optional(Cursor(200)),
  /** finishes only */
  process: Type.Optional(enumOf(['sheet_metal', 'tube_laser'] as const, { description: 'Only those offered for this process: `sheet_metal` or `tube_laser`.' })),
  /** materials only: those this thick, within the DFM check's thickness tolerance */
  thickness_mm: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: 1000, description: 'Only materials of this thickness, mm, within the tolerance the DFM thickness check allows (the larger of 0.05 mm and 5 %), exactly this thickness first, then the nearest.' })),
  /** materials only: by type id (mild_steel) or words of the material's name (stainless 304) */
  material: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'Only materials of this type (e.g. mild_steel, aluminum_5052) or whose material name holds these words (e.g. "5052").' })),
}, strict);
export type ListCatalogInput = Static<typeof ListCatalogInput>;

/** The press-brake tooling's lists (docs/press-brake.md): the brake, its punches, its V-dies. */
export const PRESS_BRAKE_LISTS = ['brakes', 'punches', 'dies'] as const;
export const ListPressBrakeInput = Type.Object({
  list: enumOf(PRESS_BRAKE_LISTS, { description: 'Which list: `brakes`, `punches` or `dies`.' }),
  limit: Type.Optional(Limit(500, 100)),
  cursor: Type.Optional(Cursor(200)),
}, strict);
export type ListPressBrakeInput = Static<typeof ListPressBrakeInput>;

export const HardwareModelInput = Type.Object({
  kind: enumOf(HARDWARE_MODEL_KINDS, { description: 'The hardware catalog: `studs`, `nuts` or `standoffs`.' }),
  item_id: PathId('The hardware item\'s id from its catalog list.'),
}, strict);
export type HardwareModelInput = Static<typeof HardwareModelInput>;

// ---- designs ----------------------------------------------------------------------------------

export const IMAGE_VIEWS = ['iso', 'top', 'bottom', 'front', 'back', 'left', 'right', 'flat'] as const;
const VIEWS = 'The view: `iso`, `top`, `bottom`, `front`, `back`, `left`, `right` or `flat`.';
const imageOptions = {
  view: Type.Optional(enumOf(IMAGE_VIEWS, { default: 'iso', description: VIEWS })),
  format: Type.Optional(enumOf(['svg', 'png'] as const, { default: 'svg', description: 'Image format: `svg` or `png`.' })),
  width: Type.Optional(Type.Integer({ minimum: 64, maximum: 4096, default: 800, description: 'Image width, pixels (64..4096).' })),
};
const DesignPathId = PathId('The design (an analysed upload).');
const PartPathId = PathId('The unique part (the design\'s `parts[].id`).');

export const DesignInput = Type.Object({ design_id: DesignPathId }, strict);
export type DesignInput = Static<typeof DesignInput>;
export const DesignImageInput = Type.Object({ design_id: DesignPathId, ...imageOptions }, strict);
export type DesignImageInput = Static<typeof DesignImageInput>;
export const PartModelInput = Type.Object({
  design_id: DesignPathId, part_id: PartPathId,
  view: Type.Optional(enumOf(['formed', 'flat'] as const, { default: 'formed', description: 'The model: the `formed` part or its `flat` pattern.' })),
}, strict);
export type PartModelInput = Static<typeof PartModelInput>;
export const PartStepInput = Type.Object({
  design_id: DesignPathId, part_id: PartPathId,
  view: Type.Optional(enumOf(['source', 'normalized', 'flat'] as const, { default: 'normalized', description: 'The STEP file: the part as in the `source` file, `normalized` (in its own frame) or its `flat` pattern.' })),
}, strict);
export type PartStepInput = Static<typeof PartStepInput>;
export const PartImageInput = Type.Object({ design_id: DesignPathId, part_id: PartPathId, ...imageOptions }, strict);
export type PartImageInput = Static<typeof PartImageInput>;
/** The stock that fits one part of a ready design. */
export const PartStockInput = Type.Object({ design_id: DesignPathId, part_id: PartPathId }, strict);
export type PartStockInput = Static<typeof PartStockInput>;

// ---- DFM --------------------------------------------------------------------------------------

export const PRODUCTION_FILE_KINDS = [
  'production_step', 'production_model', 'production_flat_step',
  'production_flat_model', 'production_dxf', 'production_bend_lines_dxf',
] as const;
export type ProductionFileKind = (typeof PRODUCTION_FILE_KINDS)[number];

export const DfmRequest = Type.Object({
  design_id: DesignId,
  configuration: Type.Optional(Configuration),
  generate_production_files: Type.Optional(Type.Boolean({ description: 'Whether to make the production files (DXF, STEP, GLB) after the report (default true).' })),
}, strict);
export type DfmRequest = Static<typeof DfmRequest>;

const DfmPathId = PathId('The DFM report.');
export const DfmInput = Type.Object({ dfm_id: DfmPathId }, strict);
export type DfmInput = Static<typeof DfmInput>;
/** Largest quantity a DFM report's nest is asked at (design units). */
export const MAX_DFM_NEST_QUANTITY = 10000;
/** A DFM report's nest at a quantity (docs/nesting.md "A DFM report's nest"). */
export const DfmNestInput = Type.Object({
  dfm_id: DfmPathId,
  quantity: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_DFM_NEST_QUANTITY, default: 1, description: 'Completed design units to nest (1-10000, default 1); each part is nested quantity x its instance_count times, as a quote of that quantity would be.' })),
}, strict);
export type DfmNestInput = Static<typeof DfmNestInput>;
export const ProductionFileInput = Type.Object({
  dfm_id: DfmPathId, part_id: PartPathId,
  kind: enumOf(PRODUCTION_FILE_KINDS, { description: 'Which production file, e.g. `production_dxf`.' }),
}, strict);
export type ProductionFileInput = Static<typeof ProductionFileInput>;
// the DFM image draws the findings on the flat unless a formed view is asked for
export const DfmPartImageInput = Type.Object({ dfm_id: DfmPathId, part_id: PartPathId, ...imageOptions, view: Type.Optional(enumOf(IMAGE_VIEWS, { default: 'flat', description: VIEWS })) }, strict);
export type DfmPartImageInput = Static<typeof DfmPartImageInput>;
/** One step's picture of a part's press-brake sequence (docs/press-brake.md "Step images"). */
export const DfmBendStepImageInput = Type.Object({
  dfm_id: DfmPathId, part_id: PartPathId,
  step: Type.Integer({ minimum: 1, maximum: 1000, description: 'The step of the part\'s bend sequence (`bend_plan.sequence[].step`, from 1).' }),
}, strict);
export type DfmBendStepImageInput = Static<typeof DfmBendStepImageInput>;

// ---- quotes -----------------------------------------------------------------------------------


const Items = (options: { minItems: number; maxItems: number }) =>
  Type.Array(QuoteItemRequest, { ...options, description: 'The items: each a design in a quantity, with its configuration.' });

export const QuoteRequest = Type.Object({
  items: Items({ minItems: 1, maxItems: 50 }),
  ship_to: Type.Optional(ShipTo),
}, strict);
export type QuoteRequest = Static<typeof QuoteRequest>;


export const QuoteInput = Type.Object({ quote_id: PathId('The quote.') }, strict);
export type QuoteInput = Static<typeof QuoteInput>;

// ---- review links -----------------------------------------------------------------------------

export const ReviewLinkRequest = Type.Object({
  design_id: DesignId,
  configuration: Type.Optional(Configuration),
  dfm_id: Type.Optional(Id('The DFM report the configuration comes from.')),
}, strict);
export type ReviewLinkRequest = Static<typeof ReviewLinkRequest>;

const ReviewLinkPathId = PathId('The review link (its id is the credential).');
export const ReviewLinkInput = Type.Object({ review_link_id: ReviewLinkPathId }, strict);
export type ReviewLinkInput = Static<typeof ReviewLinkInput>;

export const SaveReviewInput = Type.Object({ review_link_id: ReviewLinkPathId, configuration: Configuration }, strict);
export type SaveReviewInput = Static<typeof SaveReviewInput>;

// ---- downloads --------------------------------------------------------------------------------

export const DownloadInput = Type.Object({ token: Type.String({ maxLength: 4096, description: 'The signed download token (the credential; links expire).' }) }, strict);
export type DownloadInput = Static<typeof DownloadInput>;

// ---- checks of a local file (nothing kept) ----------------------------------------------------

/** DFM of a file at hand (`kerf dfm`): the configuration; the file travels beside it. */
export const FileDfmRequest = Type.Object({ configuration: Type.Optional(Configuration) }, strict);
export type FileDfmRequest = Static<typeof FileDfmRequest>;

// ---- webhooks ---------------------------------------------------------------------------------

/** Every event a manufacturing webhook endpoint can receive (docs/api.md "Webhooks"). */
export const EVENT_TYPES = [
  'design.ready', 'design.failed',
  'dfm_report.production_files.ready', 'dfm_report.production_files.failed',
  'quote.ready', 'quote.failed',
  'cart.checked_out', 'order.status_changed',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

const EndpointUrl = Type.String({ minLength: 1, maxLength: 2048, description: 'The HTTPS URL the webhook events are POSTed to (signed; see the webhooks section of the API guide).' });
const EndpointEvents = 'Event types the endpoint receives; all when omitted.';
export const WebhookEndpointCreate = Type.Object({
  url: EndpointUrl,
  events: Type.Optional(Type.Array(enumOf(EVENT_TYPES), { minItems: 1, maxItems: EVENT_TYPES.length, uniqueItems: true, description: EndpointEvents })),
  description: Type.Optional(orNull<string>({ type: 'string', maxLength: 500, description: 'Your description of the endpoint.' })),
}, strict);
export type WebhookEndpointCreate = Static<typeof WebhookEndpointCreate>;

const EndpointPathId = PathId('The webhook endpoint.');
export const WebhookEndpointInput = Type.Object({ endpoint_id: EndpointPathId }, strict);
export type WebhookEndpointInput = Static<typeof WebhookEndpointInput>;

export const ListWebhookEndpointsInput = Type.Object({
  limit: Type.Optional(Limit(100, 100)),
  cursor: Type.Optional(Cursor(500)),
}, strict);
export type ListWebhookEndpointsInput = Static<typeof ListWebhookEndpointsInput>;

export const WebhookDeliveriesInput = Type.Object({
  endpoint_id: EndpointPathId,
  limit: Type.Optional(Limit(100, 50)),
  cursor: Type.Optional(Cursor(500)),
}, strict);
export type WebhookDeliveriesInput = Static<typeof WebhookDeliveriesInput>;
export const WebhookDeliveryInput = Type.Object({ endpoint_id: EndpointPathId, delivery_id: PathId('A delivery attempt (the `id` in the endpoint\'s deliveries), the last of a delivery that failed.') }, strict);
export type WebhookDeliveryInput = Static<typeof WebhookDeliveryInput>;

// ---- carts, payment, orders (docs/api.md "Carts and payment", "Orders", "Account") -----------


const ShippingOptionId = Type.String({ minLength: 1, maxLength: 200, description: 'A shipping option from the quote\'s fulfillment.shipping_options.' });
export const CartCreate = Type.Object({
  items: Items({ minItems: 1, maxItems: 50 }),
  ship_to: Type.Optional(ShipTo),
  shipping_option_id: Type.Optional(ShippingOptionId),
  client_reference_id: Type.Optional(ClientReference),
}, strict);
export type CartCreate = Static<typeof CartCreate>;

/** A cart made from a quote the caller already has (the MCP create_checkout tool): its items and ship_to. */
export const CartFromQuote = Type.Object({
  quote_id: Id('The quote whose items and ship_to the cart takes.'),
  shipping_option_id: Type.Optional(ShippingOptionId),
  client_reference_id: Type.Optional(ClientReference),
}, strict);
export type CartFromQuote = Static<typeof CartFromQuote>;

export const CartInput = Type.Object({ cart_id: PathId('The cart.') }, strict);
export type CartInput = Static<typeof CartInput>;

/** PATCH body: omitted fields keep their value; every PATCH re-quotes and bumps `revision`. */
export const CartPatch = Type.Object({
  items: Type.Optional(Items({ minItems: 1, maxItems: 50 })),
  ship_to: Type.Optional(ShipTo),
  shipping_option_id: Type.Optional(ShippingOptionId),
}, strict);
export type CartPatch = Static<typeof CartPatch>;

export const CartUpdate = Type.Composite([CartInput, CartPatch], strict);
export type CartUpdate = Static<typeof CartUpdate>;

const PAYMENT_TYPES = ['card_on_file', 'payment_method'] as const;

/** Pay body: `{payment: {type: "card_on_file"} | {type: "payment_method", id}, customer_email?, customer_phone?}`. */
const UNUSED = 'Accepted for compatibility with existing clients; Kerf does not store or use it.';
export const CartPayBody = Type.Object({
  payment: Type.Object({
    type: enumOf(PAYMENT_TYPES, { description: 'How to pay: `card_on_file` (the account\'s saved card) or `payment_method` (with the processor\'s payment method `id`).' }),
    id: Type.Optional(Type.String({ minLength: 1, maxLength: 255, description: 'The processor\'s payment method, with `payment_method`.' })),
  }, { ...strict, description: 'How to pay.' }),
  customer_email: Type.Optional(Type.String({ maxLength: 200, description: UNUSED })),
  customer_phone: Type.Optional(Type.String({ maxLength: 40, description: UNUSED })),
}, strict);
export type CartPayBody = Static<typeof CartPayBody>;

export const CartPay = Type.Composite([CartInput, CartPayBody, Type.Object({
  /** the caller's Idempotency-Key: a retry with it answers the same payment */
  idempotency_key: Type.Optional(Type.String({ minLength: 1, maxLength: 255, description: 'The Idempotency-Key of the pay request.' })),
})], strict);
export type CartPay = Static<typeof CartPay>;

export const ListOrdersInput = Type.Object({
  limit: Type.Optional(Limit(100, 20)),
  cursor: Type.Optional(Cursor(500)),
}, strict);
export type ListOrdersInput = Static<typeof ListOrdersInput>;

export const OrderInput = Type.Object({ order_id: PathId('The order.') }, strict);
export type OrderInput = Static<typeof OrderInput>;

/** Operator: the statuses an order is moved to (docs/api.md "Operator actions"). */
const ORDER_ACTIONS = ['in_production', 'ready_for_pickup', 'shipped', 'delivered', 'cancelled', 'refunded'] as const;

const TRACKING = { carrier: 'Shipping carrier.', service: 'Shipping service.', number: 'Tracking number.', url: 'The carrier\'s tracking page for the shipment, or null.' };
export const AdminOrderBody = Type.Object({
  status: enumOf(ORDER_ACTIONS, { description: 'The status to move the order to.' }),
  tracking: Type.Optional(Type.Object({
    carrier: Type.String({ minLength: 1, maxLength: 100, description: TRACKING.carrier }),
    service: Type.Optional(orNull<string>({ type: 'string', maxLength: 100, description: TRACKING.service })),
    number: Type.String({ minLength: 1, maxLength: 200, description: TRACKING.number }),
    url: Type.Optional(orNull<string>({ type: 'string', maxLength: 2048, description: TRACKING.url })),
  }, { ...strict, description: 'Shipped: the parcel\'s tracking.' })),
  reason: Type.Optional(Type.String({ maxLength: 500, description: 'Cancelled or refunded: why (kept on the event).' })),
}, strict);
export type AdminOrderBody = Static<typeof AdminOrderBody>;

export const AdminOrderUpdate = Type.Composite([OrderInput, AdminOrderBody], strict);
export type AdminOrderUpdate = Static<typeof AdminOrderUpdate>;

// ---- prepared uploads (MCP prepare_upload: the bytes follow by HTTP PUT) ----------------------

/** Largest file a prepared upload takes (the MCP upload link's PUT), bytes. */
export const MAX_PREPARED_UPLOAD_BYTES = 50 * 1024 * 1024;

export const PrepareUploadRequest = Type.Object({
  filename: Type.String({ minLength: 1, maxLength: 255, description: 'Base name of the STEP file, ending in .step or .stp (no directories), e.g. "bracket.step".' }),
  size_bytes: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_PREPARED_UPLOAD_BYTES, description: 'Exact size of the file in bytes; when given, an upload of any other size is refused.' })),
  sha256: Type.Optional(Type.String({ pattern: '^[0-9a-fA-F]{64}$', description: 'Hex SHA-256 of the file; when given, an upload with other content is refused.' })),
}, strict);
export type PrepareUploadRequest = Static<typeof PrepareUploadRequest>;

// ---- previews (labelled views of a design, as images) -----------------------------------------

export const PreviewRequest = Type.Object({
  design_id: DesignId,
  part_id: Type.Optional(Id('One unique part (the design\'s `parts[].id`); default the whole design.')),
  views: Type.Optional(Type.Array(enumOf(IMAGE_VIEWS), { minItems: 1, maxItems: IMAGE_VIEWS.length, uniqueItems: true, description: 'The views to render.' })),
  width: Type.Optional(Type.Integer({ minimum: 64, maximum: 1600, default: 512, description: 'Image width, pixels (64..1600).' })),
}, strict);
export type PreviewRequest = Static<typeof PreviewRequest>;

// ---- web accounts and sessions, OAuth connections -------------------------------------------------

const Email = Type.String({ minLength: 3, maxLength: 254, pattern: '^[^\\s@]+@[^\\s@]+$' });
/** Long enough to resist guessing; the cap keeps scrypt's input bounded. */
const Password = Type.String({ minLength: 10, maxLength: 200 });

export const SignUpInput = Type.Object({ email: Email, password: Password, name: Type.Optional(Type.String({ maxLength: 200 })) }, strict);
export type SignUpInput = Static<typeof SignUpInput>;
export const SignInInput = Type.Object({ email: Type.String({ minLength: 1, maxLength: 254 }), password: Type.String({ minLength: 1, maxLength: 200 }), client_ip: Type.Optional(Type.String({ maxLength: 100 })) }, strict);
export type SignInInput = Static<typeof SignInInput>;
export const ListConnectionsInput = Type.Object({}, strict);
export const ConnectionInput = Type.Object({ connection_id: PathId('The OAuth connection.') }, strict);

/** Catalog entries whose text holds every word of `query` (an agent looking for "aluminum 3 mm"). */
export const CatalogSearchInput = Type.Object({
  catalog: ListCatalogInput.properties.catalog,
  query: Type.String({ minLength: 1, maxLength: 200, description: 'Words every returned entry holds.' }),
  process: ListCatalogInput.properties.process,
  limit: Type.Optional(Limit(500, 50)),
}, strict);
export type CatalogSearchInput = Static<typeof CatalogSearchInput>;

// ---- dropship (docs/commerce.md "Dropship") ------------------------------------------------------------

/** Every event a dropship webhook endpoint can receive; subscriptions default to all. */
export const DROPSHIP_EVENT_TYPES = [
  'order.created', 'order.in_review', 'order.in_production', 'order.shipped',
  'order.delivered', 'order.cancelled', 'order.payment_failed',
] as const;
export type DropshipEventType = (typeof DROPSHIP_EVENT_TYPES)[number];

export const DropshipShipTo = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 200, description: ADDRESS.name }), company: Type.Optional(orNull<string>({ type: 'string', maxLength: 200, description: ADDRESS.company })),
  street1: Type.String({ minLength: 1, maxLength: 200, description: ADDRESS.street1 }), street2: Type.Optional(orNull<string>({ type: 'string', maxLength: 200, description: ADDRESS.street2 })),
  city: Type.String({ minLength: 1, maxLength: 100, description: ADDRESS.city }), state: Type.String({ minLength: 1, maxLength: 50, description: ADDRESS.state }),
  postal_code: Type.String({ minLength: 1, maxLength: 20, description: ADDRESS.postal_code }), country: Type.String({ minLength: 2, maxLength: 2, description: ADDRESS.country }),
  phone: Type.Optional(orNull<string>({ type: 'string', maxLength: 40, description: ADDRESS.phone })), email: Type.Optional(orNull<string>({ type: 'string', maxLength: 254, description: ADDRESS.email })),
}, { ...strict, description: 'Destination address (US only).' });
export type DropshipShipTo = Static<typeof DropshipShipTo>;

const ExternalRef = Type.String({ minLength: 1, maxLength: 200, description: 'Your order reference; repeating it returns the existing order.' });
export const DropshipOrderCreate = Type.Object({
  sku: Type.String({ minLength: 1, maxLength: 200, description: 'The approved item\'s stock-keeping unit.' }),
  quantity: Type.Integer({ minimum: 1, maximum: 100000, description: 'Units to make and ship.' }),
  external_ref: ExternalRef,
  retail_unit_price_cents: Type.Optional(orNull<number>({ type: 'integer', minimum: 0, maximum: 100_000_000, description: 'Your retail price per unit, in cents of `currency` (USD): stored for your records, never billed.' })),
  ship_to: DropshipShipTo,
}, strict);
export type DropshipOrderCreate = Static<typeof DropshipOrderCreate>;

export const DropshipOrderInput = Type.Object({ order_id: PathId('The dropship order.') }, strict);
export type DropshipOrderInput = Static<typeof DropshipOrderInput>;
export const DropshipOrdersQuery = Type.Object({
  external_ref: Type.Optional(described(ExternalRef, 'Only the order of this reference.')),
  limit: Type.Optional(Limit(100, 20)),
  cursor: Type.Optional(Cursor(500)),
}, strict);
export type DropshipOrdersQuery = Static<typeof DropshipOrdersQuery>;

export const DropshipEndpointCreate = Type.Object({
  url: EndpointUrl,
  events: Type.Optional(Type.Array(enumOf(DROPSHIP_EVENT_TYPES), { minItems: 1, maxItems: DROPSHIP_EVENT_TYPES.length, uniqueItems: true, description: EndpointEvents })),
}, strict);
export type DropshipEndpointCreate = Static<typeof DropshipEndpointCreate>;
export const DropshipEndpointInput = Type.Object({ endpoint_id: EndpointPathId }, strict);
export type DropshipEndpointInput = Static<typeof DropshipEndpointInput>;

const DROPSHIP_ACCOUNT_STATUSES = ['requested', 'approved', 'suspended', 'denied'] as const;
export const AdminDropshipAccountBody = Type.Object({
  status: enumOf(DROPSHIP_ACCOUNT_STATUSES, { description: 'The account\'s dropship access: `requested`, `approved`, `suspended` or `denied`.' }),
  phone: Type.Optional(Type.String({ minLength: 1, maxLength: 40, description: 'The account\'s contact phone, used for a ship_to without one.' })),
}, strict);
export const AdminDropshipAccountInput = Type.Object({ account_id: PathId('The account.') }, strict);
export const AdminDropshipAccountUpdate = Type.Composite([AdminDropshipAccountInput, AdminDropshipAccountBody], strict);
export type AdminDropshipAccountUpdate = Static<typeof AdminDropshipAccountUpdate>;

/** An item made from a line of an existing order (the sample order), `requested` until approved. */
export const AdminDropshipItemCreate = Type.Object({
  order_id: Id('The order the sample was made in.'),
  line_item_id: Id('The line of that order the item is made from.'),
  sku: Type.String({ minLength: 1, maxLength: 200, pattern: '^[A-Za-z0-9._-]+$', description: 'The stock-keeping unit the account orders the item by.' }),
  name: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'The item\'s name, to show; default the line\'s.' })),
  file_name: Type.Optional(Type.String({ minLength: 1, maxLength: 255, description: 'The uploaded file\'s name; default the design\'s.' })),
}, strict);
export type AdminDropshipItemCreate = Static<typeof AdminDropshipItemCreate>;
export const AdminDropshipItemInput = Type.Object({ item_id: PathId('The dropship item.') }, strict);
export const AdminDropshipItemApproveBody = Type.Object({
  unit_price_cents: Type.Integer({ minimum: 1, maximum: 100_000_000, description: 'The locked price per unit, in cents of `currency` (USD).' }),
  committed_quantity: Type.Optional(Type.Integer({ minimum: 1, maximum: 10_000_000, description: 'A contract item: this many units are already paid; orders allocate from them with no parts charge.' })),
}, strict);
export const AdminDropshipItemApprove = Type.Composite([AdminDropshipItemInput, AdminDropshipItemApproveBody], strict);
export type AdminDropshipItemApprove = Static<typeof AdminDropshipItemApprove>;

export const AdminDropshipOrderBody = Type.Object({
  status: enumOf(['in_review', 'in_production', 'shipped', 'delivered', 'cancelled'] as const, { description: 'The status to move the order to.' }),
  tracking: Type.Optional(Type.Object({
    carrier: Type.String({ minLength: 1, maxLength: 100, description: TRACKING.carrier }), number: Type.String({ minLength: 1, maxLength: 100, description: TRACKING.number }),
    url: Type.Optional(orNull<string>({ type: 'string', maxLength: 2048, description: TRACKING.url })),
  }, { ...strict, description: 'Shipped: the parcel\'s tracking.' })),
  shipping_cost_cents: Type.Optional(Type.Integer({ minimum: 0, maximum: 10_000_000, description: 'The real parcel and label cost, in cents of `currency` (USD), charged to the same card when the order ships.' })),
  reason: Type.Optional(Type.String({ maxLength: 500, description: 'Cancelled: why.' })),
}, strict);
export const AdminDropshipOrderUpdate = Type.Composite([DropshipOrderInput, AdminDropshipOrderBody], strict);
export type AdminDropshipOrderUpdate = Static<typeof AdminDropshipOrderUpdate>;

// ---- API keys (account page) --------------------------------------------------------------------

export const ApiKeyCreate = Type.Object({ label: Type.Optional(Type.String({ maxLength: 100, description: 'Your name for the key.' })) }, strict);
export type ApiKeyCreate = Static<typeof ApiKeyCreate>;
export const ApiKeyInput = Type.Object({ api_key_id: PathId('The API key.') }, strict);
export type ApiKeyInput = Static<typeof ApiKeyInput>;

// ---- saved card (account page) ------------------------------------------------------------------

/** A new card from the processor's page; `return_url` is where that page sends the person back. */
export const CardSetupInput = Type.Object({ return_url: Type.Optional(Type.String({ pattern: '^https?://', maxLength: 2048, description: 'Where the processor\'s page sends the person back.' })) }, strict);
export type CardSetupInput = Static<typeof CardSetupInput>;
export const RemoveCardInput = Type.Object({}, strict);
