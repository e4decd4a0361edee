// The request shapes the objects the store keeps are made of: a quote item as asked for (a cart's
// items, a file quote's kept request), its configuration and a destination. Strict: an unknown or
// mistyped field is an error naming `param`. The other request shapes are the use cases'
// (adapters/usecases/src/core/schemas.ts), built from these pieces.
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { enumOf, orNull } from './fields.ts';

export const strict = { additionalProperties: false } as const;

/** An id in a request body. */
export const Id = (description: string) => Type.String({ minLength: 1, maxLength: 200, description });
const OptionalCatalogId = (description: string) => orNull<string>({ type: 'string', minLength: 1, maxLength: 200, description });
const Side = enumOf(['top', 'bottom'] as const, { description: 'Side of the sheet it goes in from: `top` or `bottom`.' });
const HoleId = Type.Integer({ minimum: 0, description: 'The hole (the part\'s `holes[].id`).' });
const list = <T extends TSchema>(items: T, description: string, maxItems = 1000) => Type.Array(items, { maxItems, description });
export const RequestDesignId = Id('The design (an analysed upload).');

const selections = {
  material_id: Type.Optional(OptionalCatalogId('A sheet material from /v1/materials.')),
  tube_profile_id: Type.Optional(OptionalCatalogId('A tube profile from /v1/tube-profiles.')),
  powder_coat_color_id: Type.Optional(OptionalCatalogId('A colour from /v1/powder-coat-colors when the finish is powder coat.')),
  finish_id: Type.Optional(OptionalCatalogId('A finish from /v1/finishes, or null for none.')),
};

export const ACCEPTABLE_RISKS = ['hole_too_close_to_bend', 'countersink_too_close_to_bend'] as const;

export const Configuration = Type.Object({
  defaults: Type.Optional(Type.Object(selections, { ...strict, description: 'Selections for every part that does not set its own: material_id, tube_profile_id, finish_id, powder_coat_color_id.' })),
  parts: Type.Optional(list(Type.Object({
    part_id: Id('The unique part (the design\'s `parts[].id`).'),
    ...selections,
    taps: Type.Optional(list(Type.Object({ hole_id: HoleId, tap_id: Id('A tap from /v1/hardware/taps.') }, strict), 'Tapped holes: hole id and tap id.')),
    studs: Type.Optional(list(Type.Object({ hole_id: HoleId, stud_id: Id('A stud from /v1/hardware/studs.'), side: Type.Optional(Side) }, strict), 'Press-in studs by hole: hole id, stud id, side.')),
    nuts: Type.Optional(list(Type.Object({ hole_id: HoleId, nut_id: Id('A nut from /v1/hardware/nuts.'), side: Type.Optional(Side) }, strict), 'Press-in nuts by hole: hole id, nut id, side.')),
    standoffs: Type.Optional(list(Type.Object({ hole_id: HoleId, standoff_id: Id('A standoff from /v1/hardware/standoffs.'), side: Type.Optional(Side) }, strict), 'Press-fit standoffs by hole: hole id, standoff id, side.')),
    countersinks: Type.Optional(list(Type.Object({
      hole_id: HoleId,
      outer_diameter_mm: Type.Number({ exclusiveMinimum: 0, maximum: 1000, description: 'Outer diameter of the countersink, mm.' }),
      angle: Type.Unsafe<82 | 90>({ type: 'integer', enum: [82, 90], description: 'Countersink included angle, degrees (82 or 90).' }),
      side: Type.Optional(Side),
    }, strict), 'Countersinks by hole: hole id, outer diameter (mm), angle (82 or 90) and side.')),
    left_out: Type.Optional(Type.Boolean({ description: 'Leave the part out of the job (`true`: supplied by the customer or bought elsewhere; not made, not priced, never blocking) or make it (`false`, also for a part the design took for bought-in hardware). Absent: left out exactly when the design\'s part has `bought_in`.' })),
  }, strict), 'A configuration entry per unique part: its selections and hole operations.', 500)),
  assembly_operations: Type.Optional(list(Type.Object({
    type: Type.Literal('weld', { description: 'The operation: `weld`.' }),
    method: Type.Optional(enumOf(['auto', 'mig', 'tig'] as const, { description: 'Welding method: `auto`, `mig` or `tig`.' })),
    weld_length_mm: Type.Number({ exclusiveMinimum: 0, maximum: 1e6, description: 'Weld length, mm.' }),
    part_instance_ids: list(Id('A part instance.'), 'Part instances (the design\'s `part_instances[].id`).', 1000),
    weld_finish: Type.Optional(enumOf(['none', 'rough', 'fine'] as const, { description: 'Weld finish: `none`, `rough`, `fine`.' })),
    joint_access: Type.Optional(enumOf(['open', 'tight', 'blind'] as const, { description: 'How reachable the weld joint is: `open`, `tight`, `blind`.' })),
  }, strict), 'Welds joining part instances: type, method, length, instances, finish, joint access.', 200)),
  // only the two risks a customer may accept; clients validate it as this enum (docs/api.md "Conventions")
  accepted_risks: Type.Optional(list(enumOf(ACCEPTABLE_RISKS), 'Findings the customer accepts: `hole_too_close_to_bend`, `countersink_too_close_to_bend`.', 50)),
}, { ...strict, description: 'The configuration object: materials, finishes, hardware per hole, welds and accepted risks (docs/api.md).' });
export type Configuration = Static<typeof Configuration>;

