// JSON Schemas of the responses: they document the API (/v1/openapi.json) and are what
// the end-to-end tests check every real response against. Response objects allow added fields
// (fields may be added, never renamed: docs/api.md "Conventions"). Request schemas are the use cases' (@kerf/usecases schemas).
import { Type, type TObject } from '@sinclair/typebox';

type S = Record<string, unknown>;

const str: S = { type: 'string' };
const strN: S = { type: ['string', 'null'] };
const num: S = { type: 'number' };
const numN: S = { type: ['number', 'null'] };
const int: S = { type: 'integer' };
const bool: S = { type: 'boolean' };
const obj = (properties: S, required: string[] = Object.keys(properties)): S => ({ type: 'object', properties, required });
const nullable = (schema: S): S => ({ anyOf: [schema, { type: 'null' }] });
const flatPattern: S = nullable(obj({ k_factor: num, length_mm: num, width_mm: num, area_mm2: num, cut_length_mm: num, pierce_count: int }));
const arr = (items: S): S => ({ type: 'array', items });

export const errorSchema: S = obj({
  error: obj({
    type: { type: 'string', enum: ['invalid_request_error', 'authentication_error', 'permission_error', 'not_found_error', 'idempotency_error', 'rate_limit_error', 'payment_error', 'api_error'] },
    code: str, message: str, param: strN,
    details: { type: ['object', 'null'] },
    request_id: str, retryable: bool, doc_url: str,
  }),
});

const dims = obj({ length_mm: num, width_mm: num, height_mm: num });

/** Properties a response may carry without every stored object having them (added after it was made). */
const withOptional = (o: S, extra: S): S => ({ ...o, properties: { ...(o.properties as S), ...extra } });
/** (issue 22) partial-depth work a laser cannot cut, on the part like holes are */
const blindFeature: S = obj({
  id: int, kind: { type: 'string', enum: ['counterbore', 'blind_hole', 'pocket', 'engraving', 'edge_chamfer', 'edge_fillet', 'thread'] },
  center_mm: { type: 'array', items: num, minItems: 2, maxItems: 2 }, position_mm: { type: 'array', items: num, minItems: 3, maxItems: 3 },
  size_mm: num, length_mm: numN, depth_mm: num, side: { type: 'string', enum: ['top', 'bottom', 'outside', 'inside'] },
  hole_id: { type: ['integer', 'null'] }, face_ids: arr(int),
});

const partSchema: S = withOptional(obj({
  id: str, name: str,
  suggested_process: { type: 'string', enum: ['sheet_metal', 'tube_laser'] },
  manufacturable: bool,
  unsupported_reason: strN,
  instance_count: int,
  formed_dimensions: dims,
  detected_thickness_mm: numN,
  volume_mm3: num, surface_area_cm2: num,
  bend_count: int,
  bends: arr(obj({ id: int, angle_degrees: num, radius_mm: num, length_mm: num, direction: { type: 'string', enum: ['up', 'down'] } })),
  hole_count: int,
  holes: arr(obj({
    id: int, shape: { type: 'string', enum: ['round', 'slot', 'other'] }, diameter_mm: num,
    face_id: int, center_mm: { type: 'array', items: num, minItems: 2, maxItems: 2 },
    countersink: nullable(obj({ outer_diameter_mm: num, angle_degrees: num })),
    nearest_bend_id: { type: ['integer', 'null'] },
    distance_to_nearest_edge_mm: num, distance_to_nearest_bend_mm: numN,
  })),
  flat_pattern: flatPattern,
  flat_pattern_dimensions: nullable(dims),
  cut_length_mm: numN,
  tube: nullable(obj({
    profile: { type: 'string', enum: ['round', 'square', 'rectangular'] },
    outer_diameter_mm: numN, outer_width_mm: numN, outer_height_mm: numN,
    wall_thickness_mm: num, corner_radius_mm: numN, length_mm: num, cut_length_mm: num,
  })),
  model_url: strN, flat_pattern_model_url: strN, image_url: strN,
}), { blind_features: arr(blindFeature) });

