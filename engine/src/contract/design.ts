// The design and its parts as the API shows them (docs/api.md "Objects"), written once: these
// schemas are the TypeScript types (Static), the OpenAPI document's shapes and its field
// descriptions. The engine makes no URLs: it leaves every `*_url` null and the service fills them.
// Units: mm, mm2, cm2 where named, degrees.
import { Type, type Static } from '@sinclair/typebox';
import { described, enumOf, nullable, orNull, point3Mm, pointMm } from './schema.ts';

const Mm = (description: string) => Type.Number({ description });
const Id = Type.Integer({ description: 'Id of this item within its part, the same every time the same file is analysed.' });

export const SuggestedProcess = enumOf(['sheet_metal', 'tube_laser'] as const, { description: 'How it would be made: `sheet_metal` or `tube_laser`.' });
export type SuggestedProcess = Static<typeof SuggestedProcess>;

export const UNSUPPORTED_REASONS = [
  'not_constant_thickness', 'not_unfoldable', 'not_a_tube', 'too_large', 'not_sheet_metal', 'unsupported_geometry',
  'touching_flanges', 'non_cylindrical_bend',
  // the body is an open shell (surface model) that does not close even after sewing
  'open_shell',
] as const;
export type UnsupportedReason = (typeof UNSUPPORTED_REASONS)[number];

export const Dimensions = Type.Object({
  length_mm: Mm('Length, mm.'),
  width_mm: Mm('Width, mm.'),
  height_mm: Mm('Height, mm.'),
});
export type Dimensions = Static<typeof Dimensions>;

export const BendInfo = Type.Object({
  id: Id,
  angle_degrees: Type.Number({ description: 'Bend angle, degrees (how far the flange turns from flat).' }),
  radius_mm: Mm('Inner radius, mm.'),
  length_mm: Mm('Length of the bend line, mm.'),
  direction: enumOf(['up', 'down'] as const, { description: 'Bend direction seen from the top of the flat: `up` or `down`.' }),
  // DFM checks flange length only when present (absent from designs analysed before it was measured)
  flange_lengths_mm: Type.Optional(Type.Unsafe<[number, number] | null>({
    type: ['array', 'null'], items: { type: 'number' }, minItems: 2, maxItems: 2,
    description: 'Shortest straight length of the flat flange on each side of the bend, mm: measured perpendicular to the bend axis from the end of the bend radius (tangent line) to the flange\'s free edge or next bend.',
  })),
  line_mm: Type.Optional(Type.Unsafe<[[number, number], [number, number]] | null>({
    type: ['array', 'null'], items: { type: 'array', items: { type: 'number' }, minItems: 2, maxItems: 2 }, minItems: 2, maxItems: 2,
    description: 'The bend\'s centre line in the flat frame of `holes[].center_mm`: its two ends, mm.',
  })),
  line_id: Type.Optional(Type.Integer({
    description: 'Present when several bend segments lie on one line (tabs bent along one edge, apart: one press stroke may form them all): the id of the line\'s first segment, shared by every segment of it. Each segment is its own bend with its own length.',
  })),
});
export type BendInfo = Static<typeof BendInfo>;

export const HoleInfo = Type.Object({
  id: Id,
  shape: enumOf(['round', 'slot', 'other'] as const, { description: 'Hole shape: `round`, `slot` or `other`.' }),
  diameter_mm: Mm('Diameter, mm (a slot\'s width).'),
  face_id: Type.Integer({ description: 'The model face of the hole\'s wall (-1 when none was found).' }),
  center_mm: pointMm('Centre, mm, in the flat pattern\'s frame [x, y] (tubes: [x, s] on the unrolled outer wall).'),
  countersink: nullable(Type.Object({
    outer_diameter_mm: Mm('Outer diameter of the countersink, mm.'),
    angle_degrees: Type.Number({ description: 'Included angle of the countersink, degrees.' }),
  }), 'The hole\'s modelled countersink: outer diameter and angle, or null.'),
  nearest_bend_id: orNull<number>({ type: 'integer', description: 'The bend nearest to the hole (its `bends[].id`), or null.' }),
  distance_to_nearest_edge_mm: Mm('Distance from the hole\'s edge to the part\'s outer edge, mm.'),
  distance_to_nearest_bend_mm: orNull<number>({ type: 'number', description: 'Distance from the hole\'s edge to the nearest bend, mm.' }),
});
export type HoleInfo = Static<typeof HoleInfo>;