/** What each address field means, for both address shapes. */
export const ADDRESS = {
  name: 'The recipient\'s name.', company: 'Company name.', street1: 'Street address.', street2: 'Second address line, or null.',
  city: 'City of the address (US addresses only).', state: 'State; a two-letter US state code.',
  postal_code: 'Postal code; a US ZIP code for shipping and tax.', country: 'Two-letter country code; shipping and tax: `US` only.',
  phone: 'Phone number.', email: 'Email address.',
};
export const ShipTo = Type.Object({
  name: Type.Optional(Type.String({ maxLength: 200, description: ADDRESS.name })), company: Type.Optional(Type.String({ maxLength: 200, description: ADDRESS.company })),
  street1: Type.Optional(Type.String({ maxLength: 200, description: ADDRESS.street1 })), street2: Type.Optional(orNull<string>({ type: 'string', maxLength: 200, description: ADDRESS.street2 })),
  city: Type.Optional(Type.String({ maxLength: 100, description: ADDRESS.city })), state: Type.Optional(Type.String({ maxLength: 50, description: ADDRESS.state })),
  postal_code: Type.Optional(Type.String({ maxLength: 20, description: ADDRESS.postal_code })), country: Type.Optional(Type.String({ minLength: 2, maxLength: 2, description: ADDRESS.country })),
  phone: Type.Optional(Type.String({ maxLength: 40, description: ADDRESS.phone })), email: Type.Optional(Type.String({ maxLength: 200, description: ADDRESS.email })),
}, { ...strict, description: 'Destination address (US only).' });
export type ShipTo = Static<typeof ShipTo>;

const Quantity = Type.Integer({ minimum: 1, maximum: 100000, description: 'Units of the design (each part is made instance_count times as many).' });
const QuantityOptions = Type.Array(Quantity, { maxItems: 10, uniqueItems: true, description: 'Further quantities to price for comparison.' });

export const ClientReference = Type.String({ maxLength: 200, description: 'Your own reference, echoed back.' });
export const QuoteItemRequest = Type.Object({
  design_id: RequestDesignId,
  quantity: Quantity,
  configuration: Type.Optional(Configuration),
  client_reference_id: Type.Optional(ClientReference),
  quantity_options: Type.Optional(QuantityOptions),
}, strict);
export type QuoteItemRequest = Static<typeof QuoteItemRequest>;

/** The multipart form's `request` field: a quote item without design_id (the file is the design). */
export const FileQuoteRequest = Type.Composite([Type.Omit(QuoteItemRequest, ['design_id']), Type.Object({ ship_to: Type.Optional(ShipTo) })], strict);
export type FileQuoteRequest = Static<typeof FileQuoteRequest>;