export const designSchema: S = obj({
  id: str,
  object: { type: 'string', const: 'design' },
  status: { type: 'string', enum: ['queued', 'processing', 'ready', 'failed'] },
  status_url: str, name: str, created_at: { type: 'string', format: 'date-time' },
  suggested_process: { type: ['string', 'null'], enum: ['sheet_metal', 'tube_laser', null] },
  formed_dimensions: nullable(dims),
  parts: arr(partSchema),
  part_instances: arr(obj({ id: str, part_id: str, instance_index: int })),
  model_url: strN, image_url: strN,
  // a ready design's own website review link (null until ready)
  review_url: strN, review_link_id: strN,
  error: nullable(obj({ code: str, message: str })),
  // bodies of the file that are not parts, with why (every other body, open shells included, is a part)
  ignored_bodies: arr(obj({ name: str, reason: { type: 'string', enum: ['zero_volume', 'duplicate'] }, message: str })),
});


const enumOf = (...values: string[]): S => ({ type: 'string', enum: values });
const hardware = (extra: S = {}): S => obj({ id: str, size: str, thread_standard: enumOf('metric', 'unified'), hole_diameter_mm: num, ...extra });

/** The fields existing clients read from each catalog (docs/api.md "Catalog entries"). */
export const catalogEntrySchemas: Record<string, S> = {
  materials: obj({ id: str, material: str, type: str, thickness_mm: num, thickness_in: num, display_thickness: str, description: str, bendable: bool, weight_g_per_cm2: num, k_factor: numN, min_bend_radius_mm: num }),
  tube_profiles: obj({ id: str, material: str, type: str, shape: enumOf('round', 'square', 'rectangular'), display_name: str, outer_width_mm: numN, outer_height_mm: numN, outer_diameter_mm: numN, wall_thickness_mm: num, default_stock_length_mm: num }),
  finishes: obj({ id: str, name: str, slug: str, description: str, category: str, type: str, processes: arr(enumOf('sheet_metal', 'tube_laser')), base_price_cents: int, price_per_cm2_cents: num }),
  powder_coat_colors: obj({ id: str, name: str, slug: str, hex_color: str, price_multiplier: num, available: bool, viewer: { type: 'object' } }),
  taps: hardware(),
  studs: hardware(),
  nuts: hardware(),
  standoffs: hardware(),
};

export function listSchema(item: S): S {
  return obj({ object: { type: 'string', const: 'list' }, data: arr(item), has_more: bool, next_cursor: strN });
}

/** A use case's input split the way HTTP carries it: path parameters, and the query string. */
export function pathAndQuery(input: TObject, pathKeys: string[]): { params: TObject; querystring?: TObject } {
  const rest = Object.keys(input.properties).filter((k) => !pathKeys.includes(k));
  return rest.length ? { params: Type.Pick(input, pathKeys), querystring: Type.Omit(input, pathKeys) } : { params: input };
}

// ---- responses (open: fields may be added) ----------------------------------------------------

const issue = obj({
  code: str, message: str, severity: enumOf('blocking', 'warning'), accepted: bool,
  source: enumOf('geometry', 'configuration', 'catalog', 'assembly'),
  part_id: strN, hole_id: { type: ['integer', 'null'] }, bend_id: { type: ['integer', 'null'] },
}, ['code', 'message', 'severity', 'accepted', 'source']);
const requirement = obj({ code: str, message: str, part_id: strN, part_ids: arr(str), field: str, allowed_values_url: strN });

