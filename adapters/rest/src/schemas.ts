// JSON Schemas of the wire shapes (contract.md). They document the API (/v1/openapi.json), validate
// request bodies strictly, and are what the end-to-end tests check every real response against.
// Response objects allow added fields (contract: "fields may be added"); request bodies do not.

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

export const partSchema: S = obj({
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
});

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
  error: nullable(obj({ code: str, message: str })),
});

export const catalogEntrySchema: S = obj({ id: str });

export function listSchema(item: S): S {
  return obj({ object: { type: 'string', const: 'list' }, data: arr(item), has_more: bool, next_cursor: strN });
}

export const listQuery: S = {
  type: 'object',
  properties: {
    limit: { type: 'integer', minimum: 1, maximum: 500, default: 100 },
    cursor: { type: 'string', minLength: 1, maxLength: 200 },
  },
  additionalProperties: false,
};

// ---- configuration (request side: strict) ----------------------------------------------------

const id = { type: 'string', minLength: 1, maxLength: 200 };
const side = { type: 'string', enum: ['top', 'bottom'] };
const holeId = { type: 'integer', minimum: 0 };
const strict = (properties: S, required: string[] = []): S => ({ type: 'object', properties, required, additionalProperties: false });
const list = (items: S, max = 1000): S => ({ type: 'array', items, maxItems: max });

const optionalId = { type: ['string', 'null'], minLength: 1, maxLength: 200 };
const selections = {
  material_id: optionalId, tube_profile_id: optionalId, powder_coat_color_id: optionalId, finish_id: optionalId,
};

export const configurationSchema: S = strict({
  defaults: strict(selections),
  parts: list(strict({
    part_id: id,
    ...selections,
    taps: list(strict({ hole_id: holeId, tap_id: id }, ['hole_id', 'tap_id'])),
    studs: list(strict({ hole_id: holeId, stud_id: id, side }, ['hole_id', 'stud_id'])),
    nuts: list(strict({ hole_id: holeId, nut_id: id, side }, ['hole_id', 'nut_id'])),
    standoffs: list(strict({ hole_id: holeId, standoff_id: id, side }, ['hole_id', 'standoff_id'])),
    countersinks: list(strict({ hole_id: holeId, outer_diameter_mm: { type: 'number', exclusiveMinimum: 0, maximum: 1000 }, angle: { type: 'integer', enum: [82, 90] }, side }, ['hole_id', 'outer_diameter_mm', 'angle'])),
  }, ['part_id']), 500),
  assembly_operations: list(strict({
    type: { type: 'string', const: 'weld' },
    method: { type: 'string', enum: ['auto', 'mig', 'tig'] },
    weld_length_mm: { type: 'number', exclusiveMinimum: 0, maximum: 1e6 },
    part_instance_ids: list(id, 1000),
    weld_finish: { type: 'string', enum: ['none', 'rough', 'fine'] },
    joint_access: { type: 'string', enum: ['open', 'tight', 'blind'] },
  }, ['type', 'weld_length_mm', 'part_instance_ids']), 200),
  accepted_risks: list({ type: 'string', minLength: 1, maxLength: 100 }, 50),
});

export const dfmRequestSchema: S = strict({
  design_id: id,
  configuration: configurationSchema,
  generate_production_files: { type: 'boolean' },
}, ['design_id']);

const shipTo = strict({
  name: { type: 'string', maxLength: 200 }, company: { type: 'string', maxLength: 200 },
  street1: { type: 'string', maxLength: 200 }, street2: { type: ['string', 'null'], maxLength: 200 },
  city: { type: 'string', maxLength: 100 }, state: { type: 'string', maxLength: 50 },
  postal_code: { type: 'string', maxLength: 20 }, country: { type: 'string', minLength: 2, maxLength: 2 },
  phone: { type: 'string', maxLength: 40 }, email: { type: 'string', maxLength: 200 },
});

export const quoteItemRequestSchema: S = strict({
  design_id: id,
  quantity: { type: 'integer', minimum: 1, maximum: 100000 },
  configuration: configurationSchema,
  client_reference_id: { type: 'string', maxLength: 200 },
  quantity_options: { type: 'array', items: { type: 'integer', minimum: 1, maximum: 100000 }, maxItems: 10, uniqueItems: true },
}, ['design_id', 'quantity']);

