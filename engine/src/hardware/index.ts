// Bought-in hardware in an assembly (docs/api.md "Bought-in hardware"): a part taken, by its shape or
// its name, for a nut, screw, rivet nut, washer, pin, insert, bearing or standoff is not made: it stays
// in the design with what it was taken for and is left out of the job. A part that is neither sheet nor
// tube is not hardware for that alone: shape or name must say so.
import type { Solid } from '../geometry/model.ts';
import { KIND_WORDS, type HardwareKind } from './kinds.ts';
import { hardwareFromName } from './names.ts';
import { hardwareFromShape, MAX_HARDWARE_EXTENT_MM, type ShapeMatch } from './shape.ts';

export { HARDWARE_KINDS, KIND_WORDS, catalogKindOf, type HardwareKind } from './kinds.ts';
export { hardwareFromName, pemPartNumber, type NameMatch, type PemPartNumber } from './names.ts';
export { hardwareFromShape, threadOfDiameter, majorDiameterOf, type ShapeMatch } from './shape.ts';

export interface BoughtInRecognition {
  kind: HardwareKind;
  size: string | null;
  by: Array<'name' | 'shape'>;
  /** one sentence: what it was taken for and why */
  message: string;
  shape: ShapeMatch | null;
}

/** Kinds the shape names only loosely (a collared nut may be self-clinching): the name's word wins. */
const article = (w: string): string => (/^[aeiou]/i.test(w) ? 'an' : 'a');

/**
 * Whether a part is bought-in hardware. `madeAs`: what the recognisers made of it (a part accepted as
 * sheet or tube needs both its name and its shape to say hardware; a refused one either).
 */
export function recognizeBoughtIn(solid: Solid, madeAs: 'sheet' | 'tube' | 'refused'): BoughtInRecognition | null {
  const byName = hardwareFromName(solid.name);
  const byShape = hardwareFromShape(solid);
  const extent = Math.max(...[0, 1, 2].map((k) => solid.bbox.max[k] - solid.bbox.min[k]));
  const hardware = madeAs === 'refused' ? !!byShape || (!!byName && extent <= MAX_HARDWARE_EXTENT_MM) : !!byName && !!byShape;
  if (!hardware) return null;
  const kind: HardwareKind = byName?.kind ?? byShape!.kind;
  const size = byName?.size ?? byShape?.size ?? null;
  const what = `${size ? `${size} ` : ''}${KIND_WORDS[kind]}`;
  const why = [
    ...(byName ? [`its name '${solid.name}' says '${byName.matched}'`] : []),
    ...(byShape ? [`its shape is ${byShape.seen}`] : []),
  ];
  return {
    kind, size, by: [...(byName ? ['name' as const] : []), ...(byShape ? ['shape' as const] : [])], shape: byShape,
    message: `taken for ${article(what)} ${what} (${why.join('; ')}): bought-in hardware, left out of the job (not made, not priced); set left_out: false in its configuration entry to have it made`,
  };
}
