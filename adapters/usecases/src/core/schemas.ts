// Input schemas of the use cases (the API's request shapes), defined once: each use case checks
// its input against its schema, and the transports derive theirs from the same objects (REST body,
// query and path validation and OpenAPI; MCP tool input schemas; CLI option checks). Request shapes
// are strict: an unknown or mistyped field is an error naming `param`.
import { Type, type Static, type TSchema } from '@sinclair/typebox';

/** `type: [T, 'null']` as the contract writes it (an anyOf would change every validation message). */
const orNull = <T>(schema: Record<string, unknown>): TSchema & { static: T | null } =>
  Type.Unsafe<T | null>({ ...schema, type: [schema.type, 'null'] });

const strict = { additionalProperties: false } as const;

// ---- ids and shared pieces --------------------------------------------------------------------

/** An id in a request body. */
const Id = Type.String({ minLength: 1, maxLength: 200 });
/** An id in a path. */
const PathId = Type.String({ maxLength: 100 });
const OptionalCatalogId = orNull<string>({ type: 'string', minLength: 1, maxLength: 200 });
const enumOf = <const T extends readonly string[]>(values: T, options: Record<string, unknown> = {}) =>
  Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...options });
const Side = enumOf(['top', 'bottom'] as const);
const HoleId = Type.Integer({ minimum: 0 });
const list = <T extends TSchema>(items: T, maxItems = 1000) => Type.Array(items, { maxItems });

const selections = {
  material_id: Type.Optional(OptionalCatalogId),
  tube_profile_id: Type.Optional(OptionalCatalogId),
  powder_coat_color_id: Type.Optional(OptionalCatalogId),
  finish_id: Type.Optional(OptionalCatalogId),
};

export const ACCEPTABLE_RISKS = ['hole_too_close_to_bend', 'countersink_too_close_to_bend'] as const;

export const Configuration = Type.Object({
  defaults: Type.Optional(Type.Object(selections, strict)),
  parts: Type.Optional(list(Type.Object({
    part_id: Id,
    ...selections,
    taps: Type.Optional(list(Type.Object({ hole_id: HoleId, tap_id: Id }, strict))),
    studs: Type.Optional(list(Type.Object({ hole_id: HoleId, stud_id: Id, side: Type.Optional(Side) }, strict))),
    nuts: Type.Optional(list(Type.Object({ hole_id: HoleId, nut_id: Id, side: Type.Optional(Side) }, strict))),
    standoffs: Type.Optional(list(Type.Object({ hole_id: HoleId, standoff_id: Id, side: Type.Optional(Side) }, strict))),
    countersinks: Type.Optional(list(Type.Object({
      hole_id: HoleId,
      outer_diameter_mm: Type.Number({ exclusiveMinimum: 0, maximum: 1000 }),
      angle: Type.Unsafe<82 | 90>({ type: 'integer', enum: [82, 90] }),
      side: Type.Optional(Side),
    }, strict))),
  }, strict), 500)),
  assembly_operations: Type.Optional(list(Type.Object({
    type: Type.Literal('weld'),
    method: Type.Optional(enumOf(['auto', 'mig', 'tig'] as const)),
    weld_length_mm: Type.Number({ exclusiveMinimum: 0, maximum: 1e6 }),
    part_instance_ids: list(Id, 1000),
    weld_finish: Type.Optional(enumOf(['none', 'rough', 'fine'] as const)),
    joint_access: Type.Optional(enumOf(['open', 'tight', 'blind'] as const)),
  }, strict), 200)),
  // only the two risks a customer may accept; clients validate it as this enum (docs/api.md "Conventions")
  accepted_risks: Type.Optional(list(enumOf(ACCEPTABLE_RISKS), 50)),
}, strict);
export type Configuration = Static<typeof Configuration>;

const ShipTo = Type.Object({
  name: Type.Optional(Type.String({ maxLength: 200 })), company: Type.Optional(Type.String({ maxLength: 200 })),
  street1: Type.Optional(Type.String({ maxLength: 200 })), street2: Type.Optional(orNull<string>({ type: 'string', maxLength: 200 })),
  city: Type.Optional(Type.String({ maxLength: 100 })), state: Type.Optional(Type.String({ maxLength: 50 })),
  postal_code: Type.Optional(Type.String({ maxLength: 20 })), country: Type.Optional(Type.String({ minLength: 2, maxLength: 2 })),
  phone: Type.Optional(Type.String({ maxLength: 40 })), email: Type.Optional(Type.String({ maxLength: 200 })),
}, strict);
export type ShipTo = Static<typeof ShipTo>;

