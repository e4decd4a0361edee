// Tube recognition. Interface fixed; implementation in progress (issue 3).
import type { Solid, TubeAnalysis, Refusal } from '../geometry/model.ts';

/** null when the solid does not look like a tube at all (then sheet recognition is tried). */
export function recognizeTube(solid: Solid): TubeAnalysis | Refusal | null {
  void solid;
  return null;
}
