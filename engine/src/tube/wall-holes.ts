// Which tube cuts are holes of the part (Part.holes, labelled H): round holes, slots and windows whose
// outline is known; end cuts and notches are the tube's ends.
import type { TubeFeature } from '../geometry/model.ts';

export function isWallHole(f: TubeFeature): boolean {
  return (f.kind === 'hole' && f.diameter !== undefined) || (f.kind === 'slot' && f.width !== undefined)
    || (f.kind === 'cutout' && (f.outline ?? []).flat().length >= 3);
}
