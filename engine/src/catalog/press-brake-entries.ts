// The press-brake tooling as the API lists it (its brakes, punches and dies lists): one schema
// per entry kind, written once for the types' readers, the OpenAPI document and its field
// descriptions. The figures are ./press-brake.ts's; docs/press-brake.md says what each means.
import { Type, type Static } from '@sinclair/typebox';
import { enumOf } from '../contract/schema.ts';

const Id = (example: string) => Type.String({ description: `Unique id of the entry (\`${example}\`).` });
const Name = Type.String({ description: 'The entry\'s name, to show.' });
const Mm = (description: string) => Type.Number({ description });
const Profile = Type.Array(Type.Tuple([Type.Number(), Type.Number()]), {
  description: 'Closed cross-section polygon, mm: [x, z] points, x across the brake (+x toward the front), z up.',
});
const Segments = Type.Array(Type.Number(), { description: 'Section lengths the shop holds, mm (any number of each): a tool set up for a bend is a sum of them.' });

export const PressBrakeMachine = Type.Object({
  id: Id('brk_...'),
  object: Type.Literal('press_brake', { description: 'The object\'s type name.' }),
  name: Name,
  bed_length_mm: Mm('Longest bend the bed and beam take, mm.'),
  max_force_kn: Mm('Press force, kN.'),
  open_height_mm: Mm('Daylight between the beam and the bed with no tools, mm.'),
  stroke_mm: Mm('Stroke of the beam, mm.'),
  upper_beam_half_width_mm: Mm('Half the width of the upper beam with its clamps, mm: a bent flange must clear it.'),
  lower_beam_half_width_mm: Mm('Half the width of the lower beam, mm.'),
});
export type PressBrakeMachine = Static<typeof PressBrakeMachine>;

export const PressBrakePunch = Type.Object({
  id: Id('pun_...'),
  object: Type.Literal('press_brake_punch', { description: 'The object\'s type name.' }),
  name: Name,
  style: enumOf(['straight', 'gooseneck', 'acute'] as const, { description: 'Profile: `straight`, `gooseneck` (clears a return flange) or `acute`.' }),
  angle_degrees: Mm('Included angle of the tip, degrees.'),
  tip_radius_mm: Mm('Radius of the tip, mm.'),
  height_mm: Mm('Height from the tip to the beam\'s clamp, mm.'),
  max_load_kn_per_m: Mm('Rated load, kN per metre of punch.'),
  segment_lengths_mm: Segments,
  profile_mm: Profile,
});
export type PressBrakePunch = Static<typeof PressBrakePunch>;

export const PressBrakeDie = Type.Object({
  id: Id('die_...'),
  object: Type.Literal('press_brake_die', { description: 'The object\'s type name.' }),
  name: Name,
  v_opening_mm: Mm('Width of the V between the shoulders, mm.'),
  angle_degrees: Mm('Included angle of the V, degrees.'),
  shoulder_radius_mm: Mm('Radius of the shoulders the sheet rests on, mm.'),
  height_mm: Mm('Height of the die, mm.'),
  width_mm: Mm('Width of the die body, mm.'),
  max_load_kn_per_m: Mm('Rated load, kN per metre of die.'),
  segment_lengths_mm: Segments,
  profile_mm: Profile,
});
export type PressBrakeDie = Static<typeof PressBrakeDie>;