/**
 * Partial-depth work a laser cannot cut: counterbores and spot faces, blind holes, pockets and
 * recesses, engraving, chamfers or fillets on sheet edges, modelled threads. DFM blocks each one
 * (threads: until a tap is configured on their hole).
 */
export const BlindFeatureInfo = Type.Object({
  id: Id,
  kind: enumOf(['counterbore', 'blind_hole', 'pocket', 'engraving', 'edge_chamfer', 'edge_fillet', 'thread'] as const, { description: 'What kind of partial-depth feature it is.' }),
  center_mm: pointMm('Centre in the flat frame of `holes[].center_mm` (tubes: [x, s] on the unrolled outer wall), mm.'),
  position_mm: point3Mm('Centre in the part\'s own frame (the frame of `formed_dimensions`) [x, y, z], mm.'),
  size_mm: Mm('Round features: diameter (a thread\'s major diameter); pockets and engraving: the narrow side; chamfers and fillets: width across the edge; mm.'),
  length_mm: orNull<number>({ type: 'number', description: 'Long side of a pocket or engraving, edge length of a chamfer or fillet, mm; null for round features.' }),
  depth_mm: Mm('Depth, mm.'),
  side: enumOf(['top', 'bottom', 'outside', 'inside'] as const, { description: 'The surface it opens on: `top` or `bottom` of the flat (sheet), `outside` or `inside` (tube).' }),
  hole_id: orNull<number>({ type: 'integer', description: 'Counterbores and threads: the hole they sit on (the part\'s `holes[].id`), else null.' }),
  face_ids: Type.Array(Type.Integer(), { description: 'The model faces of the feature.' }),
});
export type BlindFeatureInfo = Static<typeof BlindFeatureInfo>;

export const FlatPatternInfo = Type.Object({
  k_factor: Type.Number({ description: 'ANSI K-factor of the bend allowance (neutral axis at r + K t).' }),
  length_mm: Mm('Length, mm.'),
  width_mm: Mm('Width, mm.'),
  area_mm2: Type.Number({ description: 'Area, square millimetres.' }),
  cut_length_mm: Mm('Total laser cut length, mm.'),
  pierce_count: Type.Integer({ description: 'Number of laser pierces (one per closed contour).' }),
});
export type FlatPatternInfo = Static<typeof FlatPatternInfo>;

/** The flat pattern of a part, or null when it is not sheet. */
export const FlatPattern = nullable(FlatPatternInfo, 'The unfolded part: K-factor, length, width, area, cut length, pierce count (null when not sheet).');

export const TubeInfo = Type.Object({
  profile: enumOf(['round', 'square', 'rectangular'] as const, { description: 'Tube profile: `round`, `square` or `rectangular`.' }),
  outer_diameter_mm: orNull<number>({ type: 'number', description: 'Outer diameter of a round tube, mm.' }),
  outer_width_mm: orNull<number>({ type: 'number', description: 'Outer width of a square or rectangular tube, mm.' }),
  outer_height_mm: orNull<number>({ type: 'number', description: 'Outer height of a square or rectangular tube, mm.' }),
  wall_thickness_mm: Mm('Tube wall thickness, mm.'),
  corner_radius_mm: orNull<number>({ type: 'number', description: 'Outer corner radius of a square or rectangular tube, mm.' }),
  length_mm: Mm('Length of the cut tube, mm.'),
  cut_length_mm: Mm('Total laser cut length, mm.'),
});
export type TubeInfo = Static<typeof TubeInfo>;

export const Warning = Type.Object({
  code: Type.String({ description: 'Stable machine-readable code of the warning.' }),
  message: Type.String({ description: 'Human explanation.' }),
});
export type Warning = Static<typeof Warning>;

export const HARDWARE_KIND_VALUES = [
  'self_clinching_nut', 'self_clinching_stud', 'self_clinching_standoff', 'rivet_nut', 'rivet', 'screw', 'bolt', 'nut',
  'washer', 'pin', 'threaded_insert', 'bearing', 'standoff', 'fastener',
] as const;