export const dfmReportSchema: S = obj({
  id: str,
  object: { type: 'string', const: 'dfm_report' },
  design_id: str,
  status: { type: 'string', enum: ['ready', 'requires_input', 'blocked'] },
  configuration: { type: 'object' },
  review_url: str, review_link_id: str,
  parts: arr(obj({
    part_id: str, status: enumOf('ready', 'requires_input', 'blocked'), issues: arr(issue),
    image_url: str,
    // plain messages (clients read list[str]); the same warnings with their codes beside them
    production_warnings: arr(str),
    production_warning_details: arr(obj({ code: str, message: str })),
    // the flat the part was checked and priced with: the configured material's K-factor, else the default
    k_factor: { ...numN, description: 'K-factor of the configured sheet material at this part\'s r/t (null without one or without bends)' },
    flat_pattern: flatPattern,
  }, ['part_id', 'status', 'issues', 'image_url', 'production_warnings', 'production_warning_details'])),
  requirements: arr(requirement),
  assembly_issues: arr(issue),
  production_files: obj({
    status: { type: 'string', enum: ['pending', 'ready', 'failed', 'skipped'] },
    reason: strN,
    error: nullable(obj({ code: str, message: str })),
    review_warning: nullable(obj({ design_id: str, code: str, message: str })),
    corrections_applied: bool,
  }),
  created_at: { type: 'string', format: 'date-time' },
});

export const quoteSchema: S = obj({
  id: str,
  object: { type: 'string', const: 'quote' },
  status: { type: 'string', enum: ['processing', 'requires_input', 'ready', 'blocked', 'expired', 'failed'] },
  status_url: str,
  design_id: str,
  currency: { type: 'string', const: 'usd' },
  amount_subtotal_cents: { type: ['integer', 'null'] },
  amount_shipping_cents: { type: ['integer', 'null'] },
  amount_tax_cents: { type: ['integer', 'null'] },
  amount_total_cents: { type: ['integer', 'null'] },
  items: arr(obj({
    design_id: str, quantity: int, status: str,
    unit_amount_cents: { type: ['integer', 'null'] }, amount_cents: { type: ['integer', 'null'] },
    assembly_operations_amount_cents: { type: ['integer', 'null'] },
    quantity_options: arr(obj({ quantity: int, unit_amount_cents: int, amount_cents: int })),
    requirements: arr(requirement),
    // every item that got as far as DFM carries its full report, a requires_input file quote included
    dfm: dfmReportSchema,
  }, ['design_id', 'quantity', 'status', 'quantity_options', 'requirements'])),
  requirements: arr(requirement),
  fulfillment: nullable({ type: 'object' }),
  manufacturing_warnings: arr({ type: 'object' }),
  production_files: obj({ review_warning: nullable({ type: 'object' }) }),
  error: nullable(obj({ code: str, message: str })),
  created_at: { type: 'string', format: 'date-time' },
  expires_at: { type: 'string', format: 'date-time' },
});

export const reviewLinkSchema: S = obj({
  id: str,
  object: { type: 'string', const: 'review_link' },
  status: { type: 'string', enum: ['open', 'saved', 'expired'] },
  design_id: str, dfm_id: strN, review_url: str,
  configuration: { type: 'object' },
  configuration_updated_at: { type: 'string', format: 'date-time' },
  created_at: { type: 'string', format: 'date-time' },
  expires_at: { type: 'string', format: 'date-time' },
});

// ---- webhooks (docs/api.md "Webhooks") ----

export const webhookEndpointSchema: S = obj({
  id: str,
  object: { type: 'string', const: 'webhook_endpoint' },
  url: str,
  events: arr(str),
  description: strN,
  active: bool,
  created_at: { type: 'string', format: 'date-time' },
});

/** The endpoint as created or with a rolled secret: the only responses that carry `secret`. */
export const webhookEndpointWithSecretSchema: S = {
  ...webhookEndpointSchema,
  properties: { ...(webhookEndpointSchema.properties as S), secret: { type: 'string', pattern: '^whsec_' } },
  required: [...(webhookEndpointSchema.required as string[]), 'secret'],
};