const Quantity = Type.Integer({ minimum: 1, maximum: 100000 });
const QuantityOptions = Type.Array(Quantity, { maxItems: 10, uniqueItems: true });

// ---- catalogs ---------------------------------------------------------------------------------

const CATALOG_NAMES = ['materials', 'tube_profiles', 'finishes', 'powder_coat_colors', 'taps', 'studs', 'nuts', 'standoffs'] as const;
const HARDWARE_MODEL_KINDS = ['studs', 'nuts', 'standoffs'] as const;

export const ListCatalogInput = Type.Object({
  catalog: enumOf(CATALOG_NAMES),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, default: 100 })),
  cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  /** finishes only */
  process: Type.Optional(enumOf(['sheet_metal', 'tube_laser'] as const)),
  /** materials only: those this thick, within the DFM check's thickness tolerance */
  thickness_mm: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: 1000, description: 'Only materials of this thickness, mm, within the tolerance the DFM thickness check allows (the larger of 0.05 mm and 5 %).' })),
  /** materials only: by type id (mild_steel) or words of the material's name (stainless 304) */
  material: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'Only materials of this type (e.g. mild_steel, aluminum_5052) or whose material name holds these words (e.g. "5052").' })),
}, strict);
export type ListCatalogInput = Static<typeof ListCatalogInput>;

export const HardwareModelInput = Type.Object({ kind: enumOf(HARDWARE_MODEL_KINDS), item_id: PathId }, strict);
export type HardwareModelInput = Static<typeof HardwareModelInput>;

// ---- designs ----------------------------------------------------------------------------------

export const IMAGE_VIEWS = ['iso', 'top', 'bottom', 'front', 'back', 'left', 'right', 'flat'] as const;
const imageOptions = {
  view: Type.Optional(enumOf(IMAGE_VIEWS, { default: 'iso' })),
  format: Type.Optional(enumOf(['svg', 'png'] as const, { default: 'svg' })),
  width: Type.Optional(Type.Integer({ minimum: 64, maximum: 4096, default: 800 })),
};

export const DesignInput = Type.Object({ design_id: PathId }, strict);
export type DesignInput = Static<typeof DesignInput>;
export const DesignImageInput = Type.Object({ design_id: PathId, ...imageOptions }, strict);
export type DesignImageInput = Static<typeof DesignImageInput>;
export const PartModelInput = Type.Object({
  design_id: PathId, part_id: PathId,
  view: Type.Optional(enumOf(['formed', 'flat'] as const, { default: 'formed' })),
}, strict);
export type PartModelInput = Static<typeof PartModelInput>;
export const PartStepInput = Type.Object({
  design_id: PathId, part_id: PathId,
  view: Type.Optional(enumOf(['source', 'normalized', 'flat'] as const, { default: 'normalized' })),
}, strict);
export type PartStepInput = Static<typeof PartStepInput>;
export const PartImageInput = Type.Object({ design_id: PathId, part_id: PathId, ...imageOptions }, strict);
export type PartImageInput = Static<typeof PartImageInput>;

// ---- DFM --------------------------------------------------------------------------------------

export const PRODUCTION_FILE_KINDS = [
  'production_step', 'production_model', 'production_flat_step',
  'production_flat_model', 'production_dxf', 'production_bend_lines_dxf',
] as const;
export type ProductionFileKind = (typeof PRODUCTION_FILE_KINDS)[number];

export const DfmRequest = Type.Object({
  design_id: Id,
  configuration: Type.Optional(Configuration),
  generate_production_files: Type.Optional(Type.Boolean()),
}, strict);
export type DfmRequest = Static<typeof DfmRequest>;

export const DfmInput = Type.Object({ dfm_id: PathId }, strict);
export type DfmInput = Static<typeof DfmInput>;
export const ProductionFileInput = Type.Object({ dfm_id: PathId, part_id: PathId, kind: enumOf(PRODUCTION_FILE_KINDS) }, strict);
export type ProductionFileInput = Static<typeof ProductionFileInput>;
// the DFM image draws the findings on the flat unless a formed view is asked for
export const DfmPartImageInput = Type.Object({ dfm_id: PathId, part_id: PathId, ...imageOptions, view: Type.Optional(enumOf(IMAGE_VIEWS, { default: 'flat' })) }, strict);
export type DfmPartImageInput = Static<typeof DfmPartImageInput>;

// ---- quotes -----------------------------------------------------------------------------------

