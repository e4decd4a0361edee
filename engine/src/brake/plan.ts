// The press-brake plan of one part: the bend table and the per-bend figures, as the DFM report
// carries them (its bend_plan). This schema is their one spelling: the search fills it, the report
// (dfm/contract.ts) embeds it.
import { Type, type Static } from '@sinclair/typebox';
import { enumOf, orNull } from '../contract/schema.ts';

const Num = (description: string) => Type.Number({ description });
const NumOrNull = (description: string) => orNull<number>({ type: 'number', description });

export const BendPlanStep = Type.Object({
  step: Type.Integer({ description: 'Position in the sequence, from 1.' }),
  bend_id: Type.Integer({ description: 'The bend (the part\'s `bends[].id`).' }),
  angle_degrees: Num('Bend angle, degrees.'),
  direction: enumOf(['up', 'down'] as const, { description: 'Bend direction seen from the top of the flat.' }),
  side_up: enumOf(['top', 'bottom'] as const, { description: 'The side of the flat facing the punch: `bottom` for a down bend (the part turned over).' }),
  behind_punch: enumOf(['left', 'right'] as const, { description: 'The side of the bend line (drawn from its first to its second end on the flat) that goes behind the punch, toward the back gauge.' }),
  punch_id: Type.String({ description: 'The punch (tooling catalog).' }),
  punch_length_mm: Num('Punch length set up from the catalog\'s sections, mm.'),
  die_id: Type.String({ description: 'The V-die (tooling catalog).' }),
  back_gauge_mm: NumOrNull('Distance from the bend line to the part\'s rearmost point before the stroke, in the section across the bend\'s middle, mm.'),
  force_kn: NumOrNull('Press force for the bend\'s length, kN.'),
  image_url: Type.Optional(orNull<string>({ type: 'string', description: 'A picture of the step (SVG, 307 to the file): the part\'s section across the bend at the bottom of the stroke, on the die under the punch. The engine leaves it null; the API fills it.' })),
});
export type BendPlanStep = Static<typeof BendPlanStep>;

export const BendPlanBend = Type.Object({
  bend_id: Type.Integer({ description: 'The bend (the part\'s `bends[].id`).' }),
  die_id: orNull<string>({ type: 'string', description: 'The V-die chosen by the air-bending rules, or null when none takes the bend.' }),
  v_opening_mm: NumOrNull('The die\'s V opening, mm.'),
  natural_radius_mm: NumOrNull('Inside radius air bending forms on that die, mm.'),
  modelled_radius_mm: Num('Inside radius of the model, mm.'),
  k_factor: NumOrNull('The material\'s K-factor at the natural radius.'),
  flat_change_mm: NumOrNull('How much longer (+) or shorter the flat is across this bend at the natural radius than at the modelled one, mm (null for a sharp bend).'),
  force_kn_per_m: NumOrNull('Air-bending force per metre of bend, kN/m.'),
  force_kn: NumOrNull('Force for the bend\'s length, kN.'),
  shortest_flange_mm: NumOrNull('The bend\'s shorter flange, mm.'),
  flange_needed_mm: NumOrNull('Flange needed to rest on both die shoulders at the end of the stroke, mm.'),
  flange_on_die: Type.Boolean({ description: 'Whether both flanges rest on the die shoulders.' }),
});
export type BendPlanBend = Static<typeof BendPlanBend>;

export const BendPlan = Type.Object({
  status: enumOf(['found', 'none', 'stopped', 'not_checked'] as const, { description: '`found` (a sequence without collisions), `none` (every order collides: finding `no_bend_sequence`), `stopped` (the bounded search ended without one) or `not_checked` (the design lacks bend lines or flange lengths).' }),
  message: orNull<string>({ type: 'string', description: 'Why there is no sequence, or null.' }),
  brake_id: Type.String({ description: 'The press brake of the tooling catalog.' }),
  sequence: Type.Array(BendPlanStep, { description: 'The bend table: the order, each bend\'s punch, die, orientation, back gauge and force.' }),
  bends: Type.Array(BendPlanBend, { description: 'Per bend: die, natural radius, K-factor, force, flange support.' }),
  tries: Type.Integer({ description: 'Bends tried after a set of bends during the search.' }),
  checks: Type.Integer({ description: 'Collision checks made during the search.' }),
});
export type BendPlan = Static<typeof BendPlan>;
