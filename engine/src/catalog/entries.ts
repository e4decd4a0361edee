// The catalog entries the API lists (docs/api.md "Catalog entries"), written once: the TypeScript
// types (Static), the OpenAPI document's shapes and their field descriptions.
import { Type, type Static } from '@sinclair/typebox';
import { described, enumOf, orNull } from '../contract/schema.ts';
import type { KFactorTable } from '../sheet/kfactor.ts';

export type Process = 'sheet_metal' | 'tube_laser';
const Processes = Type.Array(enumOf(['sheet_metal', 'tube_laser'] as const), { description: 'Processes it is offered for: `sheet_metal`, `tube_laser`.' });

/** Material family: decides K table, weldability, finish and hardware compatibility. */
export type MaterialType =
  | 'mild_steel'
  | 'galvanized_steel'
  | 'stainless_304'
  | 'stainless_316'
  | 'aluminum_5052'
  | 'aluminum_6061'
  | 'aluminum_6063'
  | 'copper'
  | 'brass'
  | 'chromoly_4130'
  | 'steel_a500'
  | 'steel_dom'
  | 'steel_s235';
// a plain string in the documents: a catalog may add families
const Family = (description: string) => Type.Unsafe<MaterialType>({ type: 'string', description });
const Families = Type.Array(Family('A material family.'), { description: 'Material families it can be used with.' });

const Id = (example: string) => Type.String({ description: `Unique id of the entry (\`${example}\`).` });
const Name = Type.String({ description: 'The entry\'s name, to show.' });
const Available = Type.Boolean({ description: 'Whether it can be ordered now.' });
const Cents = (what: string) => Type.Number({ description: `${what}, in cents of \`currency\` (USD).` });
const Mm = (description: string) => Type.Number({ description });

export const Material = Type.Object({
  id: Id('mat_...'),
  object: Type.Literal('material', { description: 'The object\'s type name.' }),
  name: Name,
  material: Type.String({ description: 'Material name, e.g. "5052-H32 Aluminum".' }),
  type: Family('Material family, e.g. `mild_steel`, `stainless_304`, `aluminum_5052`: decides K-factors, weldability, finishes and hardware.'),
  process: Type.Literal('sheet_metal', { description: 'The process it is cut with: `sheet_metal`.' }),
  thickness_in: Type.Number({ description: 'Thickness, inches.' }),
  thickness_mm: Mm('Thickness, mm.'),
  display_thickness: Type.String({ description: 'Thickness as the catalog states it (inches, mm and gauge).' }),
  description: Type.String({ description: 'Short human description, e.g. "Mild Steel (A1011 CS), 2.0 mm (0.079 in)".' }),
  gauge: orNull<number>({ type: 'number', description: 'US gauge when the sheet is sold by gauge, else null.' }),
  bendable: Type.Boolean({ description: 'Whether the shop bends this material.' }),
  density_g_per_cm3: Type.Number({ description: 'Density, grams per cubic centimetre.' }),
  weight_g_per_cm2: Type.Number({ description: 'Weight per square centimetre of sheet, grams.' }),
  // the figure clients read; a part's flat uses the table at its own r/t (dfm partKFactor)
  k_factor: Type.Number({ description: 'ANSI K-factor of the bend allowance (neutral axis at r + K t) at the default inner bend radius.' }),
  k_factor_table: Type.Unsafe<KFactorTable>({
    type: 'array', items: { type: 'array', items: { type: 'number' }, minItems: 2, maxItems: 2 },
    description: 'K-factor by inner radius over thickness: [r/t, K] rows, interpolated between.',
  }),
  min_bend_radius_mm: Mm('Smallest inner bend radius the shop bends this at, mm.'),
  default_bend_radius_mm: Mm('Inner radius made where the model has sharp (zero-radius) bends, mm.'),
  min_hole_diameter_mm: Mm('Smallest round hole or slot width that is cut, mm.'),
  min_flange_length_mm: Mm('Shortest flange that is bent (from the bend line to the flange end), mm.'),
  max_sheet_size_mm: Type.Object({
    length_mm: Mm('Length, mm.'),
    width_mm: Mm('Width, mm.'),
  }, { description: 'Largest sheet the laser takes, mm.' }),
  max_bend_length_mm: Mm('Longest bend the brake makes in this thickness, mm (0 when not bendable).'),
  cut_speed_mm_per_min: Type.Number({ description: 'Laser cutting speed, mm per minute.' }),
  pierce_time_s: Type.Number({ description: 'Time of one pierce, seconds.' }),
  price_per_kg_cents: Cents('Price per kilogram of sheet'),
  available: Available,
});
export type Material = Static<typeof Material>;