/** What a part was taken for when its shape or name says it is bought-in hardware (docs/api.md "Bought-in hardware"). */
export const BoughtIn = Type.Object({
  kind: enumOf(HARDWARE_KIND_VALUES, { description: 'What it was taken for: `self_clinching_nut`, `self_clinching_stud`, `self_clinching_standoff`, `rivet_nut`, `rivet`, `screw`, `bolt`, `nut`, `washer`, `pin`, `threaded_insert`, `bearing`, `standoff` or `fastener`.' }),
  size: orNull<string>({ type: 'string', description: 'Nominal thread (`M4`, `#8-32`) when its name or shape gives one, else null.' }),
  recognized_by: Type.Array(enumOf(['name', 'shape'] as const), { description: 'What said so: its `name` (a fastener word in any language, a standard or part number), its `shape` (a small solid of revolution with a thread-sized bore or shank, hex or knurl), or both.' }),
  message: Type.String({ description: 'What it was taken for and why, in words.' }),
});
export type BoughtIn = Static<typeof BoughtIn>;

/** Press-in hardware in one of a sheet part's holes: placed there in the assembly, or modelled into the part. */
export const SeatedHardware = Type.Object({
  hole_id: Type.Integer({ description: 'The hole it sits in (`holes[].id`).' }),
  kind: enumOf(['nut', 'stud', 'standoff'] as const, { description: 'The hardware catalog it is installed from: `nut`, `stud` or `standoff`.' }),
  size: Type.String({ description: 'Nominal thread (`M4`, `#8-32`).' }),
  length_mm: orNull<number>({ type: 'number', description: 'Its overall length along the hole\'s axis, mm (studs and standoffs are matched to the catalog length nearest it).' }),
  side: enumOf(['top', 'bottom'] as const, { description: 'The side of the flat it stands on (`top`: the flat\'s +Z).' }),
  part_id: orNull<string>({ type: 'string', description: 'The bought-in part of the assembly seated there (`parts[].id`), or null when the hardware is modelled into this part.' }),
});
export type SeatedHardware = Static<typeof SeatedHardware>;