export const QuoteItemRequest = Type.Object({
  design_id: Id,
  quantity: Quantity,
  configuration: Type.Optional(Configuration),
  client_reference_id: Type.Optional(Type.String({ maxLength: 200 })),
  quantity_options: Type.Optional(QuantityOptions),
}, strict);
export type QuoteItemRequest = Static<typeof QuoteItemRequest>;

export const QuoteRequest = Type.Object({
  items: Type.Array(QuoteItemRequest, { minItems: 1, maxItems: 50 }),
  ship_to: Type.Optional(ShipTo),
}, strict);
export type QuoteRequest = Static<typeof QuoteRequest>;

/** The multipart form's `request` field: a quote item without design_id (the file is the design). */
export const FileQuoteRequest = Type.Composite([Type.Omit(QuoteItemRequest, ['design_id']), Type.Object({ ship_to: Type.Optional(ShipTo) })], strict);
export type FileQuoteRequest = Static<typeof FileQuoteRequest>;

export const QuoteInput = Type.Object({ quote_id: PathId }, strict);
export type QuoteInput = Static<typeof QuoteInput>;

// ---- review links -----------------------------------------------------------------------------

export const ReviewLinkRequest = Type.Object({
  design_id: Id,
  configuration: Type.Optional(Configuration),
  dfm_id: Type.Optional(Id),
}, strict);
export type ReviewLinkRequest = Static<typeof ReviewLinkRequest>;

export const ReviewLinkInput = Type.Object({ review_link_id: PathId }, strict);
export type ReviewLinkInput = Static<typeof ReviewLinkInput>;

export const SaveReviewInput = Type.Object({ review_link_id: PathId, configuration: Configuration }, strict);
export type SaveReviewInput = Static<typeof SaveReviewInput>;

// ---- downloads --------------------------------------------------------------------------------

export const DownloadInput = Type.Object({ token: Type.String({ maxLength: 4096 }) }, strict);
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

export const WebhookEndpointCreate = Type.Object({
  url: Type.String({ minLength: 1, maxLength: 2048 }),
  /** default: every event */
  events: Type.Optional(Type.Array(enumOf(EVENT_TYPES), { minItems: 1, maxItems: EVENT_TYPES.length, uniqueItems: true })),
  description: Type.Optional(orNull<string>({ type: 'string', maxLength: 500 })),
}, strict);
export type WebhookEndpointCreate = Static<typeof WebhookEndpointCreate>;

export const WebhookEndpointInput = Type.Object({ endpoint_id: PathId }, strict);
export type WebhookEndpointInput = Static<typeof WebhookEndpointInput>;

export const ListWebhookEndpointsInput = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 100 })),
  cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 500 })),
}, strict);
export type ListWebhookEndpointsInput = Static<typeof ListWebhookEndpointsInput>;

export const WebhookDeliveriesInput = Type.Object({
  endpoint_id: PathId,
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 50 })),
  cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 500 })),
}, strict);
export type WebhookDeliveriesInput = Static<typeof WebhookDeliveriesInput>;

// ---- carts, payment, orders (docs/api.md "Carts and payment", "Orders", "Account") -----------


export const CartCreate = Type.Object({
  items: Type.Array(QuoteItemRequest, { minItems: 1, maxItems: 50 }),
  ship_to: Type.Optional(ShipTo),
  shipping_option_id: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  client_reference_id: Type.Optional(Type.String({ maxLength: 200 })),
}, strict);
export type CartCreate = Static<typeof CartCreate>;

/** A cart made from a quote the caller already has (the MCP create_checkout tool): its items and ship_to. */
export const CartFromQuote = Type.Object({
  quote_id: Id,
  shipping_option_id: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  client_reference_id: Type.Optional(Type.String({ maxLength: 200 })),
}, strict);
export type CartFromQuote = Static<typeof CartFromQuote>;

export const CartInput = Type.Object({ cart_id: PathId }, strict);
export type CartInput = Static<typeof CartInput>;

/** PATCH body: omitted fields keep their value; every PATCH re-quotes and bumps `revision`. */
export const CartPatch = Type.Object({
  items: Type.Optional(Type.Array(QuoteItemRequest, { minItems: 1, maxItems: 50 })),
  ship_to: Type.Optional(ShipTo),
  shipping_option_id: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
}, strict);
export type CartPatch = Static<typeof CartPatch>;

export const CartUpdate = Type.Composite([CartInput, CartPatch], strict);
export type CartUpdate = Static<typeof CartUpdate>;

const PAYMENT_TYPES = ['card_on_file', 'payment_method'] as const;