export type TubeShape = 'round' | 'square' | 'rectangular';

export const TubeProfile = Type.Object({
  id: Id('tub_...'),
  object: Type.Literal('tube_profile', { description: 'The object\'s type name.' }),
  display_name: Type.String({ description: 'Name to show.' }),
  material: Type.String({ description: 'Material name.' }),
  type: Family('Material family, e.g. `mild_steel`, `steel_a500`, `aluminum_6061`.'),
  shape: enumOf(['round', 'square', 'rectangular'] as const, { description: 'Tube profile: `round`, `square` or `rectangular`.' }),
  process: Type.Literal('tube_laser', { description: 'The process it is cut with: `tube_laser`.' }),
  outer_diameter_mm: orNull<number>({ type: 'number', description: 'Outer diameter of a round tube, mm.' }),
  outer_width_mm: orNull<number>({ type: 'number', description: 'Outer width of a square or rectangular tube, mm.' }),
  outer_height_mm: orNull<number>({ type: 'number', description: 'Outer height of a square or rectangular tube, mm.' }),
  wall_thickness_mm: Mm('Tube wall thickness, mm.'),
  corner_radius_mm: orNull<number>({ type: 'number', description: 'Outer corner radius of a square or rectangular tube, mm.' }),
  default_stock_length_mm: Mm('Length of stock tube bought, mm.'),
  density_g_per_cm3: Type.Number({ description: 'Density, grams per cubic centimetre.' }),
  weight_g_per_m: Type.Number({ description: 'Weight per metre of tube, grams.' }),
  cut_speed_mm_per_min: Type.Number({ description: 'Laser cutting speed, mm per minute.' }),
  pierce_time_s: Type.Number({ description: 'Time of one pierce, seconds.' }),
  price_per_kg_cents: Cents('Price per kilogram of tube'),
  available: Available,
});
export type TubeProfile = Static<typeof TubeProfile>;

export type FinishType = 'none' | 'deburr' | 'brush' | 'powder_coat' | 'anodize' | 'zinc_plate';
/** Kind of process a finish is: none, mechanical (deburr, brush), coating (powder), anodizing, plating. */
export type FinishCategory = 'none' | 'mechanical' | 'coating' | 'anodizing' | 'plating';

export const Finish = Type.Object({
  id: Id('fin_...'),
  object: Type.Literal('finish', { description: 'The object\'s type name.' }),
  name: Name,
  slug: Type.String({ description: 'Short name: the id without its prefix, hyphenated, e.g. "powder-coat".' }),
  category: Type.Unsafe<FinishCategory>({ type: 'string', description: 'Kind of process: `none`, `mechanical` (deburr, brush), `coating` (powder), `anodizing` or `plating`.' }),
  type: Type.Unsafe<FinishType>({ type: 'string', description: 'The finish: `none`, `deburr`, `brush`, `powder_coat`, `anodize` or `zinc_plate`.' }),
  processes: Processes,
  compatible_material_types: described(Families, 'Material families the finish can be applied to.'),
  requires_color: Type.Boolean({ description: 'Whether a powder-coat colour must be chosen with it.' }),
  base_price_cents: Type.Integer({ description: 'Price per finished part, in cents of `currency` (USD).' }),
  // fractional; amounts are rounded once per part
  price_per_cm2_cents: Cents('Price per square centimetre of finished surface'),
  lead_time_days: Type.Number({ description: 'Production days it adds.' }),
  max_part_length_mm: Mm('Largest part dimension the line takes, mm.'),
  description: Type.String({ description: 'Human description.' }),
  available: Available,
});
export type Finish = Static<typeof Finish>;

export const Viewer = Type.Object({
  base_color: Type.String({ description: 'Base colour of the rendered surface, #rrggbb.' }),
  metalness: Type.Number({ description: 'PBR metalness, 0..1.' }),
  roughness: Type.Number({ description: 'PBR roughness, 0..1.' }),
  gloss: Type.Number({ description: 'Gloss, 0..1.' }),
}, { description: 'Rendering hints for 3D previews.' });
export type Viewer = Static<typeof Viewer>;

export const PowderCoatColor = Type.Object({
  id: Id('pcc_...'),
  object: Type.Literal('powder_coat_color', { description: 'The object\'s type name.' }),
  name: Name,
  slug: Type.String({ description: 'Short name.' }),
  ral: Type.String({ description: 'RAL colour number.' }),
  hex_color: Type.String({ description: 'Colour as #rrggbb.' }),
  texture: enumOf(['gloss', 'satin', 'matte', 'texture'] as const, { description: 'Surface: `gloss`, `satin`, `matte` or `texture`.' }),
  price_multiplier: Type.Number({ description: 'Factor applied to the powder coat\'s price.' }),
  available: Available,
  viewer: Viewer,
});
export type PowderCoatColor = Static<typeof PowderCoatColor>;