export const Part = Type.Object({
  id: Type.String({ description: 'Unique id of the part (`prt_...`), the same every time the same file is analysed.' }),
  name: Type.String({ description: 'The part\'s name, from the STEP file.' }),
  suggested_process: SuggestedProcess,
  manufacturable: Type.Boolean({ description: 'Whether the part can be made as designed.' }),
  // a plain string: new reasons are added as the engine learns to explain more
  unsupported_reason: Type.Unsafe<UnsupportedReason | null>({ type: ['string', 'null'], description: `Why it cannot be made (${UNSUPPORTED_REASONS.map((r) => `\`${r}\``).join(', ')}), or null.` }),
  unsupported_message: orNull<string>({ type: 'string', description: 'Human explanation of `unsupported_reason`, or null.' }),
  instance_count: Type.Integer({ description: 'How many times the part occurs in the design.' }),
  formed_dimensions: described(Dimensions, 'Size of the formed part in its own frame, mm.'),
  detected_thickness_mm: orNull<number>({ type: 'number', description: 'Sheet thickness measured on the model, mm (null for a tube or a part that is not sheet).' }),
  volume_mm3: Type.Number({ description: 'Volume, cubic millimetres.' }),
  surface_area_cm2: Type.Number({ description: 'Surface area, square centimetres.' }),
  bend_count: Type.Integer({ description: 'Number of bends.' }),
  bends: Type.Array(BendInfo, { description: 'The bends: id, angle, direction, inner radius, length and line on the flat.' }),
  hole_count: Type.Integer({ description: 'Number of holes.' }),
  holes: Type.Array(HoleInfo, { description: 'Holes and cut-outs: id, shape, diameter, centre, distances to bends and edges.' }),
  // the engine always sets it ([] when none); designs analysed before it was found have none
  blind_features: Type.Optional(Type.Array(BlindFeatureInfo, { description: 'Features cut part-way into the part (counterbores, blind holes, pockets, chamfers, threads), each with kind, position, size and depth.' })),
  flat_pattern: FlatPattern,
  flat_pattern_dimensions: nullable(Dimensions, 'Flat pattern length and width, mm (null when not sheet).'),
  cut_length_mm: orNull<number>({ type: 'number', description: 'Total laser cut length, mm (null when the part is not made).' }),
  tube: nullable(TubeInfo, 'The tube: profile, outer size, wall thickness, length (null for a sheet part).'),
  warnings: Type.Array(Warning, { description: 'What to know about the analysis of this part (a surface model sewn into a solid, small gaps), each with a code.' }),
  // absent from designs analysed before bought-in hardware was recognised
  bought_in: Type.Optional(nullable(BoughtIn, 'Set when the part was taken for bought-in hardware (a nut, screw, rivet nut, washer, pin, insert, bearing, standoff): it is left out of the job unless its configuration entry sets `left_out: false`; null otherwise.')),
  seated_hardware: Type.Optional(Type.Array(SeatedHardware, { description: 'Press-in hardware (nut, stud, standoff) seated in this part\'s holes, by the assembly or modelled into the part: each becomes its hole\'s hardware selection by default.' })),
  model_url: orNull<string>({ type: 'string', description: 'The part\'s 3D model (GLB; 307 to the file).' }),
  flat_pattern_model_url: orNull<string>({ type: 'string', description: 'The flat pattern\'s 3D model (GLB), or null when not sheet.' }),
  image_url: orNull<string>({ type: 'string', description: 'An image of the part (307 to the file).' }),
});
/**
 * A sheet flat's cut contours as polygons, mm, in the flat's frame (that of `holes[].center_mm`):
 * within 0.1 mm of the true contours (engine/src/nest/flat-outline.ts). What the nester places.
 */
export interface FlatOutline { outer: Array<[number, number]>; holes: Array<Array<[number, number]>> }

/**
 * The contract's part, plus what the analysis keeps for the engine's own later use and no public
 * view shows: `_flat_outline`, the sheet flat's cut contours (the service keeps it in the stored
 * design and strips it from every design it serves; docs/nesting.md "Part outlines").
 */
export type Part = Static<typeof Part> & { _flat_outline?: FlatOutline };

export const PartInstance = Type.Object({
  id: Type.String({ description: 'Unique id of this occurrence (`pin_...`).' }),
  part_id: Type.String({ description: 'The unique part (the design\'s `parts[].id`).' }),
  instance_index: Type.Integer({ description: 'Which occurrence of the part, from 0.' }),
});
export type PartInstance = Static<typeof PartInstance>;

export const DESIGN_STATUSES = ['queued', 'processing', 'ready', 'failed'] as const;
export type DesignStatus = (typeof DESIGN_STATUSES)[number];

export const IgnoredBody = Type.Object({
  name: Type.String({ description: 'The body\'s name in the STEP file.' }),
  reason: enumOf(['zero_volume', 'duplicate'] as const, { description: 'Why it is not a part: `zero_volume` (a closed shell enclosing nothing) or `duplicate` (the same body twice at the same place).' }),
  message: Type.String({ description: 'Human explanation.' }),
});
export type IgnoredBody = Static<typeof IgnoredBody>;

export const Design = Type.Object({
  id: Type.String({ description: 'Unique id of the design (`des_...`).' }),
  object: Type.Literal('design', { description: 'The object\'s type name.' }),
  status: enumOf(DESIGN_STATUSES, { description: 'Where the analysis is: `queued`, `processing`, `ready` or `failed`.' }),
  status_url: orNull<string>({ type: 'string', description: 'Poll this URL for the status.' }),
  name: Type.String({ description: 'The design\'s name: the uploaded file\'s name.' }),
  created_at: Type.String({ format: 'date-time', description: 'When it was created (ISO 8601).' }),
  suggested_process: Type.Unsafe<SuggestedProcess | null>({ type: ['string', 'null'], enum: ['sheet_metal', 'tube_laser', null], description: 'How it would be made: `sheet_metal`, `tube_laser` or none.' }),
  formed_dimensions: nullable(Dimensions, 'Size of the whole formed design, mm (null until ready).'),
  parts: Type.Array(Part, { description: 'The unique parts.' }),
  part_instances: Type.Array(PartInstance, { description: 'Each occurrence of a part in the assembly.' }),
  model_url: orNull<string>({ type: 'string', description: 'The design\'s 3D model (GLB; 307 to the file), or null until ready.' }),
  image_url: orNull<string>({ type: 'string', description: 'An image of the design (307 to the file), or null until ready.' }),
  review_url: orNull<string>({ type: 'string', description: 'The web page where a person reviews and configures the ready design (null until ready).' }),
  review_link_id: orNull<string>({ type: 'string', description: 'The review link behind `review_url`, or null.' }),
  error: nullable(Type.Object({
    code: Type.String({ description: 'Stable machine-readable code; the error reference at /docs/errors explains each.' }),
    message: Type.String({ description: 'Human explanation.' }),
  }), 'Why the analysis failed, or null.'),
  ignored_bodies: Type.Array(IgnoredBody, { description: 'Bodies of the file that are not parts, each with why. Every body of the file is either a part (open shells included, as parts refused `open_shell`) or listed here.' }),
});
/** The contract's design; its parts may carry the engine's `_flat_outline` (see Part). */
export type Design = Omit<Static<typeof Design>, 'parts'> & { parts: Part[] };