/** Pay body: `{payment: {type: "card_on_file"} | {type: "payment_method", id}, customer_email?, customer_phone?}`. */
export const CartPayBody = Type.Object({
  payment: Type.Object({
    type: enumOf(PAYMENT_TYPES),
    id: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
  }, strict),
  customer_email: Type.Optional(Type.String({ maxLength: 200 })),
  customer_phone: Type.Optional(Type.String({ maxLength: 40 })),
}, strict);
export type CartPayBody = Static<typeof CartPayBody>;

export const CartPay = Type.Composite([CartInput, CartPayBody, Type.Object({
  /** the caller's Idempotency-Key: a retry with it answers the same payment */
  idempotency_key: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
})], strict);
export type CartPay = Static<typeof CartPay>;

export const ListOrdersInput = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
  cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 500 })),
}, strict);
export type ListOrdersInput = Static<typeof ListOrdersInput>;

export const OrderInput = Type.Object({ order_id: PathId }, strict);
export type OrderInput = Static<typeof OrderInput>;

/** Operator: the statuses an order is moved to (docs/api.md "Operator actions"). */
const ORDER_ACTIONS = ['in_production', 'ready_for_pickup', 'shipped', 'delivered', 'cancelled', 'refunded'] as const;

export const AdminOrderBody = Type.Object({
  status: enumOf(ORDER_ACTIONS),
  /** shipped: the parcel's tracking */
  tracking: Type.Optional(Type.Object({
    carrier: Type.String({ minLength: 1, maxLength: 100 }),
    service: Type.Optional(orNull<string>({ type: 'string', maxLength: 100 })),
    number: Type.String({ minLength: 1, maxLength: 200 }),
    url: Type.Optional(orNull<string>({ type: 'string', maxLength: 2048 })),
  }, strict)),
  /** cancelled/refunded: why (kept on the event) */
  reason: Type.Optional(Type.String({ maxLength: 500 })),
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
  design_id: Id,
  part_id: Type.Optional(Id),
  views: Type.Optional(Type.Array(enumOf(IMAGE_VIEWS), { minItems: 1, maxItems: IMAGE_VIEWS.length, uniqueItems: true })),
  width: Type.Optional(Type.Integer({ minimum: 64, maximum: 1600, default: 512 })),
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
export const ConnectionInput = Type.Object({ connection_id: PathId }, strict);

/** Catalog entries whose text holds every word of `query` (an agent looking for "aluminum 3 mm"). */
export const CatalogSearchInput = Type.Object({
  catalog: enumOf(CATALOG_NAMES),
  query: Type.String({ minLength: 1, maxLength: 200 }),
  process: Type.Optional(enumOf(['sheet_metal', 'tube_laser'] as const)),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, default: 50 })),
}, strict);
export type CatalogSearchInput = Static<typeof CatalogSearchInput>;

// ---- dropship (README.md "Dropship") ------------------------------------------------------------

/** Every event a dropship webhook endpoint can receive; subscriptions default to all. */
export const DROPSHIP_EVENT_TYPES = [
  'order.created', 'order.in_review', 'order.in_production', 'order.shipped',
  'order.delivered', 'order.cancelled', 'order.payment_failed',
] as const;
export type DropshipEventType = (typeof DROPSHIP_EVENT_TYPES)[number];

const DropshipShipTo = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 200 }), company: Type.Optional(orNull<string>({ type: 'string', maxLength: 200 })),
  street1: Type.String({ minLength: 1, maxLength: 200 }), street2: Type.Optional(orNull<string>({ type: 'string', maxLength: 200 })),
  city: Type.String({ minLength: 1, maxLength: 100 }), state: Type.String({ minLength: 1, maxLength: 50 }),
  postal_code: Type.String({ minLength: 1, maxLength: 20 }), country: Type.String({ minLength: 2, maxLength: 2 }),
  phone: Type.Optional(orNull<string>({ type: 'string', maxLength: 40 })), email: Type.Optional(orNull<string>({ type: 'string', maxLength: 254 })),
}, strict);
export type DropshipShipTo = Static<typeof DropshipShipTo>;

export const DropshipOrderCreate = Type.Object({
  sku: Type.String({ minLength: 1, maxLength: 200 }),
  quantity: Type.Integer({ minimum: 1, maximum: 100000 }),
  external_ref: Type.String({ minLength: 1, maxLength: 200 }),
  retail_unit_price_cents: Type.Optional(orNull<number>({ type: 'integer', minimum: 0, maximum: 100_000_000 })),
  ship_to: DropshipShipTo,
}, strict);
export type DropshipOrderCreate = Static<typeof DropshipOrderCreate>;