export const quoteRequestSchema: S = strict({
  items: { type: 'array', items: quoteItemRequestSchema, minItems: 1, maxItems: 50 },
  ship_to: shipTo,
}, ['items']);

/** The multipart form's `request` field: a quote item without design_id (the file is the design). */
export const fileQuoteRequestSchema: S = strict({
  quantity: { type: 'integer', minimum: 1, maximum: 100000 },
  configuration: configurationSchema,
  client_reference_id: { type: 'string', maxLength: 200 },
  quantity_options: { type: 'array', items: { type: 'integer', minimum: 1, maximum: 100000 }, maxItems: 10, uniqueItems: true },
  ship_to: shipTo,
}, ['quantity']);

export const reviewLinkRequestSchema: S = strict({
  design_id: id,
  configuration: configurationSchema,
  dfm_id: id,
}, ['design_id']);

// ---- responses (open: fields may be added) ----------------------------------------------------

const issue = obj({ code: str, message: str, severity: { type: 'string', enum: ['blocking', 'warning'] } });
const requirement = obj({ code: str, message: str });

export const dfmReportSchema: S = obj({
  id: str,
  object: { type: 'string', const: 'dfm_report' },
  design_id: str,
  status: { type: 'string', enum: ['ready', 'requires_input', 'blocked'] },
  configuration: { type: 'object' },
  parts: arr(obj({
    part_id: str, status: str, issues: arr(issue),
    // the flat the part was checked and priced with: the configured material's K-factor, else the default
    k_factor: { ...numN, description: 'K-factor of the configured sheet material at this part\'s r/t (null without one or without bends)' },
    flat_pattern: flatPattern,
  }, ['part_id', 'status', 'issues'])),
  requirements: arr(requirement),
  assembly_issues: arr({ type: 'object' }),
  production_files: obj({
    status: { type: 'string', enum: ['pending', 'ready', 'failed', 'skipped'] },
    reason: strN,
    error: nullable(obj({ code: str, message: str })),
    review_warning: nullable(obj({ design_id: str, code: str, message: str })),
  }),
  created_at: { type: 'string', format: 'date-time' },
});

export const quoteSchema: S = obj({
  id: str,
  object: { type: 'string', const: 'quote' },
  status: { type: 'string', enum: ['processing', 'requires_input', 'ready', 'blocked', 'expired', 'failed'] },
  status_url: str,
  currency: { type: 'string', const: 'usd' },
  amount_subtotal_cents: { type: ['integer', 'null'] },
  amount_shipping_cents: { type: ['integer', 'null'] },
  amount_tax_cents: { type: ['integer', 'null'] },
  amount_total_cents: { type: ['integer', 'null'] },
  items: arr(obj({
    design_id: str, quantity: int, status: str,
    unit_amount_cents: { type: ['integer', 'null'] }, amount_cents: { type: ['integer', 'null'] },
    quantity_options: arr(obj({ quantity: int, unit_amount_cents: int, amount_cents: int })),
    requirements: arr(requirement),
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

/** Standard error responses every authenticated route may give. */
export function errorResponses(...statuses: number[]): Record<string, S> {
  const out: Record<string, S> = {};
  for (const s of [400, 401, 404, 422, 429, 500, 503, ...statuses]) out[String(s)] = { description: 'Error', ...errorSchema };
  return out;
}

export const redirectResponse: S = { description: 'Redirect to a short-lived signed download URL', type: 'null' };

/** view/format/width of every image route (contract.md "Images"). */
export const imageQuery: S = {
  type: 'object',
  properties: {
    view: { type: 'string', enum: ['iso', 'top', 'bottom', 'front', 'back', 'left', 'right', 'flat'], default: 'iso' },
    format: { type: 'string', enum: ['svg', 'png'], default: 'svg' },
    width: { type: 'integer', minimum: 64, maximum: 4096, default: 800 },
  },
  additionalProperties: false,
};