export const webhookDeliverySchema: S = obj({
  id: str,
  event_id: str,
  event_type: str,
  status: enumOf('pending', 'succeeded', 'failed', 'abandoned'),
  attempt: int,
  response_status: { type: ['integer', 'null'] },
  error: strN,
  created_at: { type: 'string', format: 'date-time' },
  next_attempt_at: { type: ['string', 'null'], format: 'date-time' },
  delivered_at: { type: ['string', 'null'], format: 'date-time' },
});

export const noContentResponse: S = { description: 'No content', type: 'null' };

/** Standard error responses every authenticated route may give. */
export function errorResponses(...statuses: number[]): Record<string, S> {
  const out: Record<string, S> = {};
  for (const s of [400, 401, 404, 422, 429, 500, 503, ...statuses]) out[String(s)] = { description: 'Error', ...errorSchema };
  return out;
}

export const redirectResponse: S = { description: 'Redirect to a short-lived signed download URL', type: 'null' };


// ---- commerce (docs/api.md "Carts and payment", "Orders", "Account") ----

const shipTo = obj({ name: str, street1: str, city: str, state: str, postal_code: str, country: { type: 'string', const: 'US' } });
const cartPayment = obj({
  cart_id: str, status: enumOf('processing', 'paid', 'failed', 'refunded'), payment_intent_id: strN, amount_total_cents: int, order_id: strN, paid_at: strN,
});

export const cartSchema: S = obj({
  id: str,
  object: { type: 'string', const: 'cart' },
  revision: int,
  status: enumOf('open', 'checked_out', 'expired'),
  checked_out: bool,
  cart_url: str,
  items: arr({ type: 'object' }),
  ship_to: nullable(shipTo),
  shipping_option_id: strN,
  selected_shipping_option: nullable({ type: 'object' }),
  quote: quoteSchema,
  totals: obj({
    amount_subtotal_cents: { type: ['integer', 'null'] }, amount_shipping_cents: { type: ['integer', 'null'] },
    amount_production_surcharge_cents: int, amount_tax_cents: { type: ['integer', 'null'] },
    tax_status: enumOf('destination_required', 'calculated'), amount_total_cents: { type: ['integer', 'null'] },
  }),
  manufacturing_warnings: arr({ type: 'object' }),
  order_id: strN,
  payment: nullable(cartPayment),
  client_reference_id: strN,
  created_at: { type: 'string', format: 'date-time' },
  expires_at: { type: 'string', format: 'date-time' },
});

const tracking = obj({ carrier: str, service: strN, number: str, url: strN, shipped_at: strN, delivered_at: strN });

export const orderSchema: S = obj({
  id: str,
  object: { type: 'string', const: 'order' },
  status: enumOf('received', 'in_production', 'ready_for_pickup', 'shipped', 'delivered', 'cancelled', 'refunded'),
  created_at: { type: 'string', format: 'date-time' },
  cart_id: str, quote_id: str,
  amount_subtotal_cents: int, amount_discount_cents: int, amount_tax_cents: int, amount_shipping_cents: int, amount_total_cents: int,
  expedited: bool, production_hold: bool, estimated_ship_date: strN, delivered_at: strN, po_number: strN,
  tracking: nullable(tracking),
  line_items: arr(obj({
    id: str, type: enumOf('part', 'hardware', 'finish', 'assembly', 'shipping'), part_id: strN, design_id: strN, name: str, quantity: int,
    unit_amount_cents: num, amount_cents: num, material_id: strN, tube_profile_id: strN, powder_coat_color_id: strN, finish_id: strN,
    hole_operation_count: int,
  })),
  events: arr(obj({ type: str, at: str })),
});

export const accountSchema: S = obj({
  id: str,
  object: { type: 'string', const: 'account' },
  email: str, name: str,
  has_saved_card: bool,
  card: nullable(obj({ brand: str, last4: str, exp_month: int, exp_year: int })),
  payment_method_setup_url: strN,
  dropship: nullable(obj({ status: str })),
});