export const DropshipOrderInput = Type.Object({ order_id: PathId }, strict);
export type DropshipOrderInput = Static<typeof DropshipOrderInput>;
export const DropshipOrdersQuery = Type.Object({
  external_ref: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
  cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 500 })),
}, strict);
export type DropshipOrdersQuery = Static<typeof DropshipOrdersQuery>;

export const DropshipEndpointCreate = Type.Object({
  url: Type.String({ minLength: 1, maxLength: 2048 }),
  events: Type.Optional(Type.Array(enumOf(DROPSHIP_EVENT_TYPES), { minItems: 1, maxItems: DROPSHIP_EVENT_TYPES.length, uniqueItems: true })),
}, strict);
export type DropshipEndpointCreate = Static<typeof DropshipEndpointCreate>;
export const DropshipEndpointInput = Type.Object({ endpoint_id: PathId }, strict);
export type DropshipEndpointInput = Static<typeof DropshipEndpointInput>;

const DROPSHIP_ACCOUNT_STATUSES = ['requested', 'approved', 'suspended', 'denied'] as const;
export const AdminDropshipAccountBody = Type.Object({
  status: enumOf(DROPSHIP_ACCOUNT_STATUSES),
  /** the account's contact phone, used for a ship_to without one */
  phone: Type.Optional(Type.String({ minLength: 1, maxLength: 40 })),
}, strict);
export const AdminDropshipAccountInput = Type.Object({ account_id: PathId }, strict);
export const AdminDropshipAccountUpdate = Type.Composite([AdminDropshipAccountInput, AdminDropshipAccountBody], strict);
export type AdminDropshipAccountUpdate = Static<typeof AdminDropshipAccountUpdate>;

/** An item made from a line of an existing order (the sample order), `requested` until approved. */
export const AdminDropshipItemCreate = Type.Object({
  order_id: Id,
  line_item_id: Id,
  sku: Type.String({ minLength: 1, maxLength: 200, pattern: '^[A-Za-z0-9._-]+$' }),
  name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  file_name: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
}, strict);
export type AdminDropshipItemCreate = Static<typeof AdminDropshipItemCreate>;
export const AdminDropshipItemInput = Type.Object({ item_id: PathId }, strict);
export const AdminDropshipItemApproveBody = Type.Object({
  unit_price_cents: Type.Integer({ minimum: 1, maximum: 100_000_000 }),
  /** A contract item: this many units are already paid; orders allocate from them with no parts charge. */
  committed_quantity: Type.Optional(Type.Integer({ minimum: 1, maximum: 10_000_000 })),
}, strict);
export const AdminDropshipItemApprove = Type.Composite([AdminDropshipItemInput, AdminDropshipItemApproveBody], strict);
export type AdminDropshipItemApprove = Static<typeof AdminDropshipItemApprove>;

export const AdminDropshipOrderBody = Type.Object({
  status: enumOf(['in_review', 'in_production', 'shipped', 'delivered', 'cancelled'] as const),
  tracking: Type.Optional(Type.Object({
    carrier: Type.String({ minLength: 1, maxLength: 100 }), number: Type.String({ minLength: 1, maxLength: 100 }),
    url: Type.Optional(orNull<string>({ type: 'string', maxLength: 2048 })),
  }, strict)),
  /** The real parcel and label cost, charged to the same card when the order ships. */
  shipping_cost_cents: Type.Optional(Type.Integer({ minimum: 0, maximum: 10_000_000 })),
  reason: Type.Optional(Type.String({ maxLength: 500 })),
}, strict);
export const AdminDropshipOrderUpdate = Type.Composite([DropshipOrderInput, AdminDropshipOrderBody], strict);
export type AdminDropshipOrderUpdate = Static<typeof AdminDropshipOrderUpdate>;

// ---- API keys (account page) --------------------------------------------------------------------

export const ApiKeyCreate = Type.Object({ label: Type.Optional(Type.String({ maxLength: 100 })) }, strict);
export type ApiKeyCreate = Static<typeof ApiKeyCreate>;
export const ApiKeyInput = Type.Object({ api_key_id: PathId }, strict);
export type ApiKeyInput = Static<typeof ApiKeyInput>;

// ---- saved card (account page) ------------------------------------------------------------------

/** A new card from the processor's page; `return_url` is where that page sends the person back. */
export const CardSetupInput = Type.Object({ return_url: Type.Optional(Type.String({ pattern: '^https?://', maxLength: 2048 })) }, strict);
export type CardSetupInput = Static<typeof CardSetupInput>;
export const RemoveCardInput = Type.Object({}, strict);