export type ThreadStandard = 'metric' | 'unified';
const Standard = (description: string) => enumOf(['metric', 'unified'] as const, { description });

/** Fields every hardware catalog (taps, studs, nuts, standoffs) has for clients (docs/api.md "Catalog entries"). */
const hardwareSize = {
  size: Type.String({ description: 'Thread size as sold, e.g. `M4` or `#8-32`.' }),
  thread_standard: Standard('Thread standard of the hardware: `metric` or `unified` (the same as `standard`).'),
  hole_diameter_mm: Mm('The hole the part must have for it, mm: a tap\'s tap drill, an insert\'s mounting hole.'),
};
export const HardwareSize = Type.Object(hardwareSize);
export type HardwareSize = Static<typeof HardwareSize>;

const hardwareCommon = {
  ...hardwareSize,
  name: Name,
  thread: Type.String({ description: 'Thread designation, e.g. `M4x0.7` or `8-32 UNC`.' }),
  standard: Standard('Thread standard: `metric` or `unified`.'),
  min_center_to_edge_mm: Mm('Smallest distance from the hole\'s centre to the part\'s edge, mm.'),
  compatible_material_types: described(Families, 'Material families it can be used in.'),
  unit_price_cents: Cents('Price per item'),
  available: Available,
};

export const Tap = Type.Object({
  id: Id('tap_...'),
  object: Type.Literal('tap', { description: 'The object\'s type name.' }),
  ...hardwareCommon,
  major_diameter_mm: Mm('Major diameter of the thread, mm.'),
  pitch_mm: Mm('Thread pitch, mm.'),
  tap_drill_mm: Mm('Tap drill diameter, mm.'),
  // the modelled hole is accepted when its diameter lies in [min, max] (tap drill .. major)
  hole_diameter_min_mm: Mm('Smallest modelled hole accepted for it (the tap drill), mm.'),
  hole_diameter_max_mm: Mm('Largest modelled hole accepted for it (the major diameter), mm.'),
  min_thickness_mm: Mm('Thinnest sheet it is tapped in, mm.'),
});
export type Tap = Static<typeof Tap>;

export type HardwareKind = 'studs' | 'nuts' | 'standoffs';

export const HardwareGeometry = Type.Object({
  head_diameter_mm: Mm('Diameter of the head or collar (on the installation side), mm.'),
  head_height_mm: Mm('Height of the head or collar, mm.'),
  body_diameter_mm: Mm('Diameter of the body or shank below the head, mm.'),
  body_length_mm: Mm('Length of the body or shank below the head, mm.'),
  bore_diameter_mm: Mm('Threaded bore diameter of nuts and standoffs, mm (0 for studs).'),
}, { description: 'Dimensions its 3D model is built from, mm.' });
export type HardwareGeometry = Static<typeof HardwareGeometry>;

const hardwareBase = {
  ...hardwareCommon,
  series: Type.String({ description: 'Manufacturer-style series designation, e.g. FH, FHS, CLS, CLSS, SO.' }),
  body_material: enumOf(['steel', 'stainless', 'aluminum'] as const, { description: 'What it is made of: `steel`, `stainless` or `aluminum`.' }),
  mounting_hole_mm: Mm('The drilled or cut hole it presses into, mm.'),
  // + only: a press fit
  mounting_hole_tolerance_mm: Mm('How much larger than `mounting_hole_mm` the modelled hole may be, mm.'),
  min_sheet_thickness_mm: Mm('Thinnest sheet it is installed in, mm.'),
  install_price_cents: Cents('Price of installing one'),
  geometry: HardwareGeometry,
};

export const Stud = Type.Object({
  id: Id('std_...'),
  object: Type.Literal('stud', { description: 'The object\'s type name.' }),
  ...hardwareBase,
  length_mm: Mm('Length of the stud, mm.'),
});
export type Stud = Static<typeof Stud>;

export const Nut = Type.Object({
  id: Id('nut_...'),
  object: Type.Literal('nut', { description: 'The object\'s type name.' }),
  ...hardwareBase,
});
export type Nut = Static<typeof Nut>;

export const Standoff = Type.Object({
  id: Id('sto_...'),
  object: Type.Literal('standoff', { description: 'The object\'s type name.' }),
  ...hardwareBase,
  length_mm: Mm('Length of the standoff, mm.'),
  thru: Type.Boolean({ description: 'Whether its bore goes all the way through.' }),
});
export type Standoff = Static<typeof Standoff>;

export type Hardware = Stud | Nut | Standoff;
